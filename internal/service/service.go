// Package service is Dealspot's composition root: it builds the adapters chosen by the
// configuration, the application on top of them, and the HTTP handler. cmd/ and
// component tests share it.
package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"

	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/adapters/localcache"
	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/adapters/queue"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/sms"
	"github.com/dealspot/dealspot/graph"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/regen"
	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
	cache "github.com/dealspot/dealspot/internal/readcache"
	"github.com/dealspot/dealspot/internal/server"
	"github.com/dealspot/dealspot/web"
)

// Node is one built Dealspot process (one node of a deployment): stores, application,
// workers and HTTP handler.
type Node struct {
	Config config.Config
	Log    *slog.Logger
	Store  *entstore.Store
	Redis  *redisadapter.Conn
	App    *app.Application
	// Ops are the use cases the process runs itself (workers, start-up, repairs) and the
	// operator's command line calls.
	Ops     *app.Operations
	Metrics *server.Metrics
	// Regen watches Redis's generation marker and rebuilds what Redis derives from the
	// database when Redis comes back empty; parts of the service register rebuilders.
	Regen *regen.Watcher
	// Seeded reports that New found the database empty and seeded the demo data.
	Seeded bool
	// ids are the Bloom filters of the shop and voucher ids that exist (nil: off).
	ids *idFilters
	// batchSizes observes the Redis batchers.
	batchSizes *metrics.BatchSizes
	Queue      *queue.Queue
	// Handler serves every HTTP route.
	Handler http.Handler
	// OpsHandler serves only /healthz, /readyz and /metrics (for a worker process).
	OpsHandler http.Handler
	// MetricsHandler serves /metrics on its own address when Config.MetricsAddr is set;
	// Handler and OpsHandler then leave it out.
	MetricsHandler http.Handler

	// sale runs the flash sale's order consumer, reconciler and sweeper.
	sale    *saleWorkers
	closers []func() error
	// tracer traces claims (nil: tracing off).
	tracer trace.TracerProvider
	// shopInvalidator drops changed shops from the cache (nil when nothing caches them).
	shopInvalidator shop.Invalidator
	// promote makes a shop's new owner a MERCHANT.
	promote shop.MerchantRoles
	// paymentNotify serves the payment provider's notifications.
	paymentNotify http.Handler
	// jwtSecret is the secret access tokens are signed with (JWT_SECRET, or dev mode's
	// kept random secret).
	jwtSecret []byte
	// notifications carries what the use cases report to the inboxes' writer.
	notifications *notifications
	// notificationBus tells every node whose inbox changed.
	notificationBus inbox.Bus
}

// JWTSecret returns the secret access tokens are signed with, for tools that mint tokens
// in-process (the load generator).
func (s *Node) JWTSecret() string { return string(s.jwtSecret) }

