//go:build stress

package service_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// stressSession is one logged-in client; mu keeps its requests in order, so a refresh
// never races another request of the same session.
type stressSession struct {
	mu              sync.Mutex
	access, refresh string
	seenAfterWipe   bool
}

// Thousands of live sessions keep making requests (and refreshing) while Redis is
// emptied: not one is answered UNAUTHENTICATED. The first request of each session after
// the wipe reads its session from PostgreSQL once.
func TestSessionWipeUnderLoad(t *testing.T) {
	const (
		sessions = 3000
		workers  = 16
	)
	env := map[string]string{"JWT_SECRET": testSecret, "LOGIN_CODE_INTERVAL": "1ms",
		"REDIS_URL": testsupport.RedisURL(t), "DATABASE_URL": testsupport.PostgresURL(t)}
	srv, svc := startService(t, env)
	ctx := context.Background()
	auth := svc.App.Commands

	all := make([]*stressSession, sessions)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < sessions; i = int(next.Add(1)) - 1 {
				phone := "1390000" + padded(i, 4)
				sent, err := auth.SendLoginCode.Handle(ctx, phone, "")
				if err != nil {
					t.Errorf("send code to %s: %v", phone, err)
					return
				}
				s, err := auth.Login.Handle(ctx, phone, sent.DevCode, "")
				if err != nil {
					t.Errorf("login %s: %v", phone, err)
					return
				}
				all[i] = &stressSession{access: s.AccessToken, refresh: s.RefreshToken}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}, Timeout: time.Minute}
	var (
		wiped                     atomic.Bool
		requests, refreshes, seen atomic.Int64
		mu                        sync.Mutex
		codes                     = map[string]int{}
		before, after             []time.Duration // latency of `me`, before and after the wipe
	)
	do := func(s *stressSession) {
		s.mu.Lock()
		defer s.mu.Unlock()
		c := testsupport.GraphQLClient{URL: srv.URL + "/graphql", HTTP: hc}
		isWiped := wiped.Load()
		start := time.Now()
		var resp testsupport.GQLResponse
		if rand.IntN(20) == 0 {
			resp = c.Do(t, `mutation($t: String!) { refreshToken(token: $t) { accessToken refreshToken } }`,
				map[string]any{"t": s.refresh})
			if len(resp.Errors) == 0 {
				var data struct {
					RefreshToken struct{ AccessToken, RefreshToken string }
				}
				if err := json.Unmarshal(resp.Data, &data); err == nil {
					s.access, s.refresh = data.RefreshToken.AccessToken, data.RefreshToken.RefreshToken
				}
				refreshes.Add(1)
			}
		} else {
			c.Token = s.access
			resp = c.Do(t, `{ me { id } }`, nil)
			d := time.Since(start)
			mu.Lock()
			if isWiped {
				after = append(after, d)
			} else {
				before = append(before, d)
			}
			mu.Unlock()
		}
		requests.Add(1)
		if isWiped && !s.seenAfterWipe {
			s.seenAfterWipe = true
			seen.Add(1)
		}
		if len(resp.Errors) > 0 {
			mu.Lock()
			for _, code := range resp.Codes() {
				codes[code]++
			}
			mu.Unlock()
		}
	}

	stop := make(chan struct{})
	var traffic sync.WaitGroup
	for range workers {
		traffic.Add(1)
		go func() {
			defer traffic.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				do(all[rand.IntN(sessions)])
			}
		}()
	}
	waitUntil(t, func() bool { return requests.Load() >= sessions })
	readsBefore := sessionIndexScans(t, svc.Store.DB())
	if err := svc.Redis.Client.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	wiped.Store(true)
	wipedAt, wipedRequests := time.Now(), requests.Load()
	// Every session makes a request after the wipe (a few with a refresh).
	waitUntil(t, func() bool { return seen.Load() >= sessions*9/10 })
	close(stop)
	traffic.Wait()
	for _, s := range all {
		if !s.seenAfterWipe {
			do(s)
		}
	}
	afterWipe := requests.Load() - wipedRequests
	elapsed := time.Since(wipedAt)

	mu.Lock()
	defer mu.Unlock()
	if len(codes) > 0 {
		t.Errorf("errors answered to live sessions: %v", codes)
	}
	slices.Sort(before)
	slices.Sort(after)
	t.Logf("%d sessions, %d requests (%d refreshes); after the wipe %d requests in %v",
		sessions, requests.Load(), refreshes.Load(), afterWipe, elapsed.Round(time.Millisecond))
	t.Logf("`me` latency before the wipe p50 %v p99 %v; after p50 %v p99 %v",
		pct(before, 50), pct(before, 99), pct(after, 50), pct(after, 99))
	if readsBefore >= 0 {
		time.Sleep(12 * time.Second) // PostgreSQL publishes idle backends' statistics within 10 s
		reads := sessionIndexScans(t, svc.Store.DB()) - readsBefore
		t.Logf("index look-ups on sessions after the wipe: %d (sessions %d, refreshes after the wipe at most %d)",
			reads, sessions, refreshes.Load())
	}
}

func padded(n, width int) string {
	s := make([]byte, width)
	for i := width - 1; i >= 0; i-- {
		s[i] = byte('0' + n%10)
		n /= 10
	}
	return string(s)
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[(len(sorted)-1)*p/100].Round(10 * time.Microsecond)
}

// waitUntil polls cond; the deadline only catches a hang.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 5 minutes")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sessionIndexScans is PostgreSQL's count of index scans on the sessions table (-1 when
// unavailable).
func sessionIndexScans(t *testing.T, db *sql.DB) int64 {
	t.Helper()
	var n sql.NullInt64
	err := db.QueryRowContext(context.Background(),
		`SELECT idx_scan FROM pg_stat_user_tables WHERE relname = 'sessions'`).Scan(&n)
	if err != nil || !n.Valid {
		t.Logf("no index statistics: %v", err)
		return -1
	}
	return n.Int64
}
