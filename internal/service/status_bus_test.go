package service_test

import (
	"context"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// adminClient opens a client to the real Redis at url (straight, not through a proxy).
func adminClient(t testing.TB, url string) *goredis.Client {
	t.Helper()
	opts, err := redisadapter.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := goredis.NewClient(opts)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// finalStatus waits (generously) for a subscription's first status past PENDING — the
// order written (CREATED) or failed — and, when that status is final, checks the channel
// closes after it. ok is false when no such status came.
func finalStatus(t testing.TB, events <-chan domain.OrderEvent, timeout time.Duration) (domain.OrderStatus, bool) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case e, ok := <-events:
			if !ok {
				return "", false
			}
			if e.Status == domain.OrderCreated {
				return e.Status, true // the subscription follows the order on
			}
			if e.Status.Final() {
				select {
				case _, open := <-events:
					if open {
						t.Errorf("order %d: event after its final status", e.OrderID)
					}
				case <-deadline:
					t.Errorf("order %d: subscription not closed after its final status", e.OrderID)
				}
				return e.Status, true
			}
		case <-deadline:
			return domain.OrderPending, false
		}
	}
}

// TestSubscriptionEndsAfterRedisWipedWhileTheOrderIsWritten: the status event of an order
// written while Redis is away (restarted empty) is lost, yet the subscription ends with
// the order's status once Redis is back.
func TestSubscriptionEndsAfterRedisWipedWhileTheOrderIsWritten(t *testing.T) {
	t.Parallel()
	redisURL := testsupport.RedisURL(t)
	proxy, viaProxy := viaProxy(t, redisURL)
	_, svc := startService(t, map[string]string{
		"REDIS_URL": viaProxy, "JWT_SECRET": testSecret,
		// The test writes the order itself, while Redis is away; no re-check on a timer:
		// only the bus's reconnect may bring the status.
		"ORDER_CONSUMER": "false", "RECONCILE_INTERVAL": "0", "CLAIM_RATE_PER_USER": "off",
		"ORDER_STATUS_RECHECK": "0",
	})
	ctx := context.Background()
	v := newSale(t, svc, 10)
	const user = 1
	res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, user, v.ID)
	if err != nil || res.Status != domain.OrderPending {
		t.Fatalf("claim: %+v, %v", res, err)
	}
	subCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	events, err := svc.App.Queries.Orders.OrderStatus(subCtx, user, res.OrderID)
	if err != nil {
		t.Fatal(err)
	}
	if e := <-events; e.Status != domain.OrderPending {
		t.Fatalf("first event %+v, want PENDING", e)
	}

	proxy.Cut()
	if err := adminClient(t, redisURL).FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	// Written while Redis is away: the CREATED event cannot be published.
	claim := domain.Claim{OrderID: res.OrderID, UserID: user, VoucherID: v.ID, ClaimedAt: time.Now()}
	if err := svc.Ops.OrderWriter.ProcessClaims(ctx, []domain.Claim{claim}); err != nil {
		t.Fatalf("write the order: %v", err)
	}
	if o, found, err := svc.App.Queries.Orders.Order(ctx, user, res.OrderID); err != nil || !found || o.Status != domain.OrderCreated {
		t.Fatalf("order(id) = %+v %v %v, want CREATED", o, found, err)
	}
	proxy.Restore()
	if status, ok := finalStatus(t, events, 60*time.Second); !ok || status != domain.OrderCreated {
		t.Fatalf("subscription ended with %q (final %v), want CREATED", status, ok)
	}
}
