package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

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
	if c.PprofAddr != "" {
		if _, _, err := net.SplitHostPort(c.PprofAddr); err != nil {
			bad("PPROF_ADDR", "want host:port such as 127.0.0.1:6060, got %q", c.PprofAddr)
		} else if c.PprofAddr == c.Addr || c.PprofAddr == c.MetricsAddr {
			bad("PPROF_ADDR", "wants an address of its own, not DEALSPOT_ADDR or METRICS_ADDR (%s)", c.PprofAddr)
		}
	}
	if c.Social.NotificationsKeep > MaxNotificationsKeep {
		bad("NOTIFICATIONS_KEEP", "at most %d, got %d", MaxNotificationsKeep, c.Social.NotificationsKeep)
	}
	if err := validateDatabaseURL(c.DatabaseURL); err != nil {
		bad("DATABASE_URL", "%v", err)
	}
	if err := validateRedisURL(c.RedisURL); err != nil {
		bad("REDIS_URL", "%v", err)
	}
	if c.Payment.Provider != PaymentSim {
		bad("PAYMENT_PROVIDER", "want sim (the simulated provider; a real one is one more adapter), got %q", c.Payment.Provider)
	}
	if c.IsProduction() && c.Payment.WebhookSecret == DevPaymentSecret {
		bad("PAYMENT_WEBHOOK_SECRET", "is the public dev secret; set a secret of your own in production")
	}
	if c.Cache.BloomFalsePositives >= 1 {
		bad("BLOOM_FILTER_FALSE_POSITIVE_PERMILLE", "want 1 to 999, got %.0f", c.Cache.BloomFalsePositives*1000)
	}
	if c.Seckill.ProgressInterval < 100*time.Millisecond {
		bad("SALE_PROGRESS_INTERVAL", "at least 100ms, got %s", c.Seckill.ProgressInterval)
	}
	if c.Orders.StatsInterval < 100*time.Millisecond {
		bad("SALE_STATS_INTERVAL", "at least 100ms, got %s", c.Orders.StatsInterval)
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
		if c.UsesEmbeddedRedis() && c.Queue == QueueRedis && !c.AllowVolatileQueue {
			// A real Redis's persistence is checked when the service starts.
			bad("QUEUE", "production refuses QUEUE=redis on the embedded Redis, which keeps nothing on disk: a restart loses the accepted claims not yet written; use a Redis with appendonly yes, another queue, or ALLOW_VOLATILE_QUEUE=true to accept the loss")
		}
	}
	c.validateSMS(bad)
	c.validateDevMode(bad)
	for _, p := range c.AdminPhones {
		if !domain.ValidPhone(p) {
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
	c.Auth.Password.validate(bad)
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

// validateDevMode refuses dev mode beside the settings of a deployment. Dev mode returns
// every login code in the API's answer, and it is the default outside production, so a
// deployment that forgets DEALSPOT_DEV=false would let anyone log in as anyone, its
// administrators included. An SMS gateway is refused always (codes meant for real phones
// would be in the answers too); PostgreSQL and admin phones other than the demo accounts'
// only in dev mode by default — DEALSPOT_DEV=true asks for dev mode on purpose, as local
// development and the tests on PostgreSQL do.
func (c Config) validateDevMode(bad func(name, format string, args ...any)) {
	if !c.Dev {
		return
	}
	const fix = "set DEALSPOT_DEV=false for a deployment"
	if c.SMS.WebhookURL != "" {
		bad("DEALSPOT_DEV", "dev mode returns every login code in the API's answer, so it refuses SMS_WEBHOOK_URL "+
			"(codes for real phones); %s, or unset SMS_WEBHOOK_URL for development", fix)
	}
	if c.DevOnPurpose {
		return
	}
	var why []string
	if !c.UsesEmbeddedDatabase() {
		why = append(why, "DATABASE_URL is PostgreSQL")
	}
	var admins []string
	for _, p := range c.AdminPhones {
		if !strings.HasPrefix(p, DemoPhonePrefix) {
			admins = append(admins, p)
		}
	}
	if len(admins) > 0 {
		why = append(why, fmt.Sprintf("ADMIN_PHONES names %s, not a demo account (%sN)", strings.Join(admins, ", "), DemoPhonePrefix))
	}
	if len(why) > 0 {
		bad("DEALSPOT_DEV", "unset, so dev mode is on, and dev mode returns every login code in the API's answer; "+
			"refused beside a deployment's settings (%s): %s, or DEALSPOT_DEV=true to run dev mode on purpose",
			strings.Join(why, "; "), fix)
	}
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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
	if err == nil && (u.Scheme == "redis-cluster" || u.Scheme == "rediss-cluster") {
		return validateRedisClusterURL(u, raw)
	}
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return fmt.Errorf("want embedded, redis://host:port/db or redis-cluster://host:port,host:port,…, got %q", redact(raw))
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" {
		if _, err := strconv.Atoi(db); err != nil {
			return fmt.Errorf("database number %q is not a number", db)
		}
	}
	return nil
}

// validateRedisClusterURL checks redis-cluster://[user:password@]host:port,host:port,…
// (the seed nodes; database 0 only).
func validateRedisClusterURL(u *url.URL, raw string) error {
	if u.Host == "" {
		return fmt.Errorf("want redis-cluster://host:port,host:port,…, got %q", redact(raw))
	}
	for _, h := range strings.Split(u.Host, ",") {
		host, port, err := net.SplitHostPort(h)
		if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			return fmt.Errorf("want redis-cluster://host:port,host:port,…; %q is not host:port", h)
		}
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" && db != "0" {
		return fmt.Errorf("a Redis Cluster has database 0 only, got database %q", db)
	}
	if u.Query().Has("addr") {
		return errors.New("name the cluster's nodes in the host list (redis-cluster://host:port,host:port,…), not as addr=")
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

// validate checks what the reader's lower bounds do not: the upper bounds and the
// settings that must agree. The bounds are auth.PasswordConfig's.
func (p Password) validate(bad func(name, format string, args ...any)) {
	if p.MaxLength < p.MinLength || p.MaxLength > 1024 {
		bad("PASSWORD_MAX_LENGTH", "must be at least PASSWORD_MIN_LENGTH (%d) and at most 1024", p.MinLength)
	}
	if p.Argon2Parallelism > 255 {
		bad("PASSWORD_ARGON2_PARALLELISM", "must be at most 255")
	}
	if p.Argon2MemoryKiB < 8*p.Argon2Parallelism || p.Argon2MemoryKiB > 4<<20 {
		bad("PASSWORD_ARGON2_MEMORY_KIB", "must be at least 8 × PASSWORD_ARGON2_PARALLELISM and at most 4194304 (4 GiB)")
	}
	if p.Argon2Iterations > 1000 {
		bad("PASSWORD_ARGON2_ITERATIONS", "must be at most 1000")
	}
	if p.WrongPerClient.Max < 1 {
		bad("LOGIN_WRONG_PASSWORDS", "cannot be off: it is what stops guessing a password")
	}
	if p.WrongPerPhone.Max < 1 {
		bad("LOGIN_WRONG_PASSWORDS_PER_PHONE", "cannot be off: it is what stops guessing a password from many addresses")
	}
}
