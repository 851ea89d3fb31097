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
