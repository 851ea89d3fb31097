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
	"github.com/dealspot/dealspot/internal/app/orders"
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
	// cache is the server's session cache in Redis (nil with sessions).
	cache sessionCache
	// audit reads a sale's bookkeeping (nil when the stores are out of reach, and
	// auditNote says why).
	audit     func(ctx context.Context, voucherID int64) (seckill.Audit, error)
	auditNote string
	// ledger reads a sale's orders and payments for I6 and I7 (nil with audit).
	ledger func(ctx context.Context, voucherID int64) (orders.Ledger, error)
	// adminToken is the remote server's ADMIN token, once known.
	adminToken string
	closers    []func() error
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
	// The port is taken first, so the server knows its own address (the simulated
	// payment provider calls it back there).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	t.closers = append(t.closers, func() error {
		if err := ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			return err
		}
		return nil
	})
	cfg, err := config.Load(devModeOnPurpose(func(k string) string {
		switch v := getenv(k); {
		case v != "":
			return v
		case k == "DEALSPOT_DATA_DIR":
			return dir
		case k == "DEALSPOT_ADDR":
			return ln.Addr().String()
		}
		return ""
	}))
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
		if svc.Redis.IsCluster() {
			redisDesc = "redis cluster " + svc.Redis.Addr
		}
	}
	t.backends = fmt.Sprintf("%s, %s, queue %s", svc.Store.Dialect(), redisDesc, cfg.Queue)
	t.sessions = svc.Store.Sessions()
	t.cache = redisadapter.NewSessionCache(svc.Redis.Client)
	t.audit = svc.Ops.Reconciler.Audit
	t.ledger = svc.Store.Payments().Ledger
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
		t.cache = redisadapter.NewSessionCache(conn.Client)
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
		shards = config.DefaultSeckillShards
		if cfg, err := config.Load(devModeOnPurpose(getenv)); err == nil {
			shards = cfg.Seckill.Shards
		}
	}
	gate, err := redisadapter.NewSaleGate(conn.Client, redisadapter.GateConfig{Shards: shards})
	if err != nil {
		return nil, err
	}
	written := store.Orders()
	t.audit = func(ctx context.Context, voucherID int64) (seckill.Audit, error) {
		return seckill.ReadAudit(ctx, gate, written, voucherID)
	}
	t.ledger = store.Payments().Ledger
	t.backends = fmt.Sprintf("%s, redis %s/%d", store.Dialect(), conn.Addr, conn.DB)
	if conn.IsCluster() {
		t.backends = fmt.Sprintf("%s, redis cluster %s", store.Dialect(), conn.Addr)
	}
	return t, nil
}

// saleTitle names the sales the tool creates, so they are easy to tell apart.
const saleTitle = "dealspot-bench flash sale"

// createSale creates a flash sale that is open now and for hours after the run.
func (t *target) createSale(ctx context.Context, c *client, sc scenario) (int64, error) {
	begin, end := time.Now().Add(-time.Second), time.Now().Add(6*time.Hour)
	var buckets *int
	if sc.Buckets > 0 {
		buckets = &sc.Buckets
	}
	if t.svc != nil {
		v, err := t.svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
			VoucherInput: seckill.VoucherInput{ShopID: sc.ShopID, Title: saleTitle, PayValue: 100, ActualValue: 1000},
			Stock:        sc.Stock, Buckets: buckets, BeginTime: begin, EndTime: end,
		})
		if err != nil {
			return 0, fmt.Errorf("create flash sale: %w", err)
		}
		return v.ID, nil
	}
	token, err := t.admin(ctx, c, sc)
	if err != nil {
		return 0, err
	}
	var out struct {
		CreateFlashSale struct{ ID string }
	}
	err = c.call(ctx, token, `mutation Create($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`,
		map[string]any{"in": map[string]any{
			"shopId": strconv.FormatInt(sc.ShopID, 10), "title": saleTitle, "payValue": 100, "actualValue": 1000,
			"stock": sc.Stock, "buckets": buckets, "beginTime": begin.UTC().Format(time.RFC3339), "endTime": end.UTC().Format(time.RFC3339),
		}}, &out)
	if err != nil {
		return 0, fmt.Errorf("createFlashSale (is --admin-phone in the server's ADMIN_PHONES?): %w", err)
	}
	return strconv.ParseInt(out.CreateFlashSale.ID, 10, 64)
}

