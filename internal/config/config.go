// Package config reads Dealspot's configuration from the environment once, at start, into
// a validated struct. Nothing else in the program calls os.Getenv.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // time zones without relying on the host's zoneinfo
)

// DefaultProductionMetricsAddr is where production serves /metrics unless METRICS_ADDR
// says otherwise: loopback, for a local agent or a sidecar to scrape.
const DefaultProductionMetricsAddr = "127.0.0.1:9090"

// Queue backends.
const (
	QueueMemory = "memory"
	QueueRedis  = "redis"
	QueueKafka  = "kafka"
	QueueAMQP   = "amqp"
)

// Config is the whole configuration of a Dealspot process.
type Config struct {
	// Addr is the HTTP listen address (DEALSPOT_ADDR).
	Addr string
	// MetricsAddr is where /metrics is served when it is not Addr (METRICS_ADDR; default
	// 127.0.0.1:9090 in production; empty: on Addr, as METRICS_ADDR=same asks).
	MetricsAddr string
	// DataDir holds the embedded backends' files (DEALSPOT_DATA_DIR).
	DataDir string
	// DatabaseURL selects the relational store: sqlite://path or postgres://… (DATABASE_URL).
	DatabaseURL string
	// RedisURL is "embedded" or redis://host:port/db (REDIS_URL).
	RedisURL string
	// RedisGenerationCheck is how often a node reads Redis's generation marker to notice
	// that Redis came back empty and rebuild what it derives from the database
	// (REDIS_GENERATION_CHECK_INTERVAL; default 1s; 0: never, only at start).
	RedisGenerationCheck time.Duration
	// Queue is the order queue backend (QUEUE).
	Queue        string
	KafkaBrokers []string
	AMQPURL      string
	// JWTSecret signs access tokens (JWT_SECRET). Required outside dev mode; empty in dev
	// mode means a random secret kept in DataDir (see the service package).
	JWTSecret string
	// Dev turns on dev mode: IDE, introspection, login codes in API answers (DEALSPOT_DEV).
	Dev bool
	// Env is "development" or "production" (DEALSPOT_ENV).
	Env         string
	AdminPhones []string
	// Seed seeds demo data into an empty database at start (DEALSPOT_SEED; default: on
	// for the embedded SQLite store and in dev mode).
	Seed bool
	// AutoMigrate migrates the schema at start (DEALSPOT_AUTO_MIGRATE; default: on for
	// the embedded SQLite store and in dev mode).
	AutoMigrate bool
	// AllowEmbedded lets production run on the embedded SQLite store and the embedded
	// Redis (ALLOW_EMBEDDED; default false). Neither survives a lost machine.
	AllowEmbedded bool
	// Introspection and IDE may be turned on explicitly in production.
	Introspection bool
	IDE           bool
	LogLevel      string
	LogFormat     string

	HTTP      HTTP
	Websocket Websocket
	GraphQL   GraphQL
	Paging    Paging
	Auth      Auth
	Cache     Cache
	Seckill   Seckill
	Social    Social
	SMS       SMS
}

// SMS configures the delivery of login codes. Outside dev mode they go to an SMS
// gateway's webhook; the log sender (codes written to the log) is for dev mode only.
type SMS struct {
	// WebhookURL receives a signed POST per code (SMS_WEBHOOK_URL); empty in dev mode
	// selects the log sender.
	WebhookURL string
	// WebhookSecret keys the HMAC-SHA256 signature of the requests (SMS_WEBHOOK_SECRET).
	WebhookSecret string
	// Timeout bounds one delivery, retries included; AttemptTimeout one request.
	Timeout        time.Duration
	AttemptTimeout time.Duration
	// Attempts is the most requests per code; Backoff the first wait between them
	// (doubling).
	Attempts int
	Backoff  time.Duration
}

