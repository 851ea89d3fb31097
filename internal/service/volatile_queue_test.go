package service_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestProductionRefusesRedisQueueWithoutAOF: with QUEUE=redis the stream holds the only
// copy of accepted claims, so production refuses to start on a Redis that reports no AOF
// (the test Redis runs without) unless ALLOW_VOLATILE_QUEUE=true, and then warns at
// every start. Other queues keep their claims and start either way.
func TestProductionRefusesRedisQueueWithoutAOF(t *testing.T) {
	t.Parallel()
	redisURL := testsupport.RedisURL(t)
	opts, err := goredis.ParseURL(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	rc := goredis.NewClient(opts)
	info, err := rc.Info(context.Background(), "persistence").Result()
	_ = rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(info, "aof_enabled:1") {
		t.Skip("the test Redis has AOF on; this test needs one without")
	}
	cases := []struct {
		name, queue string
		allow       bool
		refused     bool
	}{
		{"redis queue", "redis", false, true},
		{"redis queue, volatile allowed", "redis", true, false},
		{"memory queue", "memory", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]string{
				"DEALSPOT_ENV": "production", "JWT_SECRET": strings.Repeat("s", 40), "ALLOW_EMBEDDED": "true",
				"DEALSPOT_AUTO_MIGRATE": "true", "DEALSPOT_DATA_DIR": t.TempDir(), "REDIS_URL": redisURL,
				"QUEUE": tc.queue, "QUEUE_NAMESPACE": "t" + testsupport.RandomSuffix(8) + ".",
				"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": strings.Repeat("w", 20),
				"METRICS_ADDR": "same", "RECONCILE_INTERVAL": "0",
			}
			if tc.allow {
				vars["ALLOW_VOLATILE_QUEUE"] = "true"
			}
			cfg, err := config.Load(func(k string) string { return vars[k] })
			if err != nil {
				t.Fatalf("config: %v", err)
			}
			logs := &logBuffer{}
			svc, err := service.New(context.Background(), cfg, slog.New(slog.NewTextHandler(logs, nil)))
			if err == nil {
				t.Cleanup(func() { _ = svc.Close() })
			}
			switch {
			case tc.refused && err == nil:
				t.Fatal("started with QUEUE=redis on a Redis without AOF; want refused")
			case tc.refused && (!strings.Contains(err.Error(), "ALLOW_VOLATILE_QUEUE") || !strings.Contains(err.Error(), "appendonly")):
				t.Fatalf("refused with %q; want the error to name appendonly and ALLOW_VOLATILE_QUEUE", err)
			case !tc.refused && err != nil:
				t.Fatalf("refused: %v", err)
			}
			warned := strings.Contains(logs.String(), "level=WARN") && strings.Contains(logs.String(), "ALLOW_VOLATILE_QUEUE=true")
			if tc.allow && !warned {
				t.Errorf("started with ALLOW_VOLATILE_QUEUE=true without a warning naming it; log:\n%s", logs)
			}
			if !tc.allow && warned {
				t.Errorf("warned about ALLOW_VOLATILE_QUEUE=true, which is not set; log:\n%s", logs)
			}
		})
	}
}