// admin returns the remote server's ADMIN token: --admin-token, else a login of
// --admin-phone ("" when neither is given).
func (t *target) admin(ctx context.Context, c *client, sc scenario) (string, error) {
	if t.adminToken != "" || (sc.AdminToken == "" && sc.AdminPhone == "") {
		return t.adminToken, nil
	}
	t.adminToken = sc.AdminToken
	if t.adminToken == "" {
		var err error
		if t.adminToken, err = login(ctx, c, sc.AdminPhone); err != nil {
			return "", fmt.Errorf("log in the admin (or give --admin-token): %w", err)
		}
	}
	return t.adminToken, nil
}

// redeemer redeems codes as the shop would, over GraphQL: in-process with a user made
// the merchant of the sale's shop, remotely with the ADMIN token (nil when neither can
// be had; the reason is in note).
func (t *target) redeemer(ctx context.Context, c *client, sc scenario, voucherID int64) (r redeemer, note string, err error) {
	token := ""
	if t.svc != nil {
		if token, err = t.merchant(ctx, c, voucherID); err != nil {
			return nil, "", fmt.Errorf("a merchant to redeem codes: %w", err)
		}
	} else if token, err = t.admin(ctx, c, sc); err != nil {
		return nil, "", err
	}
	if token == "" {
		return nil, "codes not redeemed: give --admin-phone or --admin-token", nil
	}
	return func(ctx context.Context, code string) (string, string, error) {
		var out struct{ RedeemOrder struct{ Status string } }
		if err := c.call(ctx, token, opRedeem, map[string]any{"code": code}, &out); err != nil {
			return "", codeOf(err), err
		}
		return out.RedeemOrder.Status, "", nil
	}, "", nil
}

// merchant logs a new user in and makes it the merchant of the sale's shop on the
// in-process server, as an ADMIN's setShopOwner would; it returns the user's token.
func (t *target) merchant(ctx context.Context, c *client, voucherID int64) (string, error) {
	v, err := t.svc.Store.Vouchers().Voucher(ctx, voucherID)
	if err != nil {
		return "", err
	}
	shopID := v.ShopID
	phones, err := benchPhones(1)
	if err != nil {
		return "", err
	}
	token, err := login(ctx, c, phones[0])
	if err != nil {
		return "", err
	}
	var me struct{ Me struct{ ID string } }
	if err := c.call(ctx, token, `query { me { id } }`, nil, &me); err != nil {
		return "", err
	}
	id, err := strconv.ParseInt(me.Me.ID, 10, 64)
	if err != nil {
		return "", fmt.Errorf("me.id %q: %w", me.Me.ID, err)
	}
	if _, err := t.svc.App.Commands.SetShopOwner.Handle(ctx, domain.Operator, shopID, id); err != nil {
		return "", fmt.Errorf("make user %d the merchant of shop %d: %w", id, shopID, err)
	}
	return token, nil
}

// devModeOnPurpose is getenv with DEALSPOT_DEV=true unless it names a mode itself
// (DEALSPOT_DEV or DEALSPOT_ENV). The in-process server logs its users in with the codes
// dev mode returns, on whatever database and admin phones the run names, which dev mode
// taken by default refuses.
func devModeOnPurpose(getenv func(string) string) func(string) string {
	return func(k string) string {
		if k == "DEALSPOT_DEV" && getenv("DEALSPOT_DEV") == "" && getenv("DEALSPOT_ENV") == "" {
			return "true"
		}
		return getenv(k)
	}
}
