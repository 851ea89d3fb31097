package redis_test

import (
	"context"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

func TestCacheStoreTellsMissFromNullMarker(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		s := redis.NewCacheStore(conn.Client)
		if _, ok, err := s.Get(ctx, "shop:1"); err != nil || ok {
			t.Fatalf("Get of an absent key = ok %v, err %v; want a miss", ok, err)
		}
		if err := s.Set(ctx, "shop:1", nil, time.Minute); err != nil {
			t.Fatal(err)
		}
		v, ok, err := s.Get(ctx, "shop:1")
		if err != nil || !ok || len(v) != 0 {
			t.Fatalf("Get of the null marker = %q, ok %v, err %v; want an empty hit", v, ok, err)
		}
		if err := s.Set(ctx, "shop:2", []byte(`{"id":2}`), time.Minute); err != nil {
			t.Fatal(err)
		}
		if v, ok, err := s.Get(ctx, "shop:2"); err != nil || !ok || string(v) != `{"id":2}` {
			t.Fatalf("Get = %q, ok %v, err %v", v, ok, err)
		}
	})
}

func TestCacheStoreKeysAndExpiry(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		s := redis.NewCacheStore(conn.Client)
		if err := s.Set(ctx, "shop:3", []byte("x"), 1500*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if err := s.Set(ctx, "shop:hot:3", []byte("y"), 0); err != nil {
			t.Fatal(err)
		}
		if ttl := conn.Client.PTTL(ctx, "cache:shop:3").Val(); ttl <= time.Second || ttl > 1500*time.Millisecond {
			t.Errorf("PTTL cache:shop:3 = %s, want about 1.5s", ttl)
		}
		if ttl := conn.Client.PTTL(ctx, "cache:shop:hot:3").Val(); ttl != -1 {
			t.Errorf("PTTL cache:shop:hot:3 = %s, want no expiry", ttl)
		}
		if err := s.Delete(ctx, "shop:3", "shop:hot:3", "shop:absent"); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if n := conn.Client.Exists(ctx, "cache:shop:3", "cache:shop:hot:3").Val(); n != 0 {
			t.Errorf("%d keys survived Delete", n)
		}
		if err := s.Set(ctx, "shop:4", []byte("x"), -time.Second); err == nil {
			t.Error("Set accepted a negative TTL")
		}
	})
}

func TestCacheStoreReportsAnUnreachableServer(t *testing.T) {
	t.Parallel()
	rc := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialerRetries: 1})
	defer rc.Close()
	if _, _, err := redis.NewCacheStore(rc).Get(context.Background(), "shop:1"); err == nil {
		t.Error("Get on an unreachable server returned no error")
	}
}
