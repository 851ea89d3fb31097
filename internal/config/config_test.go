package config_test

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/config"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadDefaultsAreEmbedded(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatalf("defaults should be valid: %v", err)
	}
	if c.Addr != config.DefaultDevAddr || c.RedisURL != "embedded" || c.Queue != "memory" {
		t.Errorf("unexpected defaults: addr %q redis %q queue %q", c.Addr, c.RedisURL, c.Queue)
	}
	if c.DatabaseURL != "sqlite://data/dealspot.db" {
		t.Errorf("database url = %q, want the SQLite file under ./data", c.DatabaseURL)
	}
	if c.Auth.IPLimits {
		t.Error("per-IP login limits should be off in dev mode so local load tests can log in")
	}
	if c.Auth.CodeTTL != 2*time.Minute || c.Auth.CodeWindowMax != 5 || c.Auth.MaxWrongCodes != 5 ||
		c.Auth.CodeInterval != time.Minute || c.Auth.CodeWindow != time.Hour || c.Auth.CodeLock != time.Hour ||
		c.Auth.CodeDailyMax != 10 || c.Auth.WrongCodesPerIP != (config.Rate{Max: 30, Window: time.Hour}) {
		t.Errorf("login limits differ from the documented defaults: %+v", c.Auth)
	}
	if !c.Dev || !c.Seed || !c.AutoMigrate || !c.IDE || !c.Introspection {
		t.Errorf("embedded defaults should be dev mode with seed, migrate, IDE and introspection: %+v", c)
	}
	if c.Search != (config.Search{MaxQueryLength: 64, MaxPageSize: 50}) {
		t.Errorf("search settings %+v, want the documented 64 characters and pages of 50", c.Search)
	}
}

func TestLoadAcceptsARedisClusterURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"redis-cluster://10.0.0.1:7000,10.0.0.2:7000,10.0.0.3:7000",
		"rediss-cluster://app:secret@cache-1:6380,cache-2:6380/0?dial_timeout=2s",
	} {
		c, err := config.Load(env(map[string]string{"REDIS_URL": u}))
		if err != nil {
			t.Fatalf("REDIS_URL=%s refused: %v", u, err)
		}
		if c.RedisURL != u {
			t.Errorf("RedisURL = %q, want %q", c.RedisURL, u)
		}
	}
}

func TestLoadProductionTurnsDevFeaturesOff(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(map[string]string{
		"DEALSPOT_ENV":    "production",
		"JWT_SECRET":      "a-real-secret-of-enough-length-0123456789",
		"DATABASE_URL":    "postgres://app@db:5432/dealspot?sslmode=disable",
		"REDIS_URL":       "redis://cache:6379/0",
		"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789",
	}))
	if err != nil {
		t.Fatalf("valid production config refused: %v", err)
	}
	if !c.Auth.IPLimits {
		t.Error("per-IP login limits should be on in production")
	}
	if c.SMS != (config.SMS{WebhookURL: "https://sms.example/hook", WebhookSecret: "a-webhook-secret-0123456789",
		Timeout: 5 * time.Second, AttemptTimeout: 2 * time.Second, Attempts: 3, Backoff: 200 * time.Millisecond}) {
		t.Errorf("SMS settings %+v", c.SMS)
	}
	if c.Dev || c.IDE || c.Introspection || c.Seed || c.AutoMigrate {
		t.Errorf("production must not enable dev features by default: %+v", c)
	}
	// Not even on the embedded store: production changes the schema only when asked.
	c, err = config.Load(env(production(map[string]string{"DATABASE_URL": "", "ALLOW_EMBEDDED": "true"})))
	if err != nil || !c.UsesEmbeddedDatabase() || c.AutoMigrate {
		t.Errorf("production on the embedded store: embedded %v, AutoMigrate %v (%v); want it off", c.UsesEmbeddedDatabase(), c.AutoMigrate, err)
	}
	if c, err = config.Load(env(production(map[string]string{"DEALSPOT_AUTO_MIGRATE": "true"}))); err != nil || !c.AutoMigrate {
		t.Errorf("DEALSPOT_AUTO_MIGRATE=true should be honoured in production: %v %v", c.AutoMigrate, err)
	}
	c, err = config.Load(env(production(map[string]string{"GRAPHQL_INTROSPECTION": "true"})))
	if err != nil || !c.Introspection {
		t.Errorf("introspection should be switchable on explicitly in production: %v %v", c.Introspection, err)
	}
}

