package redis_test

import (
	"context"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

func TestGenerationMarkerIsSetOnceAndRenewedAfterAWipe(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		a, b := redis.NewGenerationMarker(conn.Client), redis.NewGenerationMarker(conn.Client)
		if v, err := a.Read(ctx); err != nil || v != "" {
			t.Fatalf("Read on an empty Redis = %q, %v; want none", v, err)
		}
		// Nodes starting together agree on one generation.
		var wg sync.WaitGroup
		got := make([]string, 8)
		for i := range got {
			wg.Go(func() {
				m := a
				if i%2 == 1 {
					m = b
				}
				v, err := m.Claim(ctx)
				if err != nil {
					t.Error(err)
				}
				got[i] = v
			})
		}
		wg.Wait()
		for _, v := range got {
			if v == "" || v != got[0] {
				t.Fatalf("concurrent claims returned %q, want one value", got)
			}
		}
		if v, _ := b.Read(ctx); v != got[0] {
			t.Fatalf("Read = %q, want %q", v, got[0])
		}
		if err := conn.Client.FlushDB(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		if v, _ := a.Read(ctx); v != "" {
			t.Fatalf("Read after FLUSHDB = %q, want none", v)
		}
		next, err := b.Claim(ctx)
		if err != nil || next == "" || next == got[0] {
			t.Fatalf("Claim after the wipe = %q, %v; want a new generation (was %q)", next, err, got[0])
		}
		if ttl, _ := conn.Client.TTL(ctx, redis.GenerationKey).Result(); ttl >= 0 {
			t.Errorf("the marker expires (TTL %v): eviction of volatile keys could take it", ttl)
		}
	})
}

func TestPersistenceOfTheTestServer(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		p, err := conn.Persistence(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if conn.IsEmbedded() != p.Embedded {
			t.Fatalf("Persistence = %+v for an embedded server: %v", p, conn.IsEmbedded())
		}
		if !p.Embedded && p.AOF && p.AppendFsync == "" {
			t.Errorf("AOF on but no fsync policy read: %+v", p)
		}
		t.Logf("%+v", p)
	})
}