// Social tunes notes, likes, follows, the feed, sign-ins and visitor counts.
type Social struct {
	// Location is where days begin and end for sign-ins and visitor counts
	// (DEALSPOT_TIMEZONE, an IANA name).
	Location *time.Location
	// LikersDefault and LikersMax bound blogLikers.
	LikersDefault int
	LikersMax     int
	// InboxMax is how many entries a feed inbox keeps.
	InboxMax int
	// SyncFanoutMax is the most followers a new blog is pushed to inline; more go
	// through the fan-out stream.
	SyncFanoutMax int
	// FollowBackfill is how many of an author's newest blogs a new follower's feed gets.
	FollowBackfill int
	// CommonFollowsMax bounds commonFollows.
	CommonFollowsMax int
	// VisitorMaxDays bounds the range of uniqueVisitors; VisitorRetention is how long a
	// day's count is kept.
	VisitorMaxDays   int
	VisitorRetention time.Duration
	// SignInCacheTTL is how long Redis keeps a user's month of sign-ins after it was last
	// written or loaded from the database (months without sign-ins too).
	SignInCacheTTL time.Duration
}

// Seckill tunes the flash sale and its order queue.
type Seckill struct {
	// Shards spreads sales over hash-tag shards {s0}…; the Redis queue reads one stream
	// per shard. Changing it strands the state of running sales.
	Shards int
	// ClaimRate limits claimVoucher per user (Max 0: off).
	ClaimRate Rate
	MaxStock  int64
	// ClaimRateGlobal is a token bucket over all claims taken to the gate, per node:
	// Max claims, refilled at Max per Window (Max 0: off).
	ClaimRateGlobal Rate
	// Consume runs the order consumer inside serve (the worker command always does).
	Consume bool
	// QueueNamespace prefixes queue, topic and stream names (to share a broker).
	QueueNamespace string
	BatchSize      int
	BatchWait      time.Duration
	Workers        int
	Consumers      int
	MaxRetries     int
	// StreamClaimIdle is how long an entry of a Redis order stream may stay with a
	// consumer that no longer refreshes it before another consumer takes it over;
	// StreamClaimInterval is how often consumers refresh their entries and look for
	// such entries (QUEUE=redis).
	StreamClaimIdle     time.Duration
	StreamClaimInterval time.Duration
	// StatusRecheck is how often an orderStatus subscription still at PENDING re-reads
	// its order (0: only after the status bus reconnected); StatusRecheckConcurrency
	// bounds the re-reads running at once per node.
	StatusRecheck            time.Duration
	StatusRecheckConcurrency int
	// GateCoalesce batches concurrent gate calls: one script run per sale per batch.
	GateCoalesce Coalesce
	// SoldOutMarkTTL is how long a node trusts its own sold-out mark of a sale; it checks
	// the mark against Redis a little before that.
	SoldOutMarkTTL time.Duration
	// PublishTimeout bounds the gate step of a claim and the publish of an accepted one,
	// each, whatever the client does; a publish that outlasts it has an unknown outcome
	// and stays for the reconciler.
	PublishTimeout time.Duration
	// Reconcile runs the reconciler every ReconcileInterval (0: off).
	ReconcileInterval time.Duration
	RepublishAfter    time.Duration
	FailAfter         time.Duration
	// ReconcileLookback is how long after a sale's end the reconciler still repairs it.
	ReconcileLookback time.Duration
}

// Cache tunes the read caches (shops, shop types, vouchers).
type Cache struct {
	// Enabled off reads the database every time.
	Enabled bool
	// LocalTTL is the in-process L1's TTL; 0 turns L1 off (Redis only).
	LocalTTL        time.Duration
	LocalMaxEntries int
	RemoteTTL       time.Duration
	NullTTL         time.Duration
	Jitter          float64
	// HotTTL is how long a hot key (logical expiry) counts as fresh.
	HotTTL time.Duration
}

// Coalesce bounds the batching of concurrent Redis calls: calls arriving within Window
// of the first waiting one, up to Max, share one round trip. Window 0 turns it off.
type Coalesce struct {
	Window time.Duration
	Max    int
}

// Rate allows Max events per sliding Window; written "max/window", e.g. "30/10m".
type Rate struct {
	Max    int
	Window time.Duration
}