func TestLoadRedisCoalescing(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	on := config.Coalesce{Window: 200 * time.Microsecond, Max: 64}
	if c.Seckill.GateCoalesce != on || c.Auth.SessionCoalesce != on || c.Auth.TokenCacheSize != 20_000 {
		t.Errorf("defaults: gate %+v, session checks %+v, token cache %d", c.Seckill.GateCoalesce, c.Auth.SessionCoalesce, c.Auth.TokenCacheSize)
	}
	c, err = config.Load(env(map[string]string{"GATE_COALESCE_WINDOW": "0", "SESSION_CHECK_COALESCE_WINDOW": "1ms",
		"SESSION_CHECK_COALESCE_MAX": "16", "AUTH_TOKEN_CACHE_SIZE": "0"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Seckill.GateCoalesce.Window != 0 || c.Auth.SessionCoalesce != (config.Coalesce{Window: time.Millisecond, Max: 16}) || c.Auth.TokenCacheSize != 0 {
		t.Errorf("set: gate %+v, session checks %+v, token cache %d", c.Seckill.GateCoalesce, c.Auth.SessionCoalesce, c.Auth.TokenCacheSize)
	}
}

func TestLoadRejectsBadValuesNamingTheVariable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"database url of an unknown kind", map[string]string{"DATABASE_URL": "mysql://x"}, "DATABASE_URL"},
		{"database url garbage", map[string]string{"DATABASE_URL": "::::"}, "DATABASE_URL"},
		{"postgres url without host", map[string]string{"DATABASE_URL": "postgres://"}, "DATABASE_URL"},
		{"redis url not redis", map[string]string{"REDIS_URL": "http://x:6379"}, "REDIS_URL"},
		{"redis db not a number", map[string]string{"REDIS_URL": "redis://x:6379/abc"}, "REDIS_URL"},
		{"redis cluster node without port", map[string]string{"REDIS_URL": "redis-cluster://a:7000,b"}, "REDIS_URL"},
		{"redis cluster with a database", map[string]string{"REDIS_URL": "redis-cluster://a:7000,b:7001/3"}, "REDIS_URL"},
		{"redis cluster without nodes", map[string]string{"REDIS_URL": "redis-cluster://"}, "REDIS_URL"},
		{"queue unknown", map[string]string{"QUEUE": "sqs"}, "QUEUE"},
		{"production without a secret", map[string]string{"DEALSPOT_ENV": "production"}, "JWT_SECRET"},
		{"dev mode off without a secret", map[string]string{"DEALSPOT_DEV": "false"}, "JWT_SECRET"},
		{"production with dev mode", map[string]string{"DEALSPOT_ENV": "production", "JWT_SECRET": strings.Repeat("k", 40), "DEALSPOT_DEV": "true"}, "DEALSPOT_DEV"},
		{"secret too short", map[string]string{"JWT_SECRET": "short"}, "JWT_SECRET"},
		{"env unknown", map[string]string{"DEALSPOT_ENV": "staging"}, "DEALSPOT_ENV"},
		{"address without port", map[string]string{"DEALSPOT_ADDR": "localhost"}, "DEALSPOT_ADDR"},
		{"bool not a bool", map[string]string{"DEALSPOT_DEV": "maybe"}, "DEALSPOT_DEV"},
		{"duration not a duration", map[string]string{"GRAPHQL_EXEC_TIMEOUT": "soon"}, "GRAPHQL_EXEC_TIMEOUT"},
		{"limit not positive", map[string]string{"GRAPHQL_MAX_DEPTH": "0"}, "GRAPHQL_MAX_DEPTH"},
		{"rate malformed", map[string]string{"LOGIN_PER_IP": "60 per minute"}, "LOGIN_PER_IP"},
		{"admin phone malformed", map[string]string{"ADMIN_PHONES": "13800000000,12345"}, "ADMIN_PHONES"},
		{"coalescing window not a duration", map[string]string{"GATE_COALESCE_WINDOW": "fast"}, "GATE_COALESCE_WINDOW"},
		{"coalescing batch not positive", map[string]string{"SESSION_CHECK_COALESCE_MAX": "0"}, "SESSION_CHECK_COALESCE_MAX"},
		{"token cache size negative", map[string]string{"AUTH_TOKEN_CACHE_SIZE": "-1"}, "AUTH_TOKEN_CACHE_SIZE"},
		{"code window its maximum can never fill", map[string]string{"LOGIN_CODE_WINDOW": "5m", "LOGIN_CODE_INTERVAL": "2m"}, "LOGIN_CODE_WINDOW"},
		{"production without an SMS gateway", map[string]string{"DEALSPOT_ENV": "production", "JWT_SECRET": strings.Repeat("k", 40)}, "SMS_WEBHOOK_URL"},
		{"dev mode off without an SMS gateway", map[string]string{"DEALSPOT_DEV": "false"}, "SMS_WEBHOOK_URL"},
		{"SMS gateway without a secret", map[string]string{"SMS_WEBHOOK_URL": "https://sms.example/hook"}, "SMS_WEBHOOK_SECRET"},
		{"SMS gateway not a URL", map[string]string{"SMS_WEBHOOK_URL": "sms.example", "SMS_WEBHOOK_SECRET": strings.Repeat("w", 20)}, "SMS_WEBHOOK_URL"},
		{"production SMS gateway over plain http", map[string]string{"DEALSPOT_ENV": "production", "JWT_SECRET": strings.Repeat("k", 40),
			"SMS_WEBHOOK_URL": "http://sms.example/hook", "SMS_WEBHOOK_SECRET": strings.Repeat("w", 20)}, "SMS_WEBHOOK_URL"},
		{"trusted proxy not a CIDR", map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8,proxy.local"}, "TRUSTED_PROXIES"},
		{"removed wrong-code lock", map[string]string{"LOGIN_WRONG_CODE_LOCK": "10m"}, "LOGIN_WRONG_CODE_LOCK"},
		{"wrong codes per IP malformed", map[string]string{"LOGIN_WRONG_CODES_PER_IP": "lots"}, "LOGIN_WRONG_CODES_PER_IP"},
		{"daily code cap not positive", map[string]string{"LOGIN_CODE_DAILY_MAX": "0"}, "LOGIN_CODE_DAILY_MAX"},
		{"page default above max", map[string]string{"PAGE_SIZE_DEFAULT": "50", "PAGE_SIZE_MAX": "20"}, "PAGE_SIZE_DEFAULT"},
		{"search query length not positive", map[string]string{"SEARCH_MAX_QUERY_LENGTH": "0"}, "SEARCH_MAX_QUERY_LENGTH"},
		{"search page size not positive", map[string]string{"SEARCH_PAGE_SIZE_MAX": "0"}, "SEARCH_PAGE_SIZE_MAX"},
		{"stream claim interval above half the idle time", map[string]string{"ORDER_STREAM_CLAIM_IDLE": "2s", "ORDER_STREAM_CLAIM_INTERVAL": "1500ms"}, "ORDER_STREAM_CLAIM_INTERVAL"},
		{"stream claim idle not positive", map[string]string{"ORDER_STREAM_CLAIM_IDLE": "0"}, "ORDER_STREAM_CLAIM_IDLE"},
		{"status re-check concurrency not positive", map[string]string{"ORDER_STATUS_RECHECK_CONCURRENCY": "0"}, "ORDER_STATUS_RECHECK_CONCURRENCY"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := config.Load(env(tc.env))
			if err == nil {
				t.Fatalf("config accepted %v", tc.env)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not name %s", err, tc.want)
			}
		})
	}
}

