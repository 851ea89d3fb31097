package config_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/config"
)

func TestMediaDefaultsAndOverrides(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := config.Media{Dir: filepath.Join("data", "media"), MaxBytes: 10485760, MaxSide: 8192, MaxPixels: 40_000_000,
		DecodeBudget: 268435456, RatePerUser: config.Rate{Max: 20, Window: time.Hour}}
	if c.Media != want {
		t.Fatalf("media defaults %+v, want the documented %+v", c.Media, want)
	}
	c, err = config.Load(env(map[string]string{"DEALSPOT_DATA_DIR": "/var/lib/dealspot"}))
	if err != nil || c.Media.Dir != "/var/lib/dealspot/media" {
		t.Fatalf("MEDIA_DIR does not follow DEALSPOT_DATA_DIR: %q %v", c.Media.Dir, err)
	}
	c, err = config.Load(env(map[string]string{"MEDIA_DIR": "/srv/media", "UPLOAD_MAX_BYTES": "1048576", "UPLOAD_MAX_SIDE": "4096",
		"UPLOAD_MAX_PIXELS": "16000000", "MEDIA_DECODE_BUDGET_BYTES": "1073741824", "UPLOAD_RATE_PER_USER": "5/10m"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Media != (config.Media{Dir: "/srv/media", MaxBytes: 1 << 20, MaxSide: 4096, MaxPixels: 16_000_000,
		DecodeBudget: 1 << 30, RatePerUser: config.Rate{Max: 5, Window: 10 * time.Minute}}) {
		t.Fatalf("overrides not applied: %+v", c.Media)
	}
	c, err = config.Load(env(map[string]string{"UPLOAD_RATE_PER_USER": "off"}))
	if err != nil || c.Media.RatePerUser != (config.Rate{}) {
		t.Fatalf("UPLOAD_RATE_PER_USER=off: %+v %v", c.Media.RatePerUser, err)
	}
}

func TestMediaSettingsAreChecked(t *testing.T) {
	t.Parallel()
	for name, value := range map[string]string{
		"UPLOAD_MAX_BYTES":          "0",
		"UPLOAD_MAX_SIDE":           "-1",
		"UPLOAD_MAX_PIXELS":         "many",
		"MEDIA_DECODE_BUDGET_BYTES": "0",
		"UPLOAD_RATE_PER_USER":      "20",
		"UPLOAD_RATE_WINDOW":        "1h",
	} {
		_, err := config.Load(env(map[string]string{name: value}))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: err = %v, want one naming it", name, value, err)
		}
	}
}