// Auth holds the login limits.
type Auth struct {
	AccessTTL  time.Duration
	RefreshTTL time.Duration
	// Leeway tolerates clock skew when checking token times.
	Leeway time.Duration
	// CodeTTL is how long a login code stays valid.
	CodeTTL time.Duration
	// CodeInterval is the least time between two codes for one phone.
	CodeInterval time.Duration
	// CodeWindow allows CodeWindowMax codes per phone; more lock the phone for CodeLock.
	CodeWindow    time.Duration
	CodeWindowMax int
	CodeLock      time.Duration
	// CodeDailyMax is the most codes one phone gets in any 24 hours.
	CodeDailyMax int
	// MaxWrongCodes wrong guesses of one login code discard it (its owner asks for a
	// new one); wrong guesses never lock the phone.
	MaxWrongCodes int
	// IPLimits turns the per-client-IP limits on (default: on outside dev mode).
	IPLimits      bool
	SendCodePerIP Rate
	LoginPerIP    Rate
	// WrongCodesPerIP limits wrong login codes per client IP.
	WrongCodesPerIP Rate
	// TokenCacheSize bounds the verified access tokens remembered (until they expire) so
	// that a repeated token is not parsed and its signature not checked again; 0: off.
	TokenCacheSize int
	// SessionCoalesce batches the per-request session checks into Redis pipelines.
	SessionCoalesce Coalesce
	// AccountCacheTTL is how long a user's role and blocked state stay cached in Redis
	// next to the sessions (changes made by Dealspot replace it at once).
	AccountCacheTTL time.Duration
}

// Websocket bounds websocket connections (counted per node, in memory).
type Websocket struct {
	// SessionCheckInterval is how often an open connection's session is checked again.
	SessionCheckInterval time.Duration
	// MaxPerUser, MaxPerIP and MaxTotal bound open connections per user, per client IP
	// and in total (0: unlimited).
	MaxPerUser int
	MaxPerIP   int
	MaxTotal   int
}

// HTTP bounds the HTTP server.
type HTTP struct {
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is believed
	// (TRUSTED_PROXIES: comma-separated CIDRs or addresses).
	TrustedProxies    []netip.Prefix
	MaxBodyBytes      int64
	MaxURLBytes       int64 // bounds the request target, where a GET carries its document
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	ShutdownTimeout   time.Duration
}

// GraphQL bounds what one GraphQL request may do (OWASP GraphQL Cheat Sheet).
type GraphQL struct {
	MaxDepth      int
	MaxComplexity int
	MaxAliases    int
	// ExecTimeout bounds the execution of one operation.
	ExecTimeout time.Duration
	// QueryCacheSize is the number of parsed queries kept.
	QueryCacheSize int
	// MaxTokens bounds the tokens of one document; parsing stops there.
	MaxTokens int
	// MaxStringChars bounds, in characters, every string argument and variable.
	MaxStringChars int
}

// Paging bounds list sizes.
type Paging struct {
	DefaultPageSize int
	MaxPageSize     int
	// NearbyRadius is the default and MaxNearbyRadius the largest nearbyShops radius, in
	// meters.
	NearbyRadius    float64
	MaxNearbyRadius float64
	// NearbyMaxDepth is how many shops a nearbyShops search may page through.
	NearbyMaxDepth int
}

// IsProduction reports whether the process runs in production.
func (c Config) IsProduction() bool { return c.Env == "production" }

// UsesEmbeddedDatabase reports whether the relational store is the embedded SQLite file.
func (c Config) UsesEmbeddedDatabase() bool { return strings.HasPrefix(c.DatabaseURL, "sqlite:") }

// UsesEmbeddedRedis reports whether Redis is the in-process server.
func (c Config) UsesEmbeddedRedis() bool { return c.RedisURL == "embedded" }