func TestLoadHidesPasswordsInErrors(t *testing.T) {
	t.Parallel()
	_, err := config.Load(env(map[string]string{"DATABASE_URL": "mysql://app:hunter2@db/x"}))
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("error must not show the password: %v", err)
	}
}

func TestLoadTrustedProxies(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil || len(c.HTTP.TrustedProxies) != 0 {
		t.Fatalf("default trusted proxies %v (%v), want none", c.HTTP.TrustedProxies, err)
	}
	c, err = config.Load(env(map[string]string{"TRUSTED_PROXIES": " 10.0.0.0/8, 192.168.1.7 ,fd00::/8,::ffff:172.16.0.0/108"}))
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.7/32"),
		netip.MustParsePrefix("fd00::/8"), netip.MustParsePrefix("172.16.0.0/12")}
	if !slices.Equal(c.HTTP.TrustedProxies, want) {
		t.Fatalf("trusted proxies %v, want %v", c.HTTP.TrustedProxies, want)
	}
}

func TestLoadOrderStreamAndStatusDefaults(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	sk := c.Seckill
	if sk.Shards != 16 || sk.BatchSize != 1000 || sk.BatchWait != 25*time.Millisecond ||
		sk.Workers != 2 || sk.MaxRetries != 5 ||
		sk.StreamClaimIdle != 5*time.Second || sk.StreamClaimInterval != time.Second ||
		sk.StatusRecheck != 15*time.Second || sk.StatusRecheckConcurrency != 16 {
		t.Errorf("defaults differ from the README: %+v", sk)
	}
	c, err = config.Load(env(map[string]string{"ORDER_STATUS_RECHECK": "0"}))
	if err != nil || c.Seckill.StatusRecheck != 0 {
		t.Errorf("ORDER_STATUS_RECHECK=0: %v, %v; want the periodic re-check off", c.Seckill.StatusRecheck, err)
	}
}

