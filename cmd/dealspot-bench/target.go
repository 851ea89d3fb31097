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
	"strconv"
	"strings"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
)

// target is the server under load: started in-process or reached by URL.
type target struct {
	baseURL string
	// mode and backends describe the server for the report.
	mode     string
	backends string
	// svc is the in-process service (nil for a remote server).
	svc *service.Node
	// jwtSecret is the in-process server's signing secret.
	jwtSecret string
	// sessions registers minted tokens' sessions (nil when Redis is out of reach).
	sessions sessionCreator
	// audit reads a sale's bookkeeping (nil when the stores are out of reach, and
	// auditNote says why).
	audit     func(ctx context.Context, voucherID int64) (seckill.Audit, error)
	auditNote string
	closers   []func() error
}

func (t *target) close() error {
	var errs []error
	for i := len(t.closers) - 1; i >= 0; i-- {
		errs = append(errs, t.closers[i]())
	}
	t.closers = nil
	return errors.Join(errs...)
}

// startInProcess builds the service from the environment, with its data in a
// temporary directory unless DEALSPOT_DATA_DIR says otherwise, and serves it over real
// HTTP on a loopback port so the numbers include the HTTP stack.
func startInProcess(ctx context.Context, sc scenario, getenv func(string) string, logTo io.Writer) (_ *target, err error) {
	t := &target{mode: "in-process"}
	defer func() {
		if err != nil {
			_ = t.close()
		}
	}()
	dir, err := os.MkdirTemp("", "dealspot-bench-")
	if err != nil {
		return nil, err
	}
	t.closers = append(t.closers, func() error { return os.RemoveAll(dir) })
	cfg, err := config.Load(func(k string) string {
		if v := getenv(k); v != "" || k != "DEALSPOT_DATA_DIR" {
			return v
		}
		return dir
	})
	if err != nil {
		return nil, fmt.Errorf("configuration:\n%w", err)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(strings.ToUpper(sc.ServerLog))); err != nil {
		return nil, fmt.Errorf("--server-log: %w", err)
	}
	log := slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: level}))
	svc, err := service.New(ctx, cfg, log)
	if err != nil {
		return nil, fmt.Errorf("start the server: %w", err)
	}
	t.closers = append(t.closers, svc.Close)
	t.svc, t.jwtSecret = svc, svc.JWTSecret()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{
		Handler:           svc.Handler,
		ReadHeaderTimeout: cfg.HTTP.ReadHeaderTimeout,
		ReadTimeout:       cfg.HTTP.ReadTimeout,
		WriteTimeout:      cfg.HTTP.WriteTimeout,
		IdleTimeout:       cfg.HTTP.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	go func() { _ = srv.Serve(ln) }()
	t.closers = append(t.closers, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return srv.Shutdown(ctx)
	})
	t.baseURL = "http://" + ln.Addr().String()

	redisDesc := "embedded redis"
	if !svc.Redis.IsEmbedded() {
		redisDesc = "redis " + svc.Redis.Addr + "/" + strconv.Itoa(svc.Redis.DB)
	}
	t.backends = fmt.Sprintf("%s, %s, queue %s", svc.Store.Dialect(), redisDesc, cfg.Queue)
	t.sessions = svc.Store.Sessions()
	t.audit = svc.Ops.Reconciler.Audit
	return t, nil
}

// connectRemote prepares a running server: its Redis (for minted sessions and the
// audit) and its database (for the audit) are opened only when given, and only read,
// apart from registering minted sessions.
func connectRemote(ctx context.Context, sc scenario, getenv func(string) string) (_ *target, err error) {
	t := &target{mode: "remote", baseURL: sc.URL, backends: "unknown backends"}
	defer func() {
		if err != nil {
			_ = t.close()
		}
	}()
	var conn *redisadapter.Conn
	if sc.RedisURL != "" {
		if conn, err = redisadapter.Open(ctx, sc.RedisURL); err != nil {
			return nil, err
		}
		t.closers = append(t.closers, conn.Close)
		// Without the database, minted sessions live in the cache only (a Redis wipe
		// ends them); with it they are registered where the server keeps them.
		t.sessions = redisadapter.NewSessionCache(conn.Client)
	}
	if sc.DatabaseURL == "" || conn == nil {
		t.auditNote = "not verified: give --database-url and --redis-url to audit the sale"
		return t, nil
	}
	store, err := entstore.Open(ctx, sc.DatabaseURL)
	if err != nil {
		return nil, err
	}
	t.closers = append(t.closers, store.Close)
	t.sessions = store.Sessions()
	shards := sc.Shards
	if shards == 0 {
		shards = 16
		if cfg, err := config.Load(getenv); err == nil {
			shards = cfg.Seckill.Shards
		}
	}
	gate, err := redisadapter.NewGate(conn.Client, redisadapter.GateConfig{Shards: shards})
	if err != nil {
		return nil, err
	}
	orders := store.Orders()
	t.audit = func(ctx context.Context, voucherID int64) (seckill.Audit, error) {
		return seckill.ReadAudit(ctx, gate, orders, voucherID)
	}
	t.backends = fmt.Sprintf("%s, redis %s/%d", store.Dialect(), conn.Addr, conn.DB)
	return t, nil
}

// saleTitle names the sales the tool creates, so they are easy to tell apart.
const saleTitle = "dealspot-bench flash sale"

// createSale creates a flash sale that is open now and for hours after the run.
func (t *target) createSale(ctx context.Context, c *client, sc scenario) (int64, error) {
	begin, end := time.Now().Add(-time.Second), time.Now().Add(6*time.Hour)
	if t.svc != nil {
		v, err := t.svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
			VoucherInput: seckill.VoucherInput{ShopID: sc.ShopID, Title: saleTitle, PayValue: 100, ActualValue: 1000},
			Stock:        sc.Stock, BeginTime: begin, EndTime: end,
		})
		if err != nil {
			return 0, fmt.Errorf("create flash sale: %w", err)
		}
		return v.ID, nil
	}
	token := sc.AdminToken
	if token == "" {
		var err error
		if token, err = login(ctx, c, sc.AdminPhone); err != nil {
			return 0, fmt.Errorf("log in the admin (or give --admin-token): %w", err)
		}
	}
	var out struct {
		CreateFlashSale struct{ ID string }
	}
	err := c.call(ctx, token, `mutation Create($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`,
		map[string]any{"in": map[string]any{
			"shopId": strconv.FormatInt(sc.ShopID, 10), "title": saleTitle, "payValue": 100, "actualValue": 1000,
			"stock": sc.Stock, "beginTime": begin.UTC().Format(time.RFC3339), "endTime": end.UTC().Format(time.RFC3339),
		}}, &out)
	if err != nil {
		return 0, fmt.Errorf("createFlashSale (is --admin-phone in the server's ADMIN_PHONES?): %w", err)
	}
	return strconv.ParseInt(out.CreateFlashSale.ID, 10, 64)
}