// Load reads the configuration from getenv (os.Getenv in production, a map in tests) and
// validates it. Errors name the offending variable.
func Load(getenv func(string) string) (Config, error) {
	r := reader{getenv: getenv}
	c := Config{
		Addr:      r.str("DEALSPOT_ADDR", ":8080"),
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
	c.RedisGenerationCheck = r.durationOrZero("REDIS_GENERATION_CHECK_INTERVAL", time.Second)
	c.KafkaBrokers = r.list("KAFKA_BROKERS", "127.0.0.1:9092")
	c.AdminPhones = r.list("ADMIN_PHONES", "")
	embedded := c.UsesEmbeddedDatabase()
	c.Dev = r.boolean("DEALSPOT_DEV", c.Env != "production")
	c.AllowEmbedded = r.boolean("ALLOW_EMBEDDED", false)
	c.MetricsAddr = r.str("METRICS_ADDR", "same")
	if c.MetricsAddr == "same" {
		c.MetricsAddr = ""
	}
	if r.str("METRICS_ADDR", "") == "" && c.IsProduction() {
		c.MetricsAddr = DefaultProductionMetricsAddr
	}
	// Production never gets demo data unasked, whatever the store.
	c.Seed = r.boolean("DEALSPOT_SEED", (embedded || c.Dev) && !c.IsProduction())
	c.AutoMigrate = r.boolean("DEALSPOT_AUTO_MIGRATE", embedded || c.Dev)
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
	}
	c.GraphQL = GraphQL{
		MaxDepth:       r.integer("GRAPHQL_MAX_DEPTH", 12, 1),
		MaxComplexity:  r.integer("GRAPHQL_MAX_COMPLEXITY", 1000, 1),
		MaxAliases:     r.integer("GRAPHQL_MAX_ALIASES", 30, 1),
		ExecTimeout:    r.duration("GRAPHQL_EXEC_TIMEOUT", 10*time.Second),
		QueryCacheSize: r.integer("GRAPHQL_QUERY_CACHE_SIZE", 1000, 1),
		MaxTokens:      r.integer("GRAPHQL_MAX_TOKENS", 15000, 1),
		MaxStringChars: r.integer("GRAPHQL_MAX_STRING_LENGTH", 10000, 1),
	}
	c.Paging = Paging{
		DefaultPageSize: r.integer("PAGE_SIZE_DEFAULT", 10, 1),
		MaxPageSize:     r.integer("PAGE_SIZE_MAX", 100, 1),
		NearbyRadius:    float64(r.integer("NEARBY_RADIUS_DEFAULT_METERS", 5000, 1)),
		MaxNearbyRadius: float64(r.integer("NEARBY_RADIUS_MAX_METERS", 50000, 1)),
		NearbyMaxDepth:  r.integer("NEARBY_MAX_DEPTH", 1000, 1),
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
	}
	c.Cache = Cache{
		Enabled:         r.boolean("CACHE_ENABLED", true),
		LocalTTL:        r.durationOrZero("CACHE_L1_TTL", 2*time.Second),
		LocalMaxEntries: r.integer("CACHE_L1_MAX_ENTRIES", 100_000, 1),
		RemoteTTL:       r.duration("CACHE_L2_TTL", 30*time.Minute),
		NullTTL:         r.duration("CACHE_NULL_TTL", 30*time.Second),
		Jitter:          float64(r.integer("CACHE_TTL_JITTER_PERCENT", 10, 0)) / 100,
		HotTTL:          r.duration("CACHE_HOT_TTL", time.Minute),
	}
	c.Seckill = Seckill{
		Shards:            r.integer("SECKILL_SHARDS", 16, 1),
		ClaimRate:         r.rate("CLAIM_RATE_PER_USER", Rate{Max: 5, Window: time.Second}),
		ClaimRateGlobal:   r.rate("CLAIM_RATE_GLOBAL", Rate{}),
		MaxStock:          r.integer64("SECKILL_MAX_STOCK", 10_000_000, 1),
		Consume:           r.boolean("ORDER_CONSUMER", true),
		QueueNamespace:    r.str("QUEUE_NAMESPACE", ""),
		BatchSize:         r.integer("ORDER_BATCH_SIZE", 256, 1),
		BatchWait:         r.duration("ORDER_BATCH_WAIT", 5*time.Millisecond),
		Workers:           r.integer("ORDER_WORKERS", 2, 1),
		Consumers:         r.integer("ORDER_CONSUMERS", 0, 0),
		MaxRetries:        r.integer("ORDER_MAX_RETRIES", 5, 1),
		GateCoalesce:      r.coalesce("GATE_COALESCE"),
		SoldOutMarkTTL:    r.duration("SOLD_OUT_MARK_TTL", 10*time.Second),
		PublishTimeout:    r.duration("CLAIM_PUBLISH_TIMEOUT", 5*time.Second),
		ReconcileInterval: r.durationOrZero("RECONCILE_INTERVAL", 10*time.Second),
		RepublishAfter:    r.duration("RECONCILE_REPUBLISH_AFTER", 30*time.Second),
		FailAfter:         r.duration("RECONCILE_FAIL_AFTER", 5*time.Minute),
		ReconcileLookback: r.duration("RECONCILE_LOOKBACK", 24*time.Hour),

		StreamClaimIdle:          r.duration("ORDER_STREAM_CLAIM_IDLE", 5*time.Second),
		StreamClaimInterval:      r.duration("ORDER_STREAM_CLAIM_INTERVAL", time.Second),
		StatusRecheck:            r.durationOrZero("ORDER_STATUS_RECHECK", 15*time.Second),
		StatusRecheckConcurrency: r.integer("ORDER_STATUS_RECHECK_CONCURRENCY", 16, 1),
	}
	c.Social = Social{
		Location:         r.location("DEALSPOT_TIMEZONE", "Asia/Shanghai"),
		LikersDefault:    r.integer("BLOG_LIKERS_DEFAULT", 5, 1),
		LikersMax:        r.integer("BLOG_LIKERS_MAX", 50, 1),
		InboxMax:         r.integer("FEED_INBOX_MAX", 1000, 1),
		SyncFanoutMax:    r.integer("FEED_SYNC_FANOUT_MAX", 200, 0),
		FollowBackfill:   r.integer("FEED_FOLLOW_BACKFILL", 20, 0),
		CommonFollowsMax: r.integer("COMMON_FOLLOWS_MAX", 100, 1),
		VisitorMaxDays:   r.integer("UV_MAX_RANGE_DAYS", 366, 1),
		VisitorRetention: r.duration("UV_RETENTION", 400*24*time.Hour),
		SignInCacheTTL:   r.duration("SIGNIN_CACHE_TTL", 24*time.Hour),
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
	if r.err != nil {
		return Config{}, r.err
	}
	return c, c.validate()
}

func (c Config) validate() error {
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...)))
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		bad("DEALSPOT_ADDR", "want host:port such as :8080, got %q", c.Addr)
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			bad("METRICS_ADDR", "want host:port such as 127.0.0.1:9090, or same, got %q", c.MetricsAddr)
		} else if c.MetricsAddr == c.Addr {
			bad("METRICS_ADDR", "is DEALSPOT_ADDR (%s); leave it empty or set same to serve /metrics there", c.Addr)
		}
	}
	if err := validateDatabaseURL(c.DatabaseURL); err != nil {
		bad("DATABASE_URL", "%v", err)
	}
	if err := validateRedisURL(c.RedisURL); err != nil {
		bad("REDIS_URL", "%v", err)
	}
	switch c.Queue {
	case QueueMemory, QueueRedis, QueueKafka, QueueAMQP:
	default:
		bad("QUEUE", "want memory, redis, kafka or amqp, got %q", c.Queue)
	}
	if c.Queue == QueueAMQP {
		if u, err := url.Parse(c.AMQPURL); err != nil || (u.Scheme != "amqp" && u.Scheme != "amqps") {
			bad("AMQP_URL", "want amqp://user:pass@host:port/vhost")
		}
	}
	if c.Queue == QueueKafka && len(c.KafkaBrokers) == 0 {
		bad("KAFKA_BROKERS", "want at least one host:port")
	}
	switch c.Env {
	case "development", "production":
	default:
		bad("DEALSPOT_ENV", "want development or production, got %q", c.Env)
	}
	switch {
	case c.JWTSecret == "" && !c.Dev:
		bad("JWT_SECRET", "required outside dev mode: set a random secret of 32+ bytes (e.g. openssl rand -base64 48)")
	case c.JWTSecret != "" && len(c.JWTSecret) < 32:
		bad("JWT_SECRET", "must be at least 32 bytes")
	}
	if c.IsProduction() {
		if c.Dev {
			bad("DEALSPOT_DEV", "production refuses dev mode")
		}
		if c.UsesEmbeddedDatabase() && !c.AllowEmbedded {
			bad("DATABASE_URL", "production refuses the embedded SQLite store; set DATABASE_URL=postgres://… (or ALLOW_EMBEDDED=true to accept it)")
		}
		if c.UsesEmbeddedRedis() && !c.AllowEmbedded {
			bad("REDIS_URL", "production refuses the embedded Redis; set REDIS_URL=redis://host:port/db (or ALLOW_EMBEDDED=true to accept it)")
		}
	}
	c.validateSMS(bad)
	for _, p := range c.AdminPhones {
		if !phonePattern(p) {
			bad("ADMIN_PHONES", "%q is not a mainland mobile number", p)
		}
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		bad("LOG_LEVEL", "want debug, info, warn or error, got %q", c.LogLevel)
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		bad("LOG_FORMAT", "want text or json, got %q", c.LogFormat)
	}
	if time.Duration(c.Auth.CodeWindowMax)*c.Auth.CodeInterval > c.Auth.CodeWindow {
		bad("LOGIN_CODE_WINDOW", "must be at least LOGIN_CODE_WINDOW_MAX × LOGIN_CODE_INTERVAL (%s), or its limit is never reached",
			time.Duration(c.Auth.CodeWindowMax)*c.Auth.CodeInterval)
	}
	if c.Paging.DefaultPageSize > c.Paging.MaxPageSize {
		bad("PAGE_SIZE_DEFAULT", "must not exceed PAGE_SIZE_MAX (%d)", c.Paging.MaxPageSize)
	}
	if c.Seckill.FailAfter <= c.Seckill.RepublishAfter {
		bad("RECONCILE_FAIL_AFTER", "must be longer than RECONCILE_REPUBLISH_AFTER (%s)", c.Seckill.RepublishAfter)
	}
	if c.Seckill.StreamClaimInterval*2 > c.Seckill.StreamClaimIdle {
		bad("ORDER_STREAM_CLAIM_INTERVAL", "must be at most half of ORDER_STREAM_CLAIM_IDLE (%s), or live consumers lose entries they are still working on", c.Seckill.StreamClaimIdle)
	}
	if c.Cache.Jitter > 1 {
		bad("CACHE_TTL_JITTER_PERCENT", "must be between 0 and 100")
	}
	if c.Social.LikersDefault > c.Social.LikersMax {
		bad("BLOG_LIKERS_DEFAULT", "must not exceed BLOG_LIKERS_MAX (%d)", c.Social.LikersMax)
	}
	if c.Social.VisitorRetention < time.Duration(c.Social.VisitorMaxDays)*24*time.Hour {
		bad("UV_RETENTION", "must cover UV_MAX_RANGE_DAYS (%d days)", c.Social.VisitorMaxDays)
	}
	if c.Paging.NearbyRadius > c.Paging.MaxNearbyRadius {
		bad("NEARBY_RADIUS_DEFAULT_METERS", "must not exceed NEARBY_RADIUS_MAX_METERS (%.0f)", c.Paging.MaxNearbyRadius)
	}
	return errors.Join(errs...)
}

