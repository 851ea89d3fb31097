package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/config"
)

func TestLoadRedisGenerationCheckInterval(t *testing.T) {
	t.Parallel()
	cases := []struct {
		value   string
		want    time.Duration
		invalid bool
	}{
		{"", time.Second, false},
		{"250ms", 250 * time.Millisecond, false},
		{"0", 0, false},
		{"often", 0, true},
		{"-1s", 0, true},
	}
	for _, tc := range cases {
		t.Run("value "+tc.value, func(t *testing.T) {
			t.Parallel()
			c, err := config.Load(env(map[string]string{"REDIS_GENERATION_CHECK_INTERVAL": tc.value}))
			switch {
			case tc.invalid && (err == nil || !strings.Contains(err.Error(), "REDIS_GENERATION_CHECK_INTERVAL")):
				t.Fatalf("Load accepted %q (err %v); want an error naming the variable", tc.value, err)
			case !tc.invalid && err != nil:
				t.Fatal(err)
			case !tc.invalid && c.RedisGenerationCheck != tc.want:
				t.Fatalf("RedisGenerationCheck = %v, want %v", c.RedisGenerationCheck, tc.want)
			}
		})
	}
}

func TestLoadAcceptedClaimsMemory(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		env      map[string]string
		max      int
		interval time.Duration
		invalid  string
	}{
		{"defaults", nil, 100_000, time.Second, ""},
		{"set", map[string]string{"ACCEPTED_CLAIMS_MAX": "5000", "ACCEPTED_CLAIMS_SWEEP_INTERVAL": "250ms"}, 5000, 250 * time.Millisecond, ""},
		{"off", map[string]string{"ACCEPTED_CLAIMS_MAX": "0"}, 0, time.Second, ""},
		{"negative bound", map[string]string{"ACCEPTED_CLAIMS_MAX": "-1"}, 0, 0, "ACCEPTED_CLAIMS_MAX"},
		{"no sweep", map[string]string{"ACCEPTED_CLAIMS_SWEEP_INTERVAL": "0"}, 0, 0, "ACCEPTED_CLAIMS_SWEEP_INTERVAL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := config.Load(env(tc.env))
			switch {
			case tc.invalid != "" && (err == nil || !strings.Contains(err.Error(), tc.invalid)):
				t.Fatalf("Load = %v; want an error naming %s", err, tc.invalid)
			case tc.invalid != "":
			case err != nil:
				t.Fatal(err)
			case c.Seckill.AcceptedMax != tc.max || c.Seckill.AcceptedSweep != tc.interval:
				t.Errorf("AcceptedMax %d, AcceptedSweep %v; want %d, %v", c.Seckill.AcceptedMax, c.Seckill.AcceptedSweep, tc.max, tc.interval)
			}
		})
	}
}
