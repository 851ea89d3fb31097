package service_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// floodAttempt sends one registration attempt of an automatic persisted query, from the
// client address ip (the server trusts 127.0.0.1 as its proxy), over GET or POST.
func floodAttempt(t testing.TB, srv string, method, query, ip string) int {
	t.Helper()
	var req *http.Request
	if method == http.MethodGet {
		v := url.Values{"query": {query}, "extensions": {`{"persistedQuery":{"version":1,"sha256Hash":"` + hashOf(query) + `"}}`}}
		req, _ = http.NewRequest(http.MethodGet, srv+"/graphql?"+v.Encode(), nil)
	} else {
		req, _ = http.NewRequest(http.MethodPost, srv+"/graphql", strings.NewReader(string(persisted(hashOf(query), query))))
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-Forwarded-For", ip)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("%s: %v", method, err)
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// apqStore is what the persisted queries hold in Redis: their keys, entries and bytes of
// text, and the memory Redis reports for those keys.
type apqStore struct {
	keys, entries   int
	textBytes, used int64
}

func measureAPQ(t testing.TB, rdb goredis.UniversalClient) apqStore {
	t.Helper()
	ctx := context.Background()
	var s apqStore
	keys, err := rdb.Keys(ctx, "apq:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	s.keys = len(keys)
	for _, k := range keys {
		s.used += rdb.MemoryUsage(ctx, k, 0).Val()
		if rdb.Type(ctx, k).Val() == "hash" {
			for _, q := range rdb.HGetAll(ctx, k).Val() {
				s.entries++
				s.textBytes += int64(len(q))
			}
		}
	}
	return s
}

// floodDocument is a valid document made distinct by a comment, as the flood sent.
func floodDocument(i, bytes int) string {
	head := fmt.Sprintf("#%d ", i)
	return head + strings.Repeat("x", max(bytes-len(head)-len("\n{ __typename }"), 0)) + "\n{ __typename }"
}

// floodAPQ runs the persisted-query flood of the security review against srv: per
// client address, an unparsable 60 KB document with its hash, a valid 60 KB one, the
// same over GET, and valid documents of docBytes; clients come from distinct addresses.
func floodAPQ(t testing.TB, srv string, clients, perClient, docBytes int) {
	t.Helper()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for c := range clients {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			ip := fmt.Sprintf("198.18.%d.%d", c/250, c%250+1)
			floodAttempt(t, srv, http.MethodPost, fmt.Sprintf("#%d-%s\n{{{", c, strings.Repeat("x", 60<<10)), ip)
			floodAttempt(t, srv, http.MethodPost, floodDocument(c, 60<<10), ip)
			floodAttempt(t, srv, http.MethodGet, floodDocument(c+1_000_000, 30<<10), ip)
			for i := range perClient {
				floodAttempt(t, srv, http.MethodPost, floodDocument(c*perClient+i+2_000_000, docBytes), ip)
			}
		}()
	}
	wg.Wait()
}

// A flood of registrations — refused documents, oversized ones, GETs, and valid ones
// from many addresses — leaves the persisted queries in Redis within APQ_MAX_BYTES, in
// three keys; one address registers at most APQ_REGISTRATIONS_PER_CLIENT.
func TestPersistedQueryFloodLeavesRedisBounded(t *testing.T) {
	t.Parallel()
	redisURL := testsupport.RedisURL(t)
	const budget = 256 << 10
	srv, node := startService(t, map[string]string{
		"REDIS_URL": redisURL, "RECONCILE_INTERVAL": "0", "TRUSTED_PROXIES": "127.0.0.1,::1",
		"APQ_MAX_BYTES": fmt.Sprint(budget), "APQ_REGISTRATIONS_PER_CLIENT": "5/10m",
	})
	floodAPQ(t, srv.URL, 200, 10, 2<<10)
	s := measureAPQ(t, node.Redis.Client)
	t.Logf("after 200 clients × 13 attempts: %d keys, %d entries, %d bytes of text, %d bytes used in Redis", s.keys, s.entries, s.textBytes, s.used)
	if s.keys > 3 {
		t.Errorf("the persisted queries take %d keys, want at most 3", s.keys)
	}
	if s.entries == 0 || s.textBytes+int64(s.entries)*256 > budget {
		t.Errorf("%d entries of %d bytes of text, want some within %d bytes", s.entries, s.textBytes, budget)
	}
	for _, q := range node.Redis.Client.HGetAll(context.Background(), "apq:{apq}:docs").Val() {
		if len(q) > 16<<10 || strings.HasSuffix(q, "{{{") {
			t.Fatalf("a refused or oversized document was stored: %.40q… (%d bytes)", q, len(q))
		}
	}

	// One address alone: 5 registrations in the window, whatever it sends.
	redisURL = testsupport.RedisURL(t)
	srv, node = startService(t, map[string]string{
		"REDIS_URL": redisURL, "RECONCILE_INTERVAL": "0", "APQ_REGISTRATIONS_PER_CLIENT": "5/10m",
	})
	for i := range 50 {
		floodAttempt(t, srv.URL, http.MethodPost, floodDocument(i, 100), "")
	}
	if s := measureAPQ(t, node.Redis.Client); s.entries != 5 {
		t.Errorf("one client registered %d documents, want 5", s.entries)
	}
}

func hashOf(query string) string {
	sum := sha256.Sum256([]byte(query))
	return hex.EncodeToString(sum[:])
}