// validateSMS refuses a non-dev process without an SMS gateway: the log sender would write
// every login code to the log.
func (c Config) validateSMS(bad func(name, format string, args ...any)) {
	if c.SMS.WebhookURL == "" {
		if !c.Dev {
			bad("SMS_WEBHOOK_URL", "required outside dev mode: login codes go to an SMS gateway's webhook (writing them to the log is for dev mode only)")
		}
		return
	}
	u, err := url.Parse(c.SMS.WebhookURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("SMS_WEBHOOK_URL", "want https://host/path, got %q", redact(c.SMS.WebhookURL))
	} else if u.Scheme == "http" && c.IsProduction() && !isLoopback(u.Hostname()) {
		bad("SMS_WEBHOOK_URL", "production sends login codes over https only (plain http is allowed to a loopback address)")
	}
	if len(c.SMS.WebhookSecret) < 16 {
		bad("SMS_WEBHOOK_SECRET", "required with SMS_WEBHOOK_URL: at least 16 bytes to sign the requests")
	}
	if c.SMS.AttemptTimeout > c.SMS.Timeout {
		bad("SMS_WEBHOOK_ATTEMPT_TIMEOUT", "must not exceed SMS_WEBHOOK_TIMEOUT (%s)", c.SMS.Timeout)
	}
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func phonePattern(p string) bool {
	if len(p) != 11 || p[0] != '1' || p[1] < '3' || p[1] > '9' {
		return false
	}
	for _, r := range p {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func validateDatabaseURL(raw string) error {
	switch {
	case strings.HasPrefix(raw, "sqlite://"):
		if strings.TrimPrefix(raw, "sqlite://") == "" {
			return errors.New("sqlite:// needs a file path, e.g. sqlite://./data/dealspot.db")
		}
		return nil
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return errors.New("want postgres://user@host:port/db?sslmode=disable")
		}
		return nil
	}
	return fmt.Errorf("want sqlite://path or postgres://…, got %q", redact(raw))
}

func validateRedisURL(raw string) error {
	if raw == "embedded" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return fmt.Errorf("want embedded or redis://host:port/db, got %q", redact(raw))
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" {
		if _, err := strconv.Atoi(db); err != nil {
			return fmt.Errorf("database number %q is not a number", db)
		}
	}
	return nil
}

// redact hides a password in a URL-like string before it is shown in an error.
func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
	}
	return raw
}