func TestLoadNamesEveryBadVariableAtOnce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"two unreadable values", map[string]string{"GRAPHQL_EXEC_TIMEOUT": "soon", "GRAPHQL_MAX_DEPTH": "0"},
			[]string{"GRAPHQL_EXEC_TIMEOUT", "GRAPHQL_MAX_DEPTH"}},
		{"an unreadable value and an invalid one", map[string]string{"LOGIN_PER_IP": "60 per minute", "QUEUE": "sqs"},
			[]string{"LOGIN_PER_IP", "QUEUE"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := config.Load(env(tc.env))
			if err == nil {
				t.Fatalf("config accepted %v", tc.env)
			}
			for _, name := range tc.want {
				if !strings.Contains(err.Error(), name) {
					t.Errorf("error %q does not name %s", err, name)
				}
			}
		})
	}
	// A value that cannot be read counts as its default for the checks across variables:
	// an unreadable DEALSPOT_DEV does not also turn dev mode off and ask for a JWT secret.
	_, err := config.Load(env(map[string]string{"DEALSPOT_DEV": "maybe", "QUEUE": "sqs"}))
	if err == nil || !strings.Contains(err.Error(), "DEALSPOT_DEV") || !strings.Contains(err.Error(), "QUEUE") ||
		strings.Contains(err.Error(), "JWT_SECRET") {
		t.Errorf("error %q should name DEALSPOT_DEV and QUEUE, and nothing that follows from the unreadable value", err)
	}
}

func TestPasswordSettings(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := config.Password{MinLength: 8, MaxLength: 128, Argon2MemoryKiB: 19456, Argon2Iterations: 2, Argon2Parallelism: 1,
		HashConcurrency: 4, WrongPerClient: config.Rate{Max: 5, Window: time.Hour}, WrongPerPhone: config.Rate{Max: 20, Window: time.Hour}}
	if c.Auth.Password != want {
		t.Errorf("password defaults %+v, want the documented %+v", c.Auth.Password, want)
	}
	c, err = config.Load(env(map[string]string{"PASSWORD_MIN_LENGTH": "12", "PASSWORD_MAX_LENGTH": "64",
		"PASSWORD_ARGON2_MEMORY_KIB": "65536", "PASSWORD_ARGON2_ITERATIONS": "3", "PASSWORD_ARGON2_PARALLELISM": "4",
		"PASSWORD_HASH_CONCURRENCY": "2", "LOGIN_WRONG_PASSWORDS": "3/30m", "LOGIN_WRONG_PASSWORDS_PER_PHONE": "10/2h"}))
	if err != nil {
		t.Fatal(err)
	}
	want = config.Password{MinLength: 12, MaxLength: 64, Argon2MemoryKiB: 65536, Argon2Iterations: 3, Argon2Parallelism: 4,
		HashConcurrency: 2, WrongPerClient: config.Rate{Max: 3, Window: 30 * time.Minute}, WrongPerPhone: config.Rate{Max: 10, Window: 2 * time.Hour}}
	if c.Auth.Password != want {
		t.Errorf("password settings %+v, want %+v", c.Auth.Password, want)
	}
	for name, v := range map[string]string{
		"PASSWORD_MIN_LENGTH": "7", "PASSWORD_MAX_LENGTH": "2000", "PASSWORD_ARGON2_MEMORY_KIB": "4",
		"PASSWORD_ARGON2_ITERATIONS": "0", "PASSWORD_ARGON2_PARALLELISM": "256", "PASSWORD_HASH_CONCURRENCY": "0",
		"LOGIN_WRONG_PASSWORDS": "off", "LOGIN_WRONG_PASSWORDS_PER_PHONE": "off",
	} {
		if _, err := config.Load(env(map[string]string{name: v})); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: %v", name, v, err)
		}
	}
}
