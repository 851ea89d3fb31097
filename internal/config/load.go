package config

import (
	"errors"
	"path/filepath"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Load reads the configuration from getenv (os.Getenv in production, a map in tests) and
// validates it. The error names every offending variable at once, one per line: those
// that could not be read, then those that fail the checks across variables.
func Load(getenv func(string) string) (Config, error) {
	r := reader{getenv: getenv}
	c := Config{
		DataDir:   r.str("DEALSPOT_DATA_DIR", "./data"),
		RedisURL:  r.str("REDIS_URL", "embedded"),
		Queue:     r.str("QUEUE", QueueMemory),
		AMQPURL:   r.str("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/"),
		JWTSecret: r.str("JWT_SECRET", ""),
		Env:       r.str("DEALSPOT_ENV", "development"),
		LogLevel:  r.str("LOG_LEVEL", "info"),
		LogFormat: r.str("LOG_FORMAT", "text"),
	}
	c.DatabaseURL = r.str("DATABASE_URL", "sqlite://"+filepath.ToSlash(filepath.Join(c.DataDir, "dealspot.db")))
	c.DatabaseMaxConns = r.integer("DATABASE_MAX_CONNS", 32, 1)
	c.RedisGenerationCheck = r.durationOrZero("REDIS_GENERATION_CHECK_INTERVAL", time.Second)
	c.KafkaBrokers = r.list("KAFKA_BROKERS", "127.0.0.1:9092")
	// Phones as people write them (+86, spaces, dashes) are kept in the stored form;
	// validate names the ones that are not phones at all.
	c.AdminPhones = r.list("ADMIN_PHONES", "")
	for i, p := range c.AdminPhones {
		if n, ok := domain.NormalizePhone(p); ok {
			c.AdminPhones[i] = n
		}
	}
	embedded := c.UsesEmbeddedDatabase()
	c.Dev = r.boolean("DEALSPOT_DEV", c.Env != "production")
	c.DevOnPurpose = c.Dev && r.str("DEALSPOT_DEV", "") != ""
	// Dev mode answers with login codes: by default it is reachable from this machine only.
	c.Addr = r.str("DEALSPOT_ADDR", ":8080")
	if c.Dev {
		c.Addr = r.str("DEALSPOT_ADDR", DefaultDevAddr)
	}
	c.AllowEmbedded = r.boolean("ALLOW_EMBEDDED", false)
	c.AllowVolatileQueue = r.boolean("ALLOW_VOLATILE_QUEUE", false)
	c.MetricsAddr = r.str("METRICS_ADDR", "same")
	if c.MetricsAddr == "same" {
		c.MetricsAddr = ""
	}
	if r.str("METRICS_ADDR", "") == "" && c.IsProduction() {
		c.MetricsAddr = DefaultProductionMetricsAddr
	}
	c.PprofAddr = r.str("PPROF_ADDR", "")
	// Production never gets demo data unasked, whatever the store.
	c.Seed = r.boolean("DEALSPOT_SEED", (embedded || c.Dev) && !c.IsProduction())
	// Production never changes the schema unasked: `dealspot migrate` does.
	c.AutoMigrate = r.boolean("DEALSPOT_AUTO_MIGRATE", (embedded || c.Dev) && !c.IsProduction())
	c.Introspection = r.boolean("GRAPHQL_INTROSPECTION", c.Dev)
	c.IDE = r.boolean("GRAPHQL_IDE", c.Dev)
	c.HTTP = HTTP{
		MaxBodyBytes:      r.integer64("HTTP_MAX_BODY_BYTES", 64<<10, 1),
		MaxURLBytes:       r.integer64("HTTP_MAX_URL_BYTES", 64<<10, 1),
		ReadHeaderTimeout: r.duration("HTTP_READ_HEADER_TIMEOUT", 5*time.Second),
		ReadTimeout:       r.duration("HTTP_READ_TIMEOUT", 15*time.Second),
		WriteTimeout:      r.duration("HTTP_WRITE_TIMEOUT", 30*time.Second),
		IdleTimeout:       r.duration("HTTP_IDLE_TIMEOUT", 120*time.Second),
		ShutdownTimeout:   r.duration("HTTP_SHUTDOWN_TIMEOUT", 20*time.Second),
	}
	c.HTTP.TrustedProxies = r.prefixes("TRUSTED_PROXIES")
	c.Websocket = Websocket{
		SessionCheckInterval: r.duration("WS_SESSION_CHECK_INTERVAL", time.Second),
		MaxPerUser:           r.integer("WS_MAX_PER_USER", 10, 0),
		MaxPerIP:             r.integer("WS_MAX_PER_IP", 50, 0),
		MaxTotal:             r.integer("WS_MAX_CONNECTIONS", 10_000, 0),
		// A client follows a few orders and a merchant a few sales at once.
		MaxOperationsPerSocket: r.integer("WS_MAX_OPERATIONS_PER_SOCKET", 50, 0),
		MaxOperationsPerUser:   r.integer("WS_MAX_OPERATIONS_PER_USER", 100, 0),
		InitTimeout:            r.duration("WS_INIT_TIMEOUT", 3*time.Second),
	}
	c.GraphQL = GraphQL{
		MaxDepth:                  r.integer("GRAPHQL_MAX_DEPTH", 12, 1),
		MaxComplexity:             r.integer("GRAPHQL_MAX_COMPLEXITY", 1000, 1),
		MaxAliases:                r.integer("GRAPHQL_MAX_ALIASES", 30, 1),
		ExecTimeout:               r.duration("GRAPHQL_EXEC_TIMEOUT", 10*time.Second),
		QueryCacheSize:            r.integer("GRAPHQL_QUERY_CACHE_SIZE", 1000, 1),
		APQTTL:                    r.durationOrZero("APQ_TTL", 24*time.Hour),
		APQMaxDocumentBytes:       r.integer("APQ_MAX_DOCUMENT_BYTES", 16<<10, 1),
		APQRegistrationsPerClient: r.rate("APQ_REGISTRATIONS_PER_CLIENT", Rate{Max: 60, Window: 10 * time.Minute}),
		APQMaxBytes:               r.integer64("APQ_MAX_BYTES", 8<<20, 1),
		AllowedOrigins:            r.origins("GRAPHQL_ALLOWED_ORIGINS"),
		MaxTokens:                 r.integer("GRAPHQL_MAX_TOKENS", 15000, 1),
		MaxStringChars:            r.integer("GRAPHQL_MAX_STRING_LENGTH", 10000, 1),
		LoaderWait:                r.durationOrZero("DATALOADER_WAIT", 2*time.Millisecond),
		LoaderMaxBatch:            r.integer("DATALOADER_MAX_BATCH", 500, 1),
		FastClaim:                 r.boolean("CLAIM_FAST_PATH", true),

		MaxFragments:    r.integer("GRAPHQL_MAX_FRAGMENTS", 100, 1),
		MaxSpreadTokens: r.integer("GRAPHQL_MAX_SPREAD_TOKENS", 100_000, 1),
	}
	c.Paging = Paging{
		DefaultPageSize: r.integer("PAGE_SIZE_DEFAULT", 10, 1),
		MaxPageSize:     r.integer("PAGE_SIZE_MAX", 100, 1),
		NearbyRadius:    float64(r.integer("NEARBY_RADIUS_DEFAULT_METERS", 5000, 1)),
		MaxNearbyRadius: float64(r.integer("NEARBY_RADIUS_MAX_METERS", 50000, 1)),
		NearbyMaxDepth:  r.integer("NEARBY_MAX_DEPTH", 1000, 1),
		DealsMaxRadius:  r.integer("DEALS_NEARBY_MAX_RADIUS", 20000, 1),
		DealsMaxShops:   r.integer("DEALS_NEARBY_MAX_SHOPS", 500, 1),
	}
	c.Search = Search{
		MaxQueryLength: r.integer("SEARCH_MAX_QUERY_LENGTH", 64, 1),
		MaxPageSize:    r.integer("SEARCH_PAGE_SIZE_MAX", 50, 1),
	}
	c.Auth = Auth{
		AccessTTL:       r.duration("AUTH_ACCESS_TTL", 30*time.Minute),
		RefreshTTL:      r.duration("AUTH_REFRESH_TTL", 30*24*time.Hour),
		Leeway:          r.duration("AUTH_CLOCK_LEEWAY", 30*time.Second),
		CodeTTL:         r.duration("LOGIN_CODE_TTL", 2*time.Minute),
		CodeInterval:    r.duration("LOGIN_CODE_INTERVAL", time.Minute),
		CodeWindow:      r.duration("LOGIN_CODE_WINDOW", time.Hour),
		CodeWindowMax:   r.integer("LOGIN_CODE_WINDOW_MAX", 5, 1),
		CodeLock:        r.duration("LOGIN_CODE_LOCK", time.Hour),
		CodeDailyMax:    r.integer("LOGIN_CODE_DAILY_MAX", 10, 1),
		MaxWrongCodes:   r.integer("LOGIN_MAX_WRONG_CODES", 5, 1),
		IPLimits:        r.boolean("LOGIN_IP_LIMITS", !c.Dev),
		SendCodePerIP:   r.rate("LOGIN_SEND_CODE_PER_IP", Rate{Max: 30, Window: 10 * time.Minute}),
		LoginPerIP:      r.rate("LOGIN_PER_IP", Rate{Max: 60, Window: 10 * time.Minute}),
		WrongCodesPerIP: r.rate("LOGIN_WRONG_CODES_PER_IP", Rate{Max: 30, Window: time.Hour}),
		TokenCacheSize:  r.integer("AUTH_TOKEN_CACHE_SIZE", 20_000, 0),
		SessionCoalesce: r.coalesce("SESSION_CHECK_COALESCE"),
		AccountCacheTTL: r.duration("AUTH_ACCOUNT_CACHE_TTL", 10*time.Minute),
		Password: Password{
			MinLength:         r.integer("PASSWORD_MIN_LENGTH", 8, 8),
			MaxLength:         r.integer("PASSWORD_MAX_LENGTH", 128, 8),
			Argon2MemoryKiB:   r.integer("PASSWORD_ARGON2_MEMORY_KIB", 19456, 8),
			Argon2Iterations:  r.integer("PASSWORD_ARGON2_ITERATIONS", 2, 1),
			Argon2Parallelism: r.integer("PASSWORD_ARGON2_PARALLELISM", 1, 1),
			HashConcurrency:   r.integer("PASSWORD_HASH_CONCURRENCY", 4, 1),
			WrongPerClient:    r.rate("LOGIN_WRONG_PASSWORDS", Rate{Max: 5, Window: time.Hour}),
			WrongPerPhone:     r.rate("LOGIN_WRONG_PASSWORDS_PER_PHONE", Rate{Max: 20, Window: time.Hour}),
		},
	}
	cacheOn := r.boolean("CACHE_ENABLED", true)
	responseTTL := time.Second
	if !cacheOn {
		responseTTL = 0 // no cache of reads at all, unless RESPONSE_CACHE_TTL asks for one
	}
	c.Cache = Cache{
		Enabled:         cacheOn,
		LocalTTL:        r.durationOrZero("CACHE_L1_TTL", 2*time.Second),
		LocalMaxEntries: r.integer("CACHE_L1_MAX_ENTRIES", 100_000, 1),
		RemoteTTL:       r.duration("CACHE_L2_TTL", 30*time.Minute),
		NullTTL:         r.duration("CACHE_NULL_TTL", 30*time.Second),
		Jitter:          float64(r.integer("CACHE_TTL_JITTER_PERCENT", 10, 0)) / 100,
		HotTTL:          r.duration("CACHE_HOT_TTL", time.Minute),
		SoldRefresh:     r.duration("CACHE_SOLD_REFRESH_INTERVAL", time.Second),

		ResponseTTL:           r.durationOrZero("RESPONSE_CACHE_TTL", responseTTL),
		ResponseMaxBytes:      r.integer64("RESPONSE_CACHE_MAX_BYTES", 64<<20, 1),
		ResponseMaxEntryBytes: r.integer("RESPONSE_CACHE_MAX_ENTRY_BYTES", 256<<10, 1),

		BloomFilter:         cacheOn && r.boolean("BLOOM_FILTER", true),
		BloomRebuild:        r.durationOrZero("BLOOM_FILTER_REBUILD_INTERVAL", 10*time.Minute),
		BloomFalsePositives: float64(r.integer("BLOOM_FILTER_FALSE_POSITIVE_PERMILLE", 1, 1)) / 1000,
	}
	c.Seckill = Seckill{
		Shards:            r.integer("SECKILL_SHARDS", DefaultSeckillShards, 1),
		ClaimRate:         r.rate("CLAIM_RATE_PER_USER", Rate{Max: 5, Window: time.Second}),
		ClaimRateGlobal:   r.rate("CLAIM_RATE_GLOBAL", Rate{}),
		MaxStock:          r.integer64("SECKILL_MAX_STOCK", 10_000_000, 1),
		Consume:           r.boolean("ORDER_CONSUMER", true),
		QueueNamespace:    r.str("QUEUE_NAMESPACE", ""),
		BatchSize:         r.integer("ORDER_BATCH_SIZE", DefaultOrderBatchSize, 1),
		BatchWait:         r.duration("ORDER_BATCH_WAIT", DefaultOrderBatchWait),
		Workers:           r.integer("ORDER_WORKERS", DefaultOrderWorkers, 1),
		Consumers:         r.integer("ORDER_CONSUMERS", 0, 0),
		MaxRetries:        r.integer("ORDER_MAX_RETRIES", DefaultOrderMaxRetries, 1),
		WriteTimeout:      r.durationOrZero("ORDER_WRITE_TIMEOUT", DefaultOrderWriteTimeout),
		GateCoalesce:      r.coalesce("GATE_COALESCE"),
		SoldOutMarkTTL:    r.duration("SOLD_OUT_MARK_TTL", 10*time.Second),
		WarmupBefore:      r.durationOrZero("SALE_WARMUP_BEFORE", 10*time.Minute),
		ProgressInterval:  r.duration("SALE_PROGRESS_INTERVAL", time.Second),
		ProgressMaxSales:  r.integer("SALE_PROGRESS_MAX_SALES", 10_000, 0),
		PublishTimeout:    r.duration("CLAIM_PUBLISH_TIMEOUT", 5*time.Second),
		ReconcileInterval: r.durationOrZero("RECONCILE_INTERVAL", 10*time.Second),
		RepublishAfter:    r.duration("RECONCILE_REPUBLISH_AFTER", 30*time.Second),
		TransferAfter:     r.duration("RECONCILE_TRANSFER_AFTER", 5*time.Second),
		FailAfter:         r.duration("RECONCILE_FAIL_AFTER", 5*time.Minute),
		ReconcileLookback: r.duration("RECONCILE_LOOKBACK", 24*time.Hour),

		StreamClaimIdle:          r.duration("ORDER_STREAM_CLAIM_IDLE", DefaultStreamClaimIdle),
		StreamClaimInterval:      r.duration("ORDER_STREAM_CLAIM_INTERVAL", DefaultStreamClaimInterval),
		StatusRecheck:            r.durationOrZero("ORDER_STATUS_RECHECK", 15*time.Second),
		StatusRecheckConcurrency: r.integer("ORDER_STATUS_RECHECK_CONCURRENCY", 16, 1),
		AcceptedMax:              r.integer("ACCEPTED_CLAIMS_MAX", 100_000, 0),
		AcceptedSweep:            r.duration("ACCEPTED_CLAIMS_SWEEP_INTERVAL", time.Second),
	}
	c.Orders = Orders{
		PayTimeout:         r.duration("ORDER_PAY_TIMEOUT", 15*time.Minute),
		ReclaimAfterCancel: r.boolean("ORDER_RECLAIM_AFTER_CANCEL", true),
		MaxQuantity:        r.integer("ORDER_MAX_QUANTITY", 10, 1),
		ExpiryInterval:     r.duration("ORDER_EXPIRY_INTERVAL", time.Second),
		ExpiryBatch:        r.integer("ORDER_EXPIRY_BATCH", 1000, 1),
		StatsInterval:      r.duration("SALE_STATS_INTERVAL", 500*time.Millisecond),
	}
	c.Payment = Payment{
		Provider:            r.str("PAYMENT_PROVIDER", PaymentSim),
		WebhookSecret:       r.str("PAYMENT_WEBHOOK_SECRET", ""),
		SimDelay:            r.durationOrZero("PAYMENT_SIM_DELAY", time.Second),
		NotifyURL:           r.str("PAYMENT_NOTIFY_URL", ""),
		RefundRetryInterval: r.duration("PAYMENT_REFUND_RETRY_INTERVAL", 10*time.Second),
		SignatureTolerance:  r.duration("PAYMENT_SIGNATURE_TOLERANCE", 5*time.Minute),
	}
	if c.Payment.WebhookSecret == "" && c.Dev {
		c.Payment.WebhookSecret = DevPaymentSecret
	}
	c.Social = Social{
		Location:          r.location("DEALSPOT_TIMEZONE", "Asia/Shanghai"),
		LikersDefault:     r.integer("BLOG_LIKERS_DEFAULT", 5, 1),
		LikersMax:         r.integer("BLOG_LIKERS_MAX", 50, 1),
		InboxMax:          r.integer("FEED_INBOX_MAX", 1000, 1),
		SyncFanoutMax:     r.integer("FEED_SYNC_FANOUT_MAX", 200, 0),
		FollowBackfill:    r.integer("FEED_FOLLOW_BACKFILL", 20, 0),
		CommonFollowsMax:  r.integer("COMMON_FOLLOWS_MAX", 100, 1),
		VisitorMaxDays:    r.integer("UV_MAX_RANGE_DAYS", 366, 1),
		VisitorRetention:  r.duration("UV_RETENTION", 400*24*time.Hour),
		SignInCacheTTL:    r.duration("SIGNIN_CACHE_TTL", 24*time.Hour),
		CommentRate:       r.rate("COMMENT_RATE_PER_USER", Rate{Max: 10, Window: time.Minute}),
		BlogRate:          r.rate("BLOG_RATE_PER_USER", Rate{Max: 10, Window: time.Hour}),
		NotificationsKeep: r.integer("NOTIFICATIONS_KEEP", 500, 1),

		NotifyBuffer:          r.integer("NOTIFY_BUFFER", 10_000, 1),
		FollowedNoteMaxFanout: r.integer("NOTIFY_FOLLOWED_NOTE_MAX_FANOUT", 10_000, 0),
		ShopSaleMaxFanout:     r.integer("NOTIFY_SHOP_SALE_MAX_FANOUT", 10_000, 0),
		ExpiryWarningBefore:   r.durationOrZero("ORDER_EXPIRY_WARNING_BEFORE", 5*time.Minute),
		ExpiryWarningInterval: r.duration("ORDER_EXPIRY_WARNING_INTERVAL", 15*time.Second),
	}
	c.Favorites = Favorites{MaxPerUser: r.integer("FAVORITES_MAX_PER_USER", 1000, 1)}
	c.Reminders = Reminders{
		MaxPerUser: r.integer("REMINDERS_MAX_PER_USER", 200, 1),
		Before:     r.duration("SALE_REMINDER_BEFORE", 5*time.Minute),
		Interval:   r.duration("SALE_REMINDER_INTERVAL", 5*time.Second),
	}
	c.Waitlist = Waitlist{
		OfferTTL:      r.duration("WAITLIST_OFFER_TTL", 2*time.Minute),
		MaxPerSale:    r.integer("WAITLIST_MAX_PER_SALE", 10000, 1),
		SweepInterval: r.duration("WAITLIST_SWEEP_INTERVAL", time.Second),
		AnnounceGrace: r.duration("WAITLIST_ANNOUNCE_GRACE", 10*time.Second),
	}
	c.Media = Media{
		Dir:          r.str("MEDIA_DIR", filepath.Join(c.DataDir, "media")),
		MaxBytes:     r.integer64("UPLOAD_MAX_BYTES", 10<<20, 1),
		MaxSide:      r.integer("UPLOAD_MAX_SIDE", 8192, 1),
		MaxPixels:    r.integer64("UPLOAD_MAX_PIXELS", 40_000_000, 1),
		DecodeBudget: r.integer64("MEDIA_DECODE_BUDGET_BYTES", 256<<20, 1),
		RatePerUser:  r.rate("UPLOAD_RATE_PER_USER", Rate{Max: 20, Window: time.Hour}),
	}
	if r.str("UPLOAD_RATE_WINDOW", "") != "" {
		r.fail("UPLOAD_RATE_WINDOW", "not read: the window is part of UPLOAD_RATE_PER_USER (max/window such as 20/1h); unset it")
	}
	c.SMS = SMS{
		WebhookURL:     r.str("SMS_WEBHOOK_URL", ""),
		WebhookSecret:  r.str("SMS_WEBHOOK_SECRET", ""),
		Timeout:        r.duration("SMS_WEBHOOK_TIMEOUT", 5*time.Second),
		AttemptTimeout: r.duration("SMS_WEBHOOK_ATTEMPT_TIMEOUT", 2*time.Second),
		Attempts:       r.integer("SMS_WEBHOOK_ATTEMPTS", 3, 1),
		Backoff:        r.durationOrZero("SMS_WEBHOOK_BACKOFF", 200*time.Millisecond),
	}
	// Wrong codes no longer lock a phone (anyone could lock anyone out): a code dies after
	// LOGIN_MAX_WRONG_CODES wrong guesses, and wrong guesses are limited per IP.
	for _, gone := range []string{"LOGIN_WRONG_CODE_WINDOW", "LOGIN_WRONG_CODE_LOCK"} {
		if r.str(gone, "") != "" {
			r.fail(gone, "no longer used: wrong codes discard the code after LOGIN_MAX_WRONG_CODES and are limited per IP by LOGIN_WRONG_CODES_PER_IP; unset it")
		}
	}
	c.Tracing = r.tracing()
	if err := r.err(); err != nil {
		return Config{}, errors.Join(err, c.validate())
	}
	return c, c.validate()
}
