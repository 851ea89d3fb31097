//go:build stress

package service_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestSubscriptionsSurvivePubSubKills opens a few hundred orderStatus subscriptions and
// writes their orders while the status bus's Pub/Sub connection is killed again and
// again: every subscription still ends with the status order(id) gives.
func TestSubscriptionsSurvivePubSubKills(t *testing.T) {
	t.Parallel()
	const users = 300
	redisURL := testsupport.RedisURL(t)
	_, svc := startService(t, map[string]string{
		"REDIS_URL": redisURL, "JWT_SECRET": testSecret,
		// The test writes the orders itself; no re-check on a timer: only the bus's
		// reconnects may bring back what the kills lost.
		"ORDER_CONSUMER": "false", "RECONCILE_INTERVAL": "0", "CLAIM_RATE_PER_USER": "off",
		"ORDER_STATUS_RECHECK": "0",
	})
	ctx := context.Background()
	v := newSale(t, svc, users)
	claims := make([]domain.Claim, 0, users)
	subs := make([]<-chan domain.OrderEvent, 0, users)
	subCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	for u := int64(1); u <= users; u++ {
		res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID)
		if err != nil {
			t.Fatalf("claim of user %d: %v", u, err)
		}
		events, err := svc.App.Queries.Orders.OrderStatus(subCtx, u, res.OrderID)
		if err != nil {
			t.Fatalf("subscribe to order %d: %v", res.OrderID, err)
		}
		if e := <-events; e.Status != domain.OrderPending {
			t.Fatalf("order %d starts %s, want PENDING", res.OrderID, e.Status)
		}
		claims = append(claims, domain.Claim{OrderID: res.OrderID, UserID: u, VoucherID: v.ID, ClaimedAt: time.Now()})
		subs = append(subs, events)
	}

	// Kill the service's Pub/Sub connections over and over while the orders are written
	// (every seventh one FAILED).
	admin := adminClient(t, redisURL)
	stop := make(chan struct{})
	var killerDone sync.WaitGroup
	kills := 0
	killerDone.Add(1)
	go func() {
		defer killerDone.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(15 * time.Millisecond):
			}
			kills += killPubSub(t, admin, svc.Redis.DB)
		}
	}()
	for i := 0; i < len(claims); i += 5 {
		batch := claims[i:min(i+5, len(claims))]
		var write []domain.Claim
		for j, c := range batch {
			if (i+j)%7 == 0 {
				if err := svc.Ops.OrderWriter.FailClaim(ctx, c, ""); err != nil {
					t.Fatalf("fail claim %d: %v", c.OrderID, err)
				}
				continue
			}
			write = append(write, c)
		}
		if err := svc.Ops.OrderWriter.ProcessClaims(ctx, write); err != nil {
			t.Fatalf("write orders: %v", err)
		}
		time.Sleep(3 * time.Millisecond)
	}
	close(stop)
	killerDone.Wait()
	written := time.Now()
	t.Logf("%d Pub/Sub connections killed while %d orders were written", kills, len(claims))
	if kills == 0 {
		t.Fatal("no Pub/Sub connection was killed")
	}

	// Every subscription at once, under one generous deadline.
	got := make([]domain.OrderStatus, len(subs))
	final := make([]bool, len(subs))
	var lastMu sync.Mutex
	var last time.Time
	var wg sync.WaitGroup
	for i, events := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], final[i] = finalStatus(t, events, 90*time.Second)
			lastMu.Lock()
			if now := time.Now(); now.After(last) {
				last = now
			}
			lastMu.Unlock()
		}()
	}
	wg.Wait()
	t.Logf("the last subscription ended %s after the last order was written", max(0, last.Sub(written)).Round(time.Millisecond))
	stuck := 0
	for i, c := range claims {
		o, found, err := svc.App.Queries.Orders.Order(ctx, c.UserID, c.OrderID)
		if err != nil || !found {
			t.Fatalf("order(%d): %v %v", c.OrderID, found, err)
		}
		switch {
		case !final[i]:
			stuck++
			t.Errorf("order %d: subscription still %s while order(id) says %s", c.OrderID, got[i], o.Status)
		case got[i] != o.Status:
			t.Errorf("order %d: subscription ended %s, order(id) says %s", c.OrderID, got[i], o.Status)
		}
	}
	if stuck > 0 {
		t.Errorf("%d of %d subscriptions never got their final status", stuck, len(subs))
	}
}

// killPubSub closes the server side of every Pub/Sub connection on logical database db
// (the test's own), as a Redis restart or a network cut would, and returns how many.
func killPubSub(t testing.TB, admin goredis.UniversalClient, db int) int {
	t.Helper()
	ctx := context.Background()
	list, err := admin.Do(ctx, "CLIENT", "LIST", "TYPE", "pubsub").Text()
	if err != nil {
		t.Errorf("CLIENT LIST: %v", err)
		return 0
	}
	killed := 0
	for _, line := range strings.Split(list, "\n") {
		var id, onDB string
		for _, f := range strings.Fields(line) {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "id":
				id = v
			case "db":
				onDB = v
			}
		}
		if id == "" || onDB != strconv.Itoa(db) {
			continue
		}
		// A connection that is already gone is not an error.
		if admin.Do(ctx, "CLIENT", "KILL", "ID", id).Err() == nil {
			killed++
		}
	}
	return killed
}
