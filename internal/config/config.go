// Package config reads Dealspot's configuration from the environment once, at start, into
// a validated struct. Nothing else in the program calls os.Getenv.
package config

import (
	"net/netip"
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

// MaxNotificationsKeep bounds NOTIFICATIONS_KEEP: past it an inbox is a log, not a
// list a person reads, and every user's rows cost the database.
const MaxNotificationsKeep = 100_000

// Config is the whole configuration of a Dealspot process.
type Config struct {
	// Addr is the HTTP listen address (DEALSPOT_ADDR).
	Addr string
	// MetricsAddr is where /metrics is served when it is not Addr (METRICS_ADDR; default
	// 127.0.0.1:9090 in production; empty: on Addr, as METRICS_ADDR=same asks).
	MetricsAddr string
	// PprofAddr is where Go's profiler (/debug/pprof/) is served (PPROF_ADDR; default
	// empty: nowhere). It is never served on Addr.
	PprofAddr string
	// DataDir holds the embedded backends' files (DEALSPOT_DATA_DIR).
	DataDir string
	// DatabaseURL selects the relational store: sqlite://path or postgres://… (DATABASE_URL).
	DatabaseURL string
	// DatabaseMaxConns bounds a PostgreSQL database's connection pool; as many are kept
	// open while idle, up to five minutes (DATABASE_MAX_CONNS).
	DatabaseMaxConns int
	// RedisURL is "embedded", redis://host:port/db or
	// redis-cluster://host:port,host:port,… (REDIS_URL).
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
	// DevOnPurpose: dev mode was asked for (DEALSPOT_DEV=true), not taken by default. Only
	// then may it run beside PostgreSQL or admin phones of its own (see validateDevMode).
	DevOnPurpose bool
	// Env is "development" or "production" (DEALSPOT_ENV).
	Env         string
	AdminPhones []string
	// Seed seeds demo data into an empty database at start (DEALSPOT_SEED; default: on
	// for the embedded SQLite store and in dev mode).
	Seed bool
	// AutoMigrate applies pending migration files at start (DEALSPOT_AUTO_MIGRATE;
	// default: on for the embedded SQLite store and in dev mode, never in production).
	// Off, the node refuses to start on a database whose schema is not up to date.
	AutoMigrate bool
	// AllowEmbedded lets production run on the embedded SQLite store and the embedded
	// Redis (ALLOW_EMBEDDED; default false). Neither survives a lost machine.
	AllowEmbedded bool
	// AllowVolatileQueue lets production run QUEUE=redis on a Redis without AOF
	// (ALLOW_VOLATILE_QUEUE; default false). The stream then holds the only copy of
	// accepted claims, and a Redis restart loses those not yet written (they end FAILED
	// with reason LOST); the node logs a warning at every start.
	AllowVolatileQueue bool
	// Introspection and IDE may be turned on explicitly in production.
	Introspection bool
	IDE           bool
	LogLevel      string
	LogFormat     string
	// Tracing exports OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT; off when unset).
	Tracing Tracing

	HTTP      HTTP
	Websocket Websocket
	GraphQL   GraphQL
	Paging    Paging
	Search    Search
	Auth      Auth
	Cache     Cache
	Seckill   Seckill
	Orders    Orders
	Payment   Payment
	Social    Social
	Favorites Favorites
	Reminders Reminders
	Waitlist  Waitlist
	Media     Media
	SMS       SMS
}

// Favorites bounds users' favourite shops and vouchers.
type Favorites struct {
	// MaxPerUser is how many favourites one user keeps at most, shops and vouchers
	// together (FAVORITES_MAX_PER_USER).
	MaxPerUser int
}

// Reminders bound and time the sale reminders (remindMe).
type Reminders struct {
	// MaxPerUser is how many reminders still waiting one user holds at most
	// (REMINDERS_MAX_PER_USER).
	MaxPerUser int
	// Before is how long before a flash sale begins its reminders are sent
	// (SALE_REMINDER_BEFORE).
	Before time.Duration
	// Interval is how often each node looks for due reminders (SALE_REMINDER_INTERVAL).
	Interval time.Duration
}

// Waitlist shapes the lines for sold-out flash sales' returned units.
type Waitlist struct {
	// OfferTTL is how long a returned unit is held for one user before it passes to the
	// next in line (WAITLIST_OFFER_TTL).
	OfferTTL time.Duration
	// MaxPerSale bounds the places of one sale's line (WAITLIST_MAX_PER_SALE).
	MaxPerSale int
	// SweepInterval is how often each node passes on the offers that ran out and
	// announces those never announced (WAITLIST_SWEEP_INTERVAL).
	SweepInterval time.Duration
	// AnnounceGrace is how old an offer not announced yet is when the sweep announces
	// it: its node stopped between holding the unit and telling the user
	// (WAITLIST_ANNOUNCE_GRACE).
	AnnounceGrace time.Duration
}

// Media bounds image uploads and says where the local media store keeps them.
type Media struct {
	// Dir is where uploaded images are written (MEDIA_DIR; default
	// <DEALSPOT_DATA_DIR>/media).
	Dir string
	// MaxBytes bounds one upload (UPLOAD_MAX_BYTES).
	MaxBytes int64
	// MaxSide bounds an image's width and height (UPLOAD_MAX_SIDE); MaxPixels its
	// width × height, for a GIF summed over its frames (UPLOAD_MAX_PIXELS).
	MaxSide   int
	MaxPixels int64
	// DecodeBudget bounds the bytes the image decodes running at once in this process
	// may allocate, each told from its header (MEDIA_DECODE_BUDGET_BYTES).
	DecodeBudget int64
	// RatePerUser limits uploads per user (UPLOAD_RATE_PER_USER; Max 0: off).
	RatePerUser Rate
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
	// CommentRate and BlogRate bound how often one user comments and publishes notes
	// (Max 0: off).
	CommentRate Rate
	BlogRate    Rate
	// NotificationsKeep is how many notifications each user keeps, the newest
	// (NOTIFICATIONS_KEEP).
	NotificationsKeep int
	// NotifyBuffer is how many notification events wait in a node's publish buffer
	// before more are dropped (NOTIFY_BUFFER).
	NotifyBuffer int
	// FollowedNoteMaxFanout bounds the followers one published note is told to
	// (NOTIFY_FOLLOWED_NOTE_MAX_FANOUT); ShopSaleMaxFanout the fans one new sale is
	// told to (NOTIFY_SHOP_SALE_MAX_FANOUT).
	FollowedNoteMaxFanout int
	ShopSaleMaxFanout     int
	// ExpiryWarningBefore is how long before its pay deadline the buyer of an unpaid
	// order is warned (ORDER_EXPIRY_WARNING_BEFORE; 0: never); ExpiryWarningInterval
	// how often due warnings are looked for (ORDER_EXPIRY_WARNING_INTERVAL).
	ExpiryWarningBefore   time.Duration
	ExpiryWarningInterval time.Duration
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
	// WriteTimeout bounds one order batch's write (ORDER_WRITE_TIMEOUT; 0: unbounded):
	// its statements are cancelled after it, and a write still not back twice as long
	// after it began is abandoned and its claims retried.
	WriteTimeout time.Duration
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
	// AcceptedMax bounds the accepted claims a node remembers until it sees their
	// orders written, to answer for them when Redis comes back empty
	// (ACCEPTED_CLAIMS_MAX; default 100,000; 0: none). AcceptedSweep is how often it
	// looks which are written (ACCEPTED_CLAIMS_SWEEP_INTERVAL; default 1s).
	AcceptedMax   int
	AcceptedSweep time.Duration
	// GateCoalesce batches concurrent gate calls: one script run per sale per batch.
	GateCoalesce Coalesce
	// SoldOutMarkTTL is how long a node trusts its own sold-out mark of a sale; it checks
	// the mark against Redis a little before that.
	SoldOutMarkTTL time.Duration
	// WarmupBefore is how long before it begins a sale is loaded into Redis
	// (SALE_WARMUP_BEFORE, default 10m; 0: from its creation on).
	WarmupBefore time.Duration
	// ProgressInterval is the shortest time between two saleProgress pushes, and how
	// often a node reads a sale someone follows (SALE_PROGRESS_INTERVAL, default 1s).
	ProgressInterval time.Duration
	// ProgressMaxSales bounds the sales a node follows for saleProgress viewers at once
	// (SALE_PROGRESS_MAX_SALES, default 10000; 0: unlimited).
	ProgressMaxSales int
	// PublishTimeout bounds the gate step of a claim and the publish of an accepted one,
	// each, whatever the client does; a publish that outlasts it has an unknown outcome
	// and stays for the reconciler.
	PublishTimeout time.Duration
	// Reconcile runs the reconciler every ReconcileInterval (0: off).
	ReconcileInterval time.Duration
	RepublishAfter    time.Duration
	FailAfter         time.Duration
	// TransferAfter is the age at which the reconciler finishes a move of units between
	// the buckets of a split sale that its node did not finish.
	TransferAfter time.Duration
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
	// SoldRefresh is the shortest time between two refreshes of one shop's cached copies
	// after orders moved its sold count (CACHE_SOLD_REFRESH_INTERVAL): the first change
	// refreshes at once, those that follow within it together at its end.
	SoldRefresh time.Duration
	// ResponseTTL is how long a public query's whole answer is replayed; 0 turns the
	// response cache off. ResponseMaxBytes bounds the answers a node holds,
	// ResponseMaxEntryBytes one answer.
	ResponseTTL           time.Duration
	ResponseMaxBytes      int64
	ResponseMaxEntryBytes int
	// BloomFilter keeps a per-node Bloom filter of the shop and voucher ids that exist,
	// asked before the cache and the database (BLOOM_FILTER, default on with the cache);
	// BloomRebuild is how often it is rebuilt from the database (BLOOM_FILTER_REBUILD_
	// INTERVAL, 10m; 0: at start and after a lost broadcast only); BloomFalsePositives is
	// the share of unknown ids it lets through (BLOOM_FILTER_FALSE_POSITIVE_PERMILLE / 1000,
	// default 1‰).
	BloomFilter         bool
	BloomRebuild        time.Duration
	BloomFalsePositives float64
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
	// Password configures login with a password.
	Password Password
}

// Password holds the settings of password login (argon2id hashes).
type Password struct {
	// MinLength and MaxLength bound a password, in characters.
	MinLength int
	MaxLength int
	// Argon2MemoryKiB, Argon2Iterations and Argon2Parallelism are the cost of a hash.
	Argon2MemoryKiB   int
	Argon2Iterations  int
	Argon2Parallelism int
	// HashConcurrency bounds the hashes computed at once per process.
	HashConcurrency int
	// WrongPerClient limits wrong passwords per phone and client address; WrongPerPhone
	// per phone from all addresses.
	WrongPerClient Rate
	WrongPerPhone  Rate
}

// Websocket bounds websocket connections (counted per node, in memory).
type Websocket struct {
	// SessionCheckInterval is how often an open connection's session is checked again.
	SessionCheckInterval time.Duration
	// MaxPerUser, MaxPerIP and MaxTotal bound open connections per user, per client IP
	// and in total (0: unlimited). Per IP and in total they count from the upgrade on.
	MaxPerUser int
	MaxPerIP   int
	MaxTotal   int
	// MaxOperationsPerSocket and MaxOperationsPerUser bound the operations (mostly
	// subscriptions) running at once on one connection and on all of a user's
	// connections on this node (WS_MAX_OPERATIONS_PER_SOCKET, WS_MAX_OPERATIONS_PER_USER;
	// 0: unlimited).
	MaxOperationsPerSocket int
	MaxOperationsPerUser   int
	// InitTimeout is how long an upgraded connection may wait before its
	// connection_init (WS_INIT_TIMEOUT).
	InitTimeout time.Duration
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
	// QueryCacheSize is the number of parsed queries kept, and of persisted queries
	// kept in process.
	QueryCacheSize int
	// APQTTL is how long an automatic persisted query stays in Redis, shared by every
	// node, after it was last registered (APQ_TTL; 0: each node keeps its own only).
	APQTTL time.Duration
	// APQMaxDocumentBytes bounds the text of a persisted query that is registered; a
	// longer document runs but is not kept (APQ_MAX_DOCUMENT_BYTES).
	APQMaxDocumentBytes int
	// APQRegistrationsPerClient bounds the persisted queries one client address registers
	// on one node (APQ_REGISTRATIONS_PER_CLIENT; Max 0: off).
	APQRegistrationsPerClient Rate
	// APQMaxBytes bounds the persisted-query text each node keeps in process, and the
	// text (plus a fixed cost per entry) kept in Redis for all nodes; the oldest
	// registrations go first (APQ_MAX_BYTES).
	APQMaxBytes int64
	// AllowedOrigins are the origins, besides the server's own host, whose pages may call
	// /graphql; a request with any other Origin header is refused (GRAPHQL_ALLOWED_ORIGINS).
	AllowedOrigins []string
	// MaxTokens bounds the tokens of one document; parsing stops there.
	MaxTokens int
	// MaxFragments bounds the fragment definitions of one document (GRAPHQL_MAX_FRAGMENTS),
	// MaxSpreadTokens the tokens of fragments validation walks through fragment spreads,
	// each fragment once for every operation and fragment reaching it
	// (GRAPHQL_MAX_SPREAD_TOKENS); both are checked before the document is parsed.
	MaxFragments    int
	MaxSpreadTokens int
	// MaxStringChars bounds, in characters, every string argument and variable.
	MaxStringChars int
	// LoaderWait is how long a dataloader gathers keys before one batched fetch;
	// LoaderMaxBatch bounds the keys of one fetch.
	LoaderWait     time.Duration
	LoaderMaxBatch int
	// FastClaim answers claimVoucher documents without gqlgen's generic executor
	// (CLAIM_FAST_PATH; default true). See graph/fastclaim.go.
	FastClaim bool
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
	// DealsMaxRadius is the largest dealsNearby radius, in meters
	// (DEALS_NEARBY_MAX_RADIUS); DealsMaxShops how many of the nearest shops within it a
	// dealsNearby search reads the deals of (DEALS_NEARBY_MAX_SHOPS).
	DealsMaxRadius int
	DealsMaxShops  int
}

// Search bounds Query.search.
type Search struct {
	// MaxQueryLength bounds a query, in characters once it is trimmed and its white
	// space collapsed (SEARCH_MAX_QUERY_LENGTH).
	MaxQueryLength int
	// MaxPageSize bounds a page of results (SEARCH_PAGE_SIZE_MAX); the default page is
	// PAGE_SIZE_DEFAULT, or this when it is smaller.
	MaxPageSize int
}

// Orders are the settings of an order's life after the claim.
type Orders struct {
	// PayTimeout is how long a CREATED order waits for payment (ORDER_PAY_TIMEOUT).
	PayTimeout time.Duration
	// ReclaimAfterCancel lets a user claim a sale again after their order of it was
	// canceled or refunded (ORDER_RECLAIM_AFTER_CANCEL).
	ReclaimAfterCancel bool
	// MaxQuantity bounds one buyVoucher (ORDER_MAX_QUANTITY).
	MaxQuantity int
	// ExpiryInterval is how often unpaid orders past their deadline are canceled
	// (ORDER_EXPIRY_INTERVAL); ExpiryBatch how many per transaction (ORDER_EXPIRY_BATCH).
	ExpiryInterval time.Duration
	ExpiryBatch    int
	// StatsInterval is the shortest time between saleStats pushes (SALE_STATS_INTERVAL).
	StatsInterval time.Duration
}

// PaymentSim names the simulated payment provider.
const PaymentSim = "sim"

// DevPaymentSecret signs the simulated provider's notifications in dev mode when
// PAYMENT_WEBHOOK_SECRET is unset. It is public: never use it outside dev mode.
const DevPaymentSecret = "dealspot-dev-payment-secret"

// Payment configures the payment provider.
type Payment struct {
	// Provider names the provider (PAYMENT_PROVIDER): only "sim" so far.
	Provider string
	// WebhookSecret signs and checks the provider's notifications
	// (PAYMENT_WEBHOOK_SECRET; dev mode: DevPaymentSecret; otherwise empty, and the node
	// draws a random secret, which only its own simulated provider knows).
	WebhookSecret string
	// SimDelay is how long the simulated provider waits before it notifies
	// (PAYMENT_SIM_DELAY).
	SimDelay time.Duration
	// NotifyURL is where the simulated provider posts its notifications
	// (PAYMENT_NOTIFY_URL; empty: this server's own /payments/notify).
	NotifyURL string
	// RefundRetryInterval is how often refunds still owed are sent again
	// (PAYMENT_REFUND_RETRY_INTERVAL).
	RefundRetryInterval time.Duration
	// SignatureTolerance is how old a signed notification may be
	// (PAYMENT_SIGNATURE_TOLERANCE).
	SignatureTolerance time.Duration
}

// DefaultDevAddr is where dev mode listens unless DEALSPOT_ADDR says otherwise: loopback
// only, since dev mode answers with login codes.
const DefaultDevAddr = "127.0.0.1:8080"

// DemoPhonePrefix starts the phones of the demo accounts (13800000001–13800000005 are
// seeded); dev mode by default accepts only these as ADMIN_PHONES.
const DemoPhonePrefix = "1380000000"

// IsProduction reports whether the process runs in production.
func (c Config) IsProduction() bool { return c.Env == "production" }

// UsesEmbeddedDatabase reports whether the relational store is the embedded SQLite file.
func (c Config) UsesEmbeddedDatabase() bool { return strings.HasPrefix(c.DatabaseURL, "sqlite:") }

// UsesEmbeddedRedis reports whether Redis is the in-process server.
func (c Config) UsesEmbeddedRedis() bool { return c.RedisURL == "embedded" }