// OpenStore opens the relational store and brings its schema to this build's version
// or checks it is there. With AutoMigrate (dev mode and the embedded store, outside
// production) it applies the pending migration files; otherwise it never changes the
// schema and refuses a database that lacks one, saying to run `dealspot migrate`.
func OpenStore(ctx context.Context, cfg config.Config, log *slog.Logger) (*entstore.Store, error) {
	store, err := OpenStoreAsIs(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := readySchema(ctx, store, cfg.AutoMigrate, log); err != nil {
		_ = store.Close()
		return nil, err
	}
	return store, nil
}

// OpenStoreAsIs opens the relational store without migrating or checking its schema
// (`dealspot migrate` and its --status).
func OpenStoreAsIs(ctx context.Context, cfg config.Config) (*entstore.Store, error) {
	store, err := entstore.Open(ctx, cfg.DatabaseURL, entstore.MaxConns(cfg.DatabaseMaxConns))
	if err != nil {
		return nil, blame("DATABASE_URL", "the database", urlHost(cfg.DatabaseURL), err)
	}
	return store, nil
}

func readySchema(ctx context.Context, store *entstore.Store, migrate bool, log *slog.Logger) error {
	if !migrate {
		if err := store.Migrations().CheckMigrated(ctx); err != nil {
			return fmt.Errorf("database: %w", err)
		}
		return nil
	}
	return MigrateStore(ctx, store, log)
}

// MigrateStore applies the store's pending migration files and logs what it did.
func MigrateStore(ctx context.Context, store *entstore.Store, log *slog.Logger) error {
	return MigrateStoreTo(ctx, store, "", log)
}

// MigrateStoreTo is MigrateStore stopping after the file of version upTo ("": the latest).
func MigrateStoreTo(ctx context.Context, store *entstore.Store, upTo string, log *slog.Logger) error {
	migrations := store.Migrations()
	before, err := migrations.Status(ctx)
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	migrate := migrations.Migrate
	if upTo != "" {
		migrate = func(ctx context.Context) error { return migrations.MigrateTo(ctx, upTo) }
	}
	if err := migrate(ctx); err != nil {
		return fmt.Errorf("database: migrate the schema: %w", err)
	}
	after, err := migrations.Status(ctx)
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	applied, adopted := 0, 0
	for i, f := range after.Files {
		if before.Files[i].Applied.IsZero() && !f.Applied.IsZero() {
			if f.Adopted {
				adopted++
			} else {
				applied++
			}
		}
	}
	if adopted > 0 {
		log.Info("database created before versioned migrations adopted: its schema matched a version, recorded without running anything",
			slog.Int("adopted", adopted), slog.String("dialect", store.Dialect()))
	}
	log.Info("database schema migrated", slog.String("dialect", store.Dialect()),
		slog.String("version", after.Current()), slog.Int("applied", applied))
	if len(after.Unknown) > 0 {
		log.Warn("the database has migrations this build lacks: a newer build migrated it", slog.Any("versions", after.Unknown))
	}
	return nil
}

// New builds every part of Dealspot from cfg. Close releases what it opened.
func New(ctx context.Context, cfg config.Config, log *slog.Logger, opts ...Option) (_ *Node, err error) {
	s := &Node{Config: cfg, Log: log}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()

	if s.Store, err = OpenStore(ctx, cfg, log); err != nil {
		return nil, err
	}
	s.closers = append(s.closers, s.Store.Close)
	if cfg.Seed {
		if s.Seeded, err = s.Store.Seed(ctx); err != nil {
			return nil, err
		}
		if s.Seeded {
			log.Info("demo data seeded into the empty database")
		}
	}

	if s.Redis, err = redisadapter.Open(ctx, cfg.RedisURL); err != nil {
		return nil, blame("REDIS_URL", "Redis", urlHost(cfg.RedisURL), err)
	}
	s.closers = append(s.closers, s.Redis.Close)
	if s.Redis.IsEmbedded() {
		// `dealspot admin` finds the server (and its password) through this file.
		if err := s.Redis.Publish(EmbeddedRedisFile(cfg)); err != nil {
			return nil, err
		}
		log.Info("embedded redis started", slog.String("addr", s.Redis.Addr))
	}

	s.Metrics = server.NewMetrics()
	if s.batchSizes, err = metrics.NewBatchSizes(s.Metrics.Registry); err != nil {
		return nil, err
	}
	if err := registerPoolMetrics(s.Metrics.Registry, s.Store, s.Redis); err != nil {
		return nil, err
	}
	generation, err := claimGeneration(ctx, s.Metrics.Registry, s.Redis, cfg.RedisGenerationCheck, log)
	if err != nil {
		return nil, err
	}
	s.Regen = generation.regen
	persistence := newRedisPersistence(s.Redis, cfg, log)
	if err := persistence.check(ctx); err != nil {
		return nil, err
	}
	cacheMetrics, err := metrics.NewCacheMetrics(s.Metrics.Registry)
	if err != nil {
		return nil, err
	}
	var tokens auth.VerifiedTokens
	if cfg.Auth.TokenCacheSize > 0 {
		tc, err := localcache.New(cfg.Auth.TokenCacheSize)
		if err != nil {
			return nil, err
		}
		s.closers = append(s.closers, func() error { tc.Close(); return nil })
		tokens = metrics.NewCountedTokens(tc, cacheMetrics)
	}
	sessionChecks := coalescing(s.batchSizes, cfg.Auth.SessionCoalesce, "session_check")
	if s.jwtSecret, err = jwtSecret(cfg); err != nil {
		return nil, err
	}
	authCfg := cfg
	authCfg.JWTSecret = string(s.jwtSecret)
	authSvc, err := newAuth(authCfg, s.Store, s.Redis, tokens, sessionChecks, log)
	if err != nil {
		return nil, err
	}
	if err := importLegacySessions(ctx, s.Redis, s.Store, log); err != nil {
		return nil, err
	}

	caches, err := newCaches(ctx, cfg, s.Redis, cacheMetrics, log)
	if err != nil {
		return nil, err
	}
	s.closers = append(s.closers, caches.close)
	s.ids = newIDFilters(cfg.Cache, s.Store, log)

	pageLimits := domain.PageLimits{Default: cfg.Paging.DefaultPageSize, Max: cfg.Paging.MaxPageSize}
	o := newOptions(opts)
	var stopTracing func() error
	if s.tracer, stopTracing, err = startTracing(o, cfg.Tracing, log); err != nil {
		return nil, err
	}
	s.closers = append(s.closers, stopTracing)
	imgs, err := newMedia(cfg.Media, s.Redis, s.Store)
	if err != nil {
		return nil, err
	}
	if s.notifications, err = newNotifications(ctx, s); err != nil {
		return nil, err
	}
	soc, err := s.newSocial(o, imgs.images)
	if err != nil {
		return nil, err
	}
	shopDeps := shop.Deps{Repo: o.shops(s.Store.Shops()), Geo: redisadapter.NewGeoIndex(s.Redis.Client), Views: soc.Visits,
		Images: imgs.images}
	var shopInvalidator shop.Invalidator
	if cfg.Cache.Enabled {
		shopCache, err := newCache[domain.Shop](ctx, caches, "shop", cache.WithValid[domain.Shop](s.ids.shopValid))
		if err != nil {
			return nil, err
		}
		typeCache, err := newCache[[]domain.ShopType](ctx, caches, "shoptypes")
		if err != nil {
			return nil, err
		}
		listCache, err := newCache[[]domain.Shop](ctx, caches, "shoplists")
		if err != nil {
			return nil, err
		}
		shops, lists := cache.NewByID(shopCache), cache.NewByID(listCache)
		shopDeps.Shops, shopDeps.Types, shopDeps.Lists = shops, shopTypeReadCache{typeCache}, shopListCache{lists}
		shopInvalidator = shopReadCache{ByID: shops, lists: lists, ids: s.ids}
	}
	shops, err := shop.NewQueries(shopDeps, pageLimits, shop.NearbyLimits{
		DefaultRadiusMeters: cfg.Paging.NearbyRadius, MaxRadiusMeters: cfg.Paging.MaxNearbyRadius,
		MaxDepth: cfg.Paging.NearbyMaxDepth,
	})
	if err != nil {
		return nil, err
	}
	s.shopInvalidator = shopInvalidator
	shopCommands, err := shop.NewCommands(shopDeps, shopInvalidator)
	if err != nil {
		return nil, err
	}
	shopOps, err := shop.NewOperations(shopDeps)
	if err != nil {
		return nil, err
	}
	n, err := shopOps.RebuildNearbyIndex(ctx)
	if err != nil {
		return nil, err
	}
	log.Info("nearby index built", slog.Int("shops", n))
	searches, err := search.NewQueries(entstore.NewSearch(s.Store), soc.NoteViews, search.Limits{
		Pages:         domain.PageLimits{Default: min(cfg.Paging.DefaultPageSize, cfg.Search.MaxPageSize), Max: cfg.Search.MaxPageSize},
		MaxQueryRunes: cfg.Search.MaxQueryLength,
	})
	if err != nil {
		return nil, err
	}
	s.App = &app.Application{Commands: app.Commands{Shops: shopCommands}, Queries: app.Queries{Shops: shops, Search: searches}}
	s.Ops = &app.Operations{Shops: shopOps}
	s.App.Commands.AccountCommands, s.App.Queries.AccountQueries, s.Ops.AccountOperations = app.Account(authSvc)
	s.promote = authSvc.MerchantRoles
	if err := s.startSeckill(ctx, caches, o); err != nil {
		return nil, err
	}
	if err := s.startSocial(ctx, soc); err != nil {
		return nil, err
	}
	if err := s.startDiscovery(); err != nil {
		return nil, err
	}
	if err := s.startInbox(); err != nil {
		return nil, err
	}
	if err := s.startReminders(o); err != nil {
		return nil, err
	}
	stopFilters, err := s.ids.start(ctx, caches.deps.Invalidations, log)
	if err != nil {
		return nil, fmt.Errorf("build the id filters: %w", err)
	}
	s.closers = append(s.closers, stopFilters)
	s.App.Commands.MediaCommands = app.MediaCommands{UploadImage: imgs.upload, DeleteImage: imgs.images}
	s.App.Queries.MediaQueries = app.MediaQueries{Images: imgs.images}
	if s.Seeded {
		if err := s.seedDemoSocial(ctx); err != nil {
			return nil, err
		}
	}
	s.closers = append(s.closers, generation.watch(s.Ops))

	responses, err := s.newResponseCache(ctx, caches.deps.Invalidations)
	if err != nil {
		return nil, err
	}
	gql := graph.NewHandler(s.App, log, graph.Options{
		ResponseCache:  responses,
		MaxDepth:       cfg.GraphQL.MaxDepth,
		MaxComplexity:  cfg.GraphQL.MaxComplexity,
		MaxAliases:     cfg.GraphQL.MaxAliases,
		ExecTimeout:    cfg.GraphQL.ExecTimeout,
		QueryCacheSize: cfg.GraphQL.QueryCacheSize,
		MaxTokens:      cfg.GraphQL.MaxTokens,
		PageSize:       cfg.Paging.DefaultPageSize,
		MaxPageSize:    cfg.Paging.MaxPageSize,
		MaxStringChars: cfg.GraphQL.MaxStringChars,
		FastClaim:      cfg.GraphQL.FastClaim,
		Suggestions:    cfg.Dev,
		MaxBodyBytes:   cfg.HTTP.MaxBodyBytes,
		MaxUploadBytes: cfg.Media.MaxBytes,
		Introspection:  cfg.Introspection,
		Websocket: graph.WebsocketOptions{
			SessionCheckInterval:   cfg.Websocket.SessionCheckInterval,
			MaxPerUser:             cfg.Websocket.MaxPerUser,
			MaxPerIP:               cfg.Websocket.MaxPerIP,
			MaxTotal:               cfg.Websocket.MaxTotal,
			MaxOperationsPerSocket: cfg.Websocket.MaxOperationsPerSocket,
			MaxOperationsPerUser:   cfg.Websocket.MaxOperationsPerUser,
			InitTimeout:            cfg.Websocket.InitTimeout,
		},
		Observe:          s.Metrics.ObserveOperation,
		Loaders:          graph.LoaderOptions{Wait: cfg.GraphQL.LoaderWait, MaxBatch: cfg.GraphQL.LoaderMaxBatch},
		PersistedQueries: persistedQueries(cfg.GraphQL, s.Redis, log),
		APQ: graph.APQOptions{
			MaxDocumentBytes:       cfg.GraphQL.APQMaxDocumentBytes,
			RegistrationsPerClient: cfg.GraphQL.APQRegistrationsPerClient.Max,
			RegistrationWindow:     cfg.GraphQL.APQRegistrationsPerClient.Window,
			MaxBytes:               cfg.GraphQL.APQMaxBytes,
		},
		AllowedOrigins:  cfg.GraphQL.AllowedOrigins,
		Tracer:          s.tracer,
		TraceIncoming:   cfg.Tracing.Incoming,
		MaxFragments:    cfg.GraphQL.MaxFragments,
		MaxSpreadTokens: cfg.GraphQL.MaxSpreadTokens,
	})
	httpOpts := server.Options{
		Log:           log,
		GraphQL:       gql,
		PaymentNotify: s.paymentNotify,
		Media:         imgs.handler,
		DemoImages:    imgs.demo.Handler(),
		// The demo data's pictures, wherever it refers to them.
		DemoImagePrefixes: imgs.demo.Prefixes(),
		App:               web.Handler(),
		Favicon:           web.Favicon(),
		Metrics:           s.Metrics,
		IDE:               cfg.IDE,
		MaxBodyBytes:      cfg.HTTP.MaxBodyBytes,
		// A multipart upload carries one image and the operation beside it.
		MaxUploadBodyBytes: cfg.Media.MaxBytes + graph.MultipartOverheadBytes,
		MaxURLBytes:        cfg.HTTP.MaxURLBytes,
		// Per-IP limits see the client behind these proxies, not the proxy.
		TrustedProxies: cfg.HTTP.TrustedProxies,
		// A separate METRICS_ADDR keeps /metrics off the public address.
		MetricsElsewhere: cfg.MetricsAddr != "",
		Ready: map[string]server.Check{
			"database": s.Store.Ping,
			"redis":    func(ctx context.Context) error { return s.Redis.Client.Ping(ctx).Err() },
		},
		Warnings: map[string]server.Warning{"redis_persistence": persistence.warning},
	}
	s.Handler = server.NewHandler(httpOpts)
	httpOpts.GraphQL, httpOpts.PaymentNotify, httpOpts.Media, httpOpts.DemoImages = nil, nil, nil, nil
	s.OpsHandler = server.NewHandler(httpOpts)
	s.MetricsHandler = server.NewMetricsHandler(s.Metrics)
	return s, nil
}

// caches holds what every cache client shares: one L1, the Redis adapters and metrics.
type caches struct {
	cfg     cache.Config
	deps    cache.Deps
	local   *localcache.Cache
	clients []interface{ Close() error }
}

func newCaches(ctx context.Context, cfg config.Config, rc *redisadapter.Conn, cm *metrics.CacheMetrics, log *slog.Logger) (*caches, error) {
	c := &caches{
		cfg: cache.Config{
			LocalTTL:   cfg.Cache.LocalTTL,
			RemoteTTL:  cfg.Cache.RemoteTTL,
			NullTTL:    cfg.Cache.NullTTL,
			Jitter:     cfg.Cache.Jitter,
			LogicalTTL: cfg.Cache.HotTTL,
		},
		deps: cache.Deps{
			Remote:        redisadapter.NewCacheStore(rc.Client),
			Mutex:         redisadapter.NewCacheMutex(rc.Client),
			Invalidations: redisadapter.NewCacheInvalidations(rc.Client, rc.Channel(redisadapter.DefaultCacheInvalidationChannel)),
			Metrics:       cm,
			Logger:        log,
		},
	}
	if cfg.Cache.LocalTTL > 0 {
		var err error
		if c.local, err = localcache.New(cfg.Cache.LocalMaxEntries); err != nil {
			return nil, err
		}
		c.deps.Local = c.local
	}
	return c, nil
}

func newCache[V any](ctx context.Context, c *caches, name string, opts ...cache.Option[V]) (*cache.Client[V], error) {
	client, err := cache.New[V](ctx, name, c.cfg, c.deps, opts...)
	if err != nil {
		return nil, fmt.Errorf("cache %s: %w", name, err)
	}
	c.clients = append(c.clients, client)
	return client, nil
}

func (c *caches) close() error {
	var errs []error
	for _, cl := range c.clients {
		errs = append(errs, cl.Close())
	}
	if c.local != nil {
		c.local.Close()
	}
	return errors.Join(errs...)
}

// coalescing is c for a Redis batcher named name, its batch sizes observed in sizes.
func coalescing(sizes *metrics.BatchSizes, c config.Coalesce, name string) redisadapter.Coalescing {
	return redisadapter.Coalescing{Window: c.Window, Max: c.Max, Observe: sizes.For(name)}
}

// EmbeddedRedisFile is where a process running the embedded Redis publishes its address
// and password (mode 0600) for `dealspot admin`.
func EmbeddedRedisFile(cfg config.Config) string {
	return filepath.Join(cfg.DataDir, "embedded-redis.json")
}

func newAuth(cfg config.Config, store *entstore.Store, rc *redisadapter.Conn, tokens auth.VerifiedTokens,
	sessionChecks redisadapter.Coalescing, log *slog.Logger) (*auth.Service, error) {
	sender, err := newCodeSender(cfg, log)
	if err != nil {
		return nil, err
	}
	ac := auth.DefaultConfig()
	ac.DevMode = cfg.Dev
	ac.AdminPhones = cfg.AdminPhones
	if ac.JWTSecret, err = jwtSecret(cfg); err != nil {
		return nil, err
	}
	ac.AccessTTL, ac.RefreshTTL, ac.Leeway = cfg.Auth.AccessTTL, cfg.Auth.RefreshTTL, cfg.Auth.Leeway
	ac.AccountCacheTTL = cfg.Auth.AccountCacheTTL
	ac.Send = auth.SendLimits{
		CodeTTL:   cfg.Auth.CodeTTL,
		Interval:  cfg.Auth.CodeInterval,
		Window:    cfg.Auth.CodeWindow,
		WindowMax: cfg.Auth.CodeWindowMax,
		Lock:      cfg.Auth.CodeLock,
		Day:       ac.Send.Day,
		DayMax:    cfg.Auth.CodeDailyMax,
	}
	ac.Verify = auth.VerifyLimits{MaxWrong: cfg.Auth.MaxWrongCodes}
	ac.IPLimits = cfg.Auth.IPLimits
	ac.SendCodePerIP = auth.Limit(cfg.Auth.SendCodePerIP)
	ac.LoginPerIP = auth.Limit(cfg.Auth.LoginPerIP)
	ac.WrongCodesPerIP = auth.Limit(cfg.Auth.WrongCodesPerIP)
	pw := cfg.Auth.Password
	ac.Password = auth.PasswordConfig{
		MinLength: pw.MinLength, MaxLength: pw.MaxLength,
		Argon2: auth.Argon2Params{MemoryKiB: uint32(pw.Argon2MemoryKiB), Iterations: uint32(pw.Argon2Iterations),
			Parallelism: uint8(pw.Argon2Parallelism)},
		HashConcurrency: pw.HashConcurrency,
		WrongPerClient:  auth.Limit(pw.WrongPerClient), WrongPerPhone: auth.Limit(pw.WrongPerPhone),
	}
	return auth.New(ac, auth.Deps{
		Users:  store.Users(),
		Sender: sender,
		Codes:  redisadapter.NewCodeStore(rc.Client),
		// Sessions live in the database; Redis caches them for the per-request check.
		SessionRecords: store.Sessions(),
		SessionCache:   redisadapter.NewSessionCache(rc.Client).WithCoalescedChecks(sessionChecks),
		Limiter:        redisadapter.NewRateLimiter(rc.Client),
		Tokens:         tokens,
	})
}

// importLegacySessions copies into the database the login sessions an earlier version
// kept only in Redis, so the deployment logs nobody out. A session that cannot be read or
// stored is logged and left out; only a failed scan stops the start.
func importLegacySessions(ctx context.Context, rc *redisadapter.Conn, store *entstore.Store, log *slog.Logger) error {
	n, err := auth.ImportLegacySessions(ctx, redisadapter.NewSessionCache(rc.Client), store.Sessions(),
		func(key string, err error) {
			log.Warn("session only Redis held not copied into the database", slog.String("key", key), slog.Any("error", err))
		})
	if err != nil {
		return err
	}
	if n > 0 {
		log.Info("sessions only Redis held copied into the database", slog.Int("sessions", n))
	}
	return nil
}

// newCodeSender returns the SMS gateway's webhook when one is configured, else, in dev mode
// only, the sender that writes codes to the log.
func newCodeSender(cfg config.Config, log *slog.Logger) (auth.CodeSender, error) {
	if cfg.SMS.WebhookURL == "" {
		if !cfg.Dev {
			return nil, errors.New("SMS_WEBHOOK_URL: required outside dev mode")
		}
		log.Warn("login codes are written to the log (dev mode); set SMS_WEBHOOK_URL to send them by SMS")
		return sms.NewLogSender(log)
	}
	sender, err := sms.NewWebhookSender(sms.WebhookConfig{
		URL:            cfg.SMS.WebhookURL,
		Secret:         []byte(cfg.SMS.WebhookSecret),
		Timeout:        cfg.SMS.Timeout,
		AttemptTimeout: cfg.SMS.AttemptTimeout,
		Attempts:       cfg.SMS.Attempts,
		Backoff:        cfg.SMS.Backoff,
	})
	if err != nil {
		return nil, fmt.Errorf("SMS_WEBHOOK_URL: %w", err)
	}
	return sender, nil
}

// nothingToStop is the stop of a part that started nothing.
func nothingToStop() error { return nil }

// Close releases stores in the reverse order of opening.
func (s *Node) Close() error {
	var errs []error
	for i := len(s.closers) - 1; i >= 0; i-- {
		errs = append(errs, s.closers[i]())
	}
	s.closers = nil
	return errors.Join(errs...)
}
