package config_test

import (
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/config"
)

// production is a valid production environment on real services, plus extra.
func production(extra map[string]string) map[string]string {
	m := map[string]string{
		"DEALSPOT_ENV": "production",
		"JWT_SECRET":   "a-real-secret-of-enough-length-0123456789",
		"DATABASE_URL": "postgres://app@db:5432/dealspot?sslmode=disable",
		"REDIS_URL":    "redis://cache:6379/0",
		// Outside dev mode login codes go to an SMS gateway.
		"SMS_WEBHOOK_URL":    "https://sms.example/hook",
		"SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789",
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestProductionRefusesEmbeddedBackends(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		env     map[string]string
		refused []string // variables the error must name; none: accepted
	}{
		{"real services", production(nil), nil},
		{"embedded SQLite", production(map[string]string{"DATABASE_URL": "sqlite://data/dealspot.db"}), []string{"DATABASE_URL"}},
		{"SQLite by default", production(map[string]string{"DATABASE_URL": ""}), []string{"DATABASE_URL"}},
		{"embedded Redis", production(map[string]string{"REDIS_URL": "embedded"}), []string{"REDIS_URL"}},
		{"both", production(map[string]string{"DATABASE_URL": "", "REDIS_URL": ""}), []string{"DATABASE_URL", "REDIS_URL"}},
		{"both, explicitly allowed", production(map[string]string{"DATABASE_URL": "", "REDIS_URL": "", "ALLOW_EMBEDDED": "true"}), nil},
		{"development takes them", map[string]string{}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := config.Load(env(tc.env))
			if len(tc.refused) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted, want refused naming %v", tc.refused)
			}
			for _, name := range tc.refused {
				if !strings.Contains(err.Error(), name) {
					t.Errorf("error %q does not name %s", err, name)
				}
			}
			if !strings.Contains(err.Error(), "ALLOW_EMBEDDED") {
				t.Errorf("error %q does not say how to allow it", err)
			}
		})
	}
}

func TestProductionNeverSeedsUnasked(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"development on SQLite", nil, true},
		{"development on PostgreSQL", map[string]string{"DATABASE_URL": "postgres://app@db/dealspot", "DEALSPOT_DEV": "true"}, true},
		{"dev mode off on SQLite", map[string]string{
			"DEALSPOT_DEV": "false", "JWT_SECRET": "a-real-secret-of-enough-length-0123456789",
			"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789",
		}, true},
		{"production on PostgreSQL", production(nil), false},
		{"production on allowed SQLite", production(map[string]string{"DATABASE_URL": "", "ALLOW_EMBEDDED": "true"}), false},
		{"production, asked", production(map[string]string{"DEALSPOT_SEED": "true"}), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := config.Load(env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.Seed != tc.want {
				t.Errorf("Seed = %v, want %v", c.Seed, tc.want)
			}
		})
	}
}
func TestMetricsAddress(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		want string // "" serves /metrics on DEALSPOT_ADDR
	}{
		{"development serves metrics on the main address", nil, ""},
		{"development may move metrics", map[string]string{"METRICS_ADDR": "127.0.0.1:9100"}, "127.0.0.1:9100"},
		{"same is the main address", map[string]string{"METRICS_ADDR": "same"}, ""},
		{"production moves metrics to loopback", production(nil), "127.0.0.1:9090"},
		{"production may choose the address", production(map[string]string{"METRICS_ADDR": ":9300"}), ":9300"},
		{"production may keep metrics on the main address", production(map[string]string{"METRICS_ADDR": "same"}), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := config.Load(env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.MetricsAddr != tc.want {
				t.Errorf("MetricsAddr = %q, want %q", c.MetricsAddr, tc.want)
			}
		})
	}
}

func TestMetricsAddressIsChecked(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"9090", "localhost"} {
		_, err := config.Load(env(map[string]string{"METRICS_ADDR": v}))
		if err == nil || !strings.Contains(err.Error(), "METRICS_ADDR") {
			t.Errorf("METRICS_ADDR=%s: error %v, want one naming METRICS_ADDR", v, err)
		}
	}
	_, err := config.Load(env(map[string]string{"METRICS_ADDR": config.DefaultDevAddr}))
	if err == nil || !strings.Contains(err.Error(), "METRICS_ADDR") {
		t.Errorf("METRICS_ADDR equal to DEALSPOT_ADDR: error %v, want one naming METRICS_ADDR", err)
	}
}

func TestPprofAddress(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil || c.PprofAddr != "" {
		t.Fatalf("default PprofAddr = %q (%v), want none", c.PprofAddr, err)
	}
	if c, err = config.Load(env(map[string]string{"PPROF_ADDR": "127.0.0.1:6060"})); err != nil || c.PprofAddr != "127.0.0.1:6060" {
		t.Fatalf("PPROF_ADDR=127.0.0.1:6060: %q, %v", c.PprofAddr, err)
	}
	for _, v := range []string{"6060", config.DefaultDevAddr, "127.0.0.1:9100"} {
		_, err := config.Load(env(map[string]string{"PPROF_ADDR": v, "METRICS_ADDR": "127.0.0.1:9100"}))
		if err == nil || !strings.Contains(err.Error(), "PPROF_ADDR") {
			t.Errorf("PPROF_ADDR=%s: error %v, want one naming PPROF_ADDR", v, err)
		}
	}
}

// TestProductionRefusesRedisQueueOnTheEmbeddedRedis: the embedded Redis keeps nothing on
// disk, so QUEUE=redis on it would lose accepted claims at every restart; production
// refuses that (before any server is asked, as it is known from the settings alone)
// unless ALLOW_VOLATILE_QUEUE says the loss is accepted. A real Redis is checked at
// start (see the service package).
func TestProductionRefusesRedisQueueOnTheEmbeddedRedis(t *testing.T) {
	t.Parallel()
	embedded := map[string]string{"REDIS_URL": "embedded", "ALLOW_EMBEDDED": "true", "QUEUE": "redis"}
	cases := []struct {
		name     string
		env      map[string]string
		refused  bool
		volatile bool
	}{
		{"redis queue on the embedded redis", production(embedded), true, false},
		{"explicitly allowed", production(merge(embedded, map[string]string{"ALLOW_VOLATILE_QUEUE": "true"})), false, true},
		{"memory queue on the embedded redis", production(merge(embedded, map[string]string{"QUEUE": "memory"})), false, false},
		{"redis queue on a real redis", production(map[string]string{"QUEUE": "redis"}), false, false},
		{"development", map[string]string{"QUEUE": "redis"}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := config.Load(env(tc.env))
			if tc.refused {
				if err == nil || !strings.Contains(err.Error(), "QUEUE") || !strings.Contains(err.Error(), "ALLOW_VOLATILE_QUEUE") {
					t.Fatalf("Load = %v; want an error naming QUEUE and ALLOW_VOLATILE_QUEUE", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if c.AllowVolatileQueue != tc.volatile {
				t.Errorf("AllowVolatileQueue = %v, want %v", c.AllowVolatileQueue, tc.volatile)
			}
		})
	}
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
