// Command dealspot runs the Dealspot GraphQL server and its maintenance tasks.
//
//	dealspot [serve]            run the server (default)
//	dealspot worker             run only the order consumer (with /healthz and /metrics)
//	dealspot migrate            create or update the database schema
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
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/service"
)

const usage = `usage: dealspot [serve | worker | migrate | seed | admin grant|block|unblock PHONE]

Configuration is read from environment variables (DEALSPOT_ADDR, DATABASE_URL,
REDIS_URL, QUEUE, JWT_SECRET, DEALSPOT_DEV, DEALSPOT_ENV, ADMIN_PHONES, …); see README.md.
`

func main() {
	if err := run(os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "dealspot:", err)
		os.Exit(1)
	}
}

func run(args []string, getenv func(string) string, stderr io.Writer) error {
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	switch cmd {
	case "serve":
		return serve(ctx, cfg, log, false)
	case "worker":
		cfg.Seckill.Consume = true
		return serve(ctx, cfg, log, true)
	case "migrate":
		cfg.AutoMigrate = true
		store, err := service.OpenStore(ctx, cfg, log)
		if err != nil {
			return err
		}
		return store.Close()
	case "seed":
		cfg.AutoMigrate = true
		store, err := service.OpenStore(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer store.Close()
		seeded, err := store.Seed(ctx)
		if err != nil {
			return err
		}
		log.Info("seed finished", slog.Bool("seeded", seeded))
		return nil
	case "admin":
		return admin(ctx, cfg, log, args)
	}
	return fmt.Errorf("unknown command %q\n%s", cmd, usage)
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

// serve runs the server; a worker consumes orders and serves only /healthz, /readyz and
// /metrics.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, worker bool) error {
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
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	log.Info("dealspot serving", slog.String("addr", ln.Addr().String()), slog.Bool("worker", worker),
		slog.Bool("dev", cfg.Dev), slog.String("database", svc.Store.Dialect()),
		slog.Bool("embedded_redis", svc.Redis.IsEmbedded()), slog.Bool("ide", cfg.IDE))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
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
	defer adm.Close()
	if !adm.Attached {
		log.Info("no running server found: changing the database only (sessions start empty)")
	}
	if args[0] != "grant" {
		u, err := adm.Auth.BlockUser.Handle(ctx, args[1], args[0] == "block")
		if err != nil {
			return fmt.Errorf("admin %s: %w", args[0], err)
		}
		log.Info("admin "+args[0], slog.Int64("user_id", u.ID), slog.Bool("blocked", u.Blocked))
		return nil
	}
	u, err := adm.Auth.GrantAdmin.Handle(ctx, args[1])
	if err != nil {
		return fmt.Errorf("admin grant: %w", err)
	}
	log.Info("granted ADMIN", slog.Int64("user_id", u.ID), slog.String("nick_name", u.NickName))
	return nil
}
