// Command dealspot runs the Dealspot GraphQL server and its maintenance tasks.
//
//	dealspot [serve]            run the server (default)
//	dealspot worker             run only the order consumer (with /healthz and /metrics)
//	dealspot migrate            apply the pending migration files to the database
//	dealspot migrate --status   list the migration files and which the database has applied
//	dealspot seed               load demo data into an empty database
//	dealspot admin grant PHONE  make a user ADMIN (creating the user if needed)
//	dealspot admin block PHONE  block a user and end their sessions (unblock undoes it)
//
// Configuration comes from environment variables; see the README.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/service"
)

const usage = `usage: dealspot [serve | worker | migrate [--status] | seed | admin grant|block|unblock PHONE]

Configuration is read from environment variables (DEALSPOT_ADDR, DATABASE_URL,
REDIS_URL, QUEUE, JWT_SECRET, DEALSPOT_DEV, DEALSPOT_ENV, ADMIN_PHONES, …); see README.md.
`

func main() {
	if err := run(os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "dealspot:", err)
		os.Exit(1)
	}
}

// run is runContext until SIGINT or SIGTERM.
func run(args []string, getenv func(string) string, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runContext(ctx, args, getenv, stderr)
}

// runContext runs one command until it finishes or, for serve and worker, until ctx ends.
func runContext(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	if cmd == "help" || cmd == "-h" || cmd == "--help" {
		fmt.Fprint(stderr, usage)
		return nil
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	log := newLogger(cfg, stderr)
	quietRedisClient.Do(func() { goredis.SetLogger(redisClientLog{}) })
	redisClientLogger.Store(log)

	switch cmd {
	case "serve":
		return serve(ctx, cfg, log, false)
	case "worker":
		if err := workerCanReceive(cfg); err != nil {
			return err
		}
		cfg.Seckill.Consume = true
		return serve(ctx, cfg, log, true)
	case "migrate":
		return migrate(ctx, cfg, log, args, os.Stdout)
	case "seed":
		// The whole service, not just the store: the demo notes, likes and follows are
		// made through the app, which also writes what Redis derives from them.
		cfg.AutoMigrate, cfg.Seed = true, true
		cfg.Seckill.Consume, cfg.Seckill.ReconcileInterval = false, 0
		svc, err := service.New(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer closeLogged(log, "service", svc.Close)
		if !svc.Seeded {
			log.Info("seed skipped: the database is not empty (it already has shop types); nothing was written",
				slog.Bool("seeded", false))
			return nil
		}
		log.Info("seed finished", slog.Bool("seeded", true))
		return nil
	case "admin":
		return admin(ctx, cfg, log, args)
	}
	return fmt.Errorf("unknown command %q\n%s", cmd, usage)
}

// go-redis reports every failed dial on stderr by itself, in its own format; its lines
// go to our log at debug level instead, and the error that stops the process says it once.
var (
	quietRedisClient  sync.Once
	redisClientLogger atomic.Pointer[slog.Logger]
)

type redisClientLog struct{}

func (redisClientLog) Printf(ctx context.Context, format string, v ...any) {
	if l := redisClientLogger.Load(); l != nil {
		l.DebugContext(ctx, "redis client: "+fmt.Sprintf(format, v...))
	}
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(strings.ToUpper(cfg.LogLevel)))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// workerCanReceive refuses a worker that could never receive a claim: claims reach it
// only through a queue and a Redis shared with the serving nodes.
func workerCanReceive(cfg config.Config) error {
	var why []string
	if cfg.Queue == config.QueueMemory {
		why = append(why, "QUEUE=memory keeps claims inside the process that took them")
	}
	if cfg.UsesEmbeddedRedis() {
		why = append(why, "REDIS_URL=embedded is a Redis of this process alone")
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("worker: %s, so a separate worker would never receive a claim; "+
		"set QUEUE=redis, kafka or amqp and REDIS_URL=redis://… to the servers' Redis (or run serve, which consumes its own claims)",
		strings.Join(why, " and "))
}

// pprofHandler serves Go's profiles under /debug/pprof/ (PPROF_ADDR).
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// listen opens addr, naming setting (the variable that chose it) when it cannot.
func listen(setting, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%s: %s is already in use by another process; stop it or choose another address", setting, addr)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot listen on %s: %w", setting, addr, err)
	}
	return ln, nil
}

// serve runs the server; a worker consumes orders and serves only /healthz, /readyz and
// /metrics. The addresses are taken first, so that a taken port stops the process before
// it migrates, seeds or connects to anything.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, worker bool) error {
	ln, err := listen("DEALSPOT_ADDR", cfg.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	var metricsLn net.Listener
	if cfg.MetricsAddr != "" {
		if metricsLn, err = listen("METRICS_ADDR", cfg.MetricsAddr); err != nil {
			return err
		}
		defer metricsLn.Close()
	}
	if cfg.PprofAddr != "" {
		pprofLn, err := listen("PPROF_ADDR", cfg.PprofAddr)
		if err != nil {
			return err
		}
		pprofSrv := &http.Server{Handler: pprofHandler(), ReadHeaderTimeout: cfg.HTTP.ReadHeaderTimeout,
			ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
		go func() { _ = pprofSrv.Serve(pprofLn) }()
		defer pprofSrv.Close()
		log.Info("profiler serving", slog.String("pprof_addr", pprofLn.Addr().String()))
	}
	svc, err := service.New(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := svc.Close(); err != nil {
			log.Error("closing stores", slog.Any("error", err))
		}
	}()
	// Requests and websocket connections live on baseCtx, not on the signal context:
	// a signal stops new connections first, lets in-flight requests finish, and only
	// then ends the remaining (hijacked) websocket connections.
	baseCtx, endConnections := context.WithCancel(context.WithoutCancel(ctx))
	defer endConnections()
	handler := svc.Handler
	if worker {
		handler = svc.OpsHandler
	}
	srv := &http.Server{
		Addr:              cfg.Addr,
		Handler:           handler,
		ReadHeaderTimeout: cfg.HTTP.ReadHeaderTimeout,
		ReadTimeout:       cfg.HTTP.ReadTimeout,
		WriteTimeout:      cfg.HTTP.WriteTimeout,
		IdleTimeout:       cfg.HTTP.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
	}
	metricsAt := ln.Addr().String()
	var metricsSrv *http.Server
	if metricsLn != nil {
		metricsAt = metricsLn.Addr().String()
		metricsSrv = &http.Server{
			Handler:           svc.MetricsHandler,
			ReadHeaderTimeout: cfg.HTTP.ReadHeaderTimeout,
			ReadTimeout:       cfg.HTTP.ReadTimeout,
			WriteTimeout:      cfg.HTTP.WriteTimeout,
			IdleTimeout:       cfg.HTTP.IdleTimeout,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		}
		defer metricsSrv.Close()
	}
	log.Info("dealspot serving", slog.String("addr", ln.Addr().String()), slog.String("metrics_addr", metricsAt),
		slog.Bool("worker", worker), slog.Bool("dev", cfg.Dev), slog.String("database", svc.Store.Dialect()),
		slog.Bool("embedded_redis", svc.Redis.IsEmbedded()), slog.Bool("ide", cfg.IDE))
	if cfg.Dev && !worker {
		warnDevMode(log, ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	metricsErrc := make(chan error, 1)
	if metricsSrv != nil {
		go func() { metricsErrc <- metricsSrv.Serve(metricsLn) }()
	}
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case err := <-metricsErrc:
		return fmt.Errorf("serve metrics: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down: no new connections, finishing in-flight requests",
		slog.Duration("timeout", cfg.HTTP.ShutdownTimeout))
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.HTTP.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shutdown: %w", err)
	}
	endConnections()
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// warnDevMode says, where nobody can miss it, that this server hands out login codes:
// whoever reaches addr can log in as anyone.
func warnDevMode(log *slog.Logger, addr string) {
	log.Warn("DEV MODE: login codes are returned by the API (sendLoginCode answers with devCode), "+
		"so anyone who reaches "+addr+" can log in as anyone; never expose it — set DEALSPOT_DEV=false for a deployment",
		slog.String("addr", addr), slog.Bool("dev", true))
}

// admin changes an account on the deployment the configuration names. With the
// embedded Redis it acts through the running server's Redis (published under the data
// directory), so a block ends the user's sessions there at once.
func admin(ctx context.Context, cfg config.Config, log *slog.Logger, args []string) error {
	if len(args) != 2 || (args[0] != "grant" && args[0] != "block" && args[0] != "unblock") {
		return errors.New("usage: dealspot admin grant|block|unblock PHONE")
	}
	adm, err := service.OpenAdmin(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer closeLogged(log, "admin connections", adm.Close)
	if !adm.Attached {
		log.Info("no running server found: changing the database only (sessions start empty)")
	}
	if args[0] != "grant" {
		u, err := adm.Ops.BlockUser.Handle(ctx, args[1], args[0] == "block")
		if err != nil {
			return fmt.Errorf("admin %s: %w", args[0], err)
		}
		log.Info("admin "+args[0], slog.Int64("user_id", u.ID), slog.Bool("blocked", u.Blocked))
		return nil
	}
	u, err := adm.Ops.GrantAdmin.Handle(ctx, args[1])
	if err != nil {
		return fmt.Errorf("admin grant: %w", err)
	}
	log.Info("granted ADMIN", slog.Int64("user_id", u.ID), slog.String("nick_name", u.NickName))
	return nil
}

// closeLogged runs a deferred close and logs its error: the command's own result is
// already decided.
func closeLogged(log *slog.Logger, what string, closeFn func() error) {
	if err := closeFn(); err != nil {
		log.Warn("closing "+what+" failed", slog.Any("error", err))
	}
}