// reader collects the first parse error, naming the variable.
type reader struct {
	getenv func(string) string
	err    error
}

func (r *reader) str(name, def string) string {
	if v := strings.TrimSpace(r.getenv(name)); v != "" {
		return v
	}
	return def
}

func (r *reader) list(name, def string) []string {
	var out []string
	for _, p := range strings.Split(r.str(name, def), ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (r *reader) fail(name, format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
}

func (r *reader) boolean(name string, def bool) bool {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.fail(name, "want true or false, got %q", v)
	}
	return b
}

func (r *reader) integer64(name string, def, min int64) int64 {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < min {
		r.fail(name, "want an integer ≥ %d, got %q", min, v)
	}
	return n
}

func (r *reader) integer(name string, def, min int) int {
	return int(r.integer64(name, int64(def), int64(min)))
}

func (r *reader) rate(name string, def Rate) Rate {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	if v == "off" {
		return Rate{}
	}
	maxPart, windowPart, ok := strings.Cut(v, "/")
	n, err1 := strconv.Atoi(strings.TrimSpace(maxPart))
	d, err2 := time.ParseDuration(strings.TrimSpace(windowPart))
	if !ok || err1 != nil || err2 != nil || n < 1 || d <= 0 {
		r.fail(name, "want max/window such as 30/10m, or off, got %q", v)
		return def
	}
	return Rate{Max: n, Window: d}
}

// prefixes reads a comma-separated list of CIDRs; a bare address is a network of one.
func (r *reader) prefixes(name string) []netip.Prefix {
	var out []netip.Prefix
	for _, v := range r.list(name, "") {
		p, err := netip.ParsePrefix(v)
		if err != nil {
			a, aerr := netip.ParseAddr(v)
			if aerr != nil {
				r.fail(name, "want comma-separated CIDRs such as 10.0.0.0/8,fd00::/8, got %q", v)
				return nil
			}
			a = a.Unmap()
			p = netip.PrefixFrom(a, a.BitLen())
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out
}

// location reads an IANA time zone name such as Asia/Shanghai.
func (r *reader) location(name, def string) *time.Location {
	v := r.str(name, def)
	loc, err := time.LoadLocation(v)
	if err != nil {
		r.fail(name, "want an IANA time zone such as Asia/Shanghai or UTC, got %q", v)
		return time.UTC
	}
	return loc
}

// coalesce reads <prefix>_WINDOW (default 200µs, 0: off) and <prefix>_MAX (default 64).
func (r *reader) coalesce(prefix string) Coalesce {
	return Coalesce{
		Window: r.durationOrZero(prefix+"_WINDOW", 200*time.Microsecond),
		Max:    r.integer(prefix+"_MAX", 64, 1),
	}
}

// durationOrZero is duration where "0" is allowed (it turns something off).
func (r *reader) durationOrZero(name string, def time.Duration) time.Duration {
	if v := r.str(name, ""); v == "0" {
		return 0
	}
	return r.duration(name, def)
}

func (r *reader) duration(name string, def time.Duration) time.Duration {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		r.fail(name, "want a positive duration such as 5s, got %q", v)
	}
	return d
}
