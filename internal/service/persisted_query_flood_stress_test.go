//go:build stress

package service_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestPersistedQueryFloodMeasured is the flood of docs/performance.md ("Persisted-query
// flood"): 1,000 client addresses each send an unparsable 60 KB document with its hash, a
// valid 60 KB one, a valid 30 KB one over GET and 10 valid 4 KB ones — 13,000
// registration attempts, 250 MB of documents — against the default limits, and it
// reports what the persisted queries then hold in Redis.
//
//	go test -tags stress -count=1 -timeout 20m -run TestPersistedQueryFloodMeasured -v ./internal/service/
func TestPersistedQueryFloodMeasured(t *testing.T) {
	redisURL := testsupport.RedisURL(t)
	srv, node := startService(t, map[string]string{
		"REDIS_URL": redisURL, "RECONCILE_INTERVAL": "0", "TRUSTED_PROXIES": "127.0.0.1,::1",
	})
	rdb := node.Redis.Client
	usedMemory := func() int64 {
		info := rdb.Info(context.Background(), "memory").Val()
		for _, line := range strings.Split(info, "\r\n") {
			if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				return n
			}
		}
		return 0
	}
	before, storeBefore := usedMemory(), measureAPQ(t, rdb)
	start := time.Now()
	floodAPQ(t, srv.URL, 1000, 10, 4<<10)
	took := time.Since(start)
	after, s := usedMemory(), measureAPQ(t, rdb)
	limit := node.Config.GraphQL.APQMaxBytes
	t.Logf("13,000 registration attempts from 1,000 addresses in %v", took.Round(time.Millisecond))
	t.Logf("persisted queries in Redis: %d keys, %d entries, %d bytes of text, MEMORY USAGE %d bytes (before: %d keys, %d bytes)",
		s.keys, s.entries, s.textBytes, s.used, storeBefore.keys, storeBefore.used)
	t.Logf("Redis used_memory: %d -> %d bytes (%+d; the whole server, other databases included)", before, after, after-before)
	if s.keys > 3 || s.textBytes+int64(s.entries)*256 > limit {
		t.Errorf("the store holds %d keys and %d bytes of text in %d entries, over APQ_MAX_BYTES %d", s.keys, s.textBytes, s.entries, limit)
	}
}
