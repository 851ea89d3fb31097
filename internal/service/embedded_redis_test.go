package service_test

import (
	"context"
	"testing"

	goredis "github.com/redis/go-redis/v9"
)

// The embedded Redis refuses clients without its password.
func TestEmbeddedRedisNeedsItsPassword(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{"JWT_SECRET": testSecret})
	anon := goredis.NewClient(&goredis.Options{Addr: svc.Redis.Addr})
	defer anon.Close()
	if err := anon.Set(context.Background(), "k", "v", 0).Err(); err == nil {
		t.Fatal("the embedded Redis accepted a client without password")
	}
	if svc.Redis.Client.(*goredis.Client).Options().Password == "" {
		t.Fatal("the service's client has no password")
	}
}
