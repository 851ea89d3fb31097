package config_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/config"
)

// Dev mode returns every login code in the API's answer. It is the default outside
// production, so a deployment that forgets DEALSPOT_DEV=false must not start in it: these
// are the settings that say "a deployment", and dev mode by default refuses each.
func TestDefaultDevModeRefusesProductionSettings(t *testing.T) {
	t.Parallel()
	secret := strings.Repeat("k", 40)
	cases := []struct {
		name string
		env  map[string]string
		want []string // what the error names
	}{
		{"an SMS gateway", map[string]string{
			"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789",
		}, []string{"DEALSPOT_DEV", "SMS_WEBHOOK_URL", "DEALSPOT_DEV=false"}},
		{"an admin phone that is not a demo account's", map[string]string{"ADMIN_PHONES": "13800000001,13912345678"},
			[]string{"DEALSPOT_DEV", "ADMIN_PHONES", "13912345678", "DEALSPOT_DEV=false"}},
		{"a PostgreSQL database", map[string]string{"DATABASE_URL": "postgres://app@db:5432/dealspot?sslmode=disable"},
			[]string{"DEALSPOT_DEV", "DATABASE_URL", "DEALSPOT_DEV=false"}},
		{"the outside test's setup", map[string]string{
			"JWT_SECRET": secret, "ADMIN_PHONES": "13912345678",
			"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789",
		}, []string{"SMS_WEBHOOK_URL", "ADMIN_PHONES"}},
		// An explicit DEALSPOT_DEV=true runs dev mode on purpose, but never beside an SMS
		// gateway: codes sent to real phones would be in every API answer as well.
		{"an SMS gateway in dev mode on purpose", map[string]string{"DEALSPOT_DEV": "true",
			"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789",
		}, []string{"DEALSPOT_DEV", "SMS_WEBHOOK_URL"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := config.Load(env(tc.env))
			if err == nil {
				t.Fatalf("dev mode started beside %v", tc.env)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %s", err, w)
				}
			}
		})
	}
}

func TestDevModeStartsBesideDemoSettings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
	}{
		{"the embedded defaults", nil},
		{"a demo account as admin", map[string]string{"ADMIN_PHONES": "13800000001"}},
		{"a secret of its own", map[string]string{"JWT_SECRET": strings.Repeat("k", 40)}},
		{"a real Redis", map[string]string{"REDIS_URL": "redis://127.0.0.1:6379/0"}},
		// On purpose: local development and the tests against PostgreSQL, with admin
		// phones of their own.
		{"PostgreSQL, dev mode on purpose", map[string]string{"DEALSPOT_DEV": "true",
			"DATABASE_URL": "postgres://app@db:5432/dealspot?sslmode=disable", "ADMIN_PHONES": "13912345678"}},
		{"PostgreSQL, dev mode off", map[string]string{"DEALSPOT_DEV": "false", "JWT_SECRET": strings.Repeat("k", 40),
			"DATABASE_URL": "postgres://app@db:5432/dealspot?sslmode=disable", "ADMIN_PHONES": "13912345678",
			"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := config.Load(env(tc.env)); err != nil {
				t.Fatalf("refused %v: %v", tc.env, err)
			}
		})
	}
}

// Dev mode answers with login codes, so by default it listens on loopback only; an address
// set on purpose is kept, and outside dev mode the default is every interface.
func TestDevModeListensOnLoopbackByDefault(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"dev mode by default", nil, "127.0.0.1:8080"},
		{"dev mode on purpose", map[string]string{"DEALSPOT_DEV": "true"}, "127.0.0.1:8080"},
		{"dev mode with an address set", map[string]string{"DEALSPOT_ADDR": ":9000"}, ":9000"},
		{"dev mode off", map[string]string{"DEALSPOT_DEV": "false", "JWT_SECRET": strings.Repeat("k", 40),
			"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789"}, ":8080"},
		{"production", production(nil), ":8080"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := config.Load(env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.Addr != tc.want {
				t.Errorf("Addr = %q, want %q", c.Addr, tc.want)
			}
		})
	}
}

// TestAdminPhonesAreNormalized: ADMIN_PHONES takes the phones as people write them and
// keeps the stored form (the demo check included).
func TestAdminPhonesAreNormalized(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(map[string]string{"ADMIN_PHONES": "+8613800000001, 86 138 0000 0002,138-0000-0003"}))
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if want := []string{"13800000001", "13800000002", "13800000003"}; !slices.Equal(c.AdminPhones, want) {
		t.Fatalf("AdminPhones = %q, want %q", c.AdminPhones, want)
	}
	if _, err := config.Load(env(map[string]string{"ADMIN_PHONES": "+1 555 0100"})); err == nil || !strings.Contains(err.Error(), "ADMIN_PHONES") {
		t.Fatalf("a foreign number: %v", err)
	}
}
