package service_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// acceptedClaimsEnv is a node on the real Redis that accepts claims and writes none (no
// consumer, no reconciler), so every accepted claim is still on its way when Redis is
// wiped, and notices the wipe quickly.
func acceptedClaimsEnv(t *testing.T, queue string) map[string]string {
	return merge(queueEnv(t, queue), map[string]string{
		"JWT_SECRET": testSecret, "REDIS_URL": testsupport.RedisURL(t), "CLAIM_RATE_PER_USER": "off",
		"ORDER_CONSUMER": "false", "RECONCILE_INTERVAL": "0", "REDIS_GENERATION_CHECK_INTERVAL": "100ms",
	})
}

// claimAll makes users first … first+n-1 claim v once each and returns their order ids.
func claimAll(t *testing.T, svc *service.Node, v domain.Voucher, first int64, n int) map[int64]int64 {
	t.Helper()
	ids := map[int64]int64{}
	for u := first; u < first+int64(n); u++ {
		res, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), u, v.ID)
		if err != nil {
			t.Fatalf("claim of user %d: %v", u, err)
		}
		ids[u] = res.OrderID
	}
	return ids
}

// TestClaimsLostWithAVolatileRedisQueueEndFailedLost: with QUEUE=redis on a Redis
// without persistence, a Redis that comes back empty takes the claims not yet written
// with it. Their order ids must not turn into a silent null: the node that accepted them
// records each FAILED with reason LOST, order(id) says so (over GraphQL too), open
// orderStatus subscriptions end with it, and the unit and the user's slot are free again.
func TestClaimsLostWithAVolatileRedisQueueEndFailedLost(t *testing.T) {
	t.Parallel()
	srv, svc := startService(t, acceptedClaimsEnv(t, "redis"))
	ctx := context.Background()
	const stock, claimants = 20, 8
	v := newSale(t, svc, stock)
	ids := claimAll(t, svc, v, 1000, claimants)

	// One claimant over GraphQL, following the order with a subscription.
	c := client(srv)
	c.Token = login(t, c, "13800138025").AccessToken
	var claimed struct {
		ClaimVoucher struct{ OrderID, Status string }
	}
	c.Do(t, `mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`, map[string]any{"v": strconv.FormatInt(v.ID, 10)}).Decode(t, &claimed)
	var me struct{ Me struct{ ID string } }
	c.Do(t, `{ me { id } }`, nil).Decode(t, &me)
	userID, _ := strconv.ParseInt(me.Me.ID, 10, 64)
	orderID, _ := strconv.ParseInt(claimed.ClaimVoucher.OrderID, 10, 64)
	ids[userID] = orderID
	subCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	events, err := svc.App.Queries.Orders.OrderStatus(subCtx, userID, orderID)
	if err != nil {
		t.Fatal(err)
	}
	if e := <-events; e.Status != domain.OrderPending {
		t.Fatalf("first status event %+v, want PENDING", e)
	}

	if err := svc.Redis.Client.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for u, id := range ids {
		for {
			o, found, err := svc.App.Queries.Orders.Order(ctx, u, id)
			if err != nil {
				t.Fatal(err)
			}
			if found && o.Status == domain.OrderFailed {
				break
			}
			if found && o.Status != domain.OrderPending {
				t.Fatalf("order %d of user %d after the wipe: %s, want FAILED", id, u, o.Status)
			}
			if time.Now().After(deadline) {
				t.Fatalf("order %d of user %d 20 s after the wipe: found %v, %+v; want FAILED with reason LOST", id, u, found, o)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	var got struct {
		Order *struct {
			Status        string
			FailureReason *string
		}
	}
	c.Do(t, `query($id: ID!) { order(id: $id) { status failureReason } }`, map[string]any{"id": claimed.ClaimVoucher.OrderID}).Decode(t, &got)
	if got.Order == nil || got.Order.Status != "FAILED" || got.Order.FailureReason == nil || *got.Order.FailureReason != "LOST" {
		t.Errorf("order(id) over GraphQL after the wipe: %+v; want FAILED with failureReason LOST", got.Order)
	}
	select {
	case e, ok := <-events:
		if !ok || e.Status != domain.OrderFailed || e.Reason != "LOST" {
			t.Errorf("subscription after the wipe: %+v (open %v); want FAILED, reason LOST", e, ok)
		}
	case <-subCtx.Done():
		t.Fatal("the orderStatus subscription never ended after the wipe")
	}
	// Nothing is held any more: the sale has all its stock, and the users may claim again.
	if _, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig()); err != nil {
		t.Fatal(err)
	}
	a, err := svc.Ops.Reconciler.Audit(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.RedisStock != stock || a.DBStock != stock || a.RedisHolders != 0 || a.Orders.Failed != claimants+1 {
		t.Errorf("audit after the wipe: %+v; want stock %d in Redis and the database, no holders, %d FAILED", a, stock, claimants+1)
	}
	if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 1000, v.ID); err != nil {
		t.Errorf("a user whose claim was lost claims again: %v", err)
	}
}

// TestQueuedClaimsStayPendingThroughARedisWipe: with a queue outside Redis (AMQP) the
// accepted claims survive a Redis that comes back empty. From the moment they are
// answered until they are written, order(id) answers PENDING for them — never null —
// and the reloaded sale counts them: its stock is the database's minus the claims still
// queued, their users hold their slots, and once the consumer runs every one is CREATED.
func TestQueuedClaimsStayPendingThroughARedisWipe(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, acceptedClaimsEnv(t, "amqp"))
	ctx := context.Background()
	const stock, claimants = 20, 8
	v := newSale(t, svc, stock)
	ids := claimAll(t, svc, v, 1000, claimants)

	if err := svc.Redis.Client.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	pendingAll := func(when string) {
		t.Helper()
		for u, id := range ids {
			o, found, err := svc.App.Queries.Orders.Order(ctx, u, id)
			if err != nil || !found || o.Status != domain.OrderPending {
				t.Fatalf("order %d of user %d %s: found %v, %+v, %v; want PENDING", id, u, when, found, o, err)
			}
		}
	}
	pendingAll("right after the wipe")
	deadline := time.Now().Add(20 * time.Second)
	for {
		a, err := svc.Ops.Reconciler.Audit(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if a.RedisLoaded && a.RedisStock == stock-claimants && a.RedisHolders == claimants && a.Pending == claimants {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sale 20 s after the wipe: %+v; want Redis stock %d with %d holders and reservations (the claims still queued)", a, stock-claimants, claimants)
		}
		time.Sleep(50 * time.Millisecond)
	}
	pendingAll("once the sale is reloaded")
	if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 1000, v.ID); domain.ErrorCode(err) != domain.CodeAlreadyClaimed {
		t.Errorf("second claim of a user whose claim is queued: %v, want ALREADY_CLAIMED", err)
	}

	svc.StartConsumer()
	deadline = time.Now().Add(60 * time.Second)
	for u, id := range ids {
		for {
			o, found, err := svc.App.Queries.Orders.Order(ctx, u, id)
			if err != nil || !found {
				t.Fatalf("order %d of user %d: found %v, %v", id, u, found, err)
			}
			if o.Status == domain.OrderCreated {
				break
			}
			if o.Status != domain.OrderPending || time.Now().After(deadline) {
				t.Fatalf("order %d of user %d: %s, want CREATED", id, u, o.Status)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	a := drain(t, svc, v.ID)
	if bad := a.Check(stock); len(bad) > 0 || a.Orders.Created != claimants {
		t.Fatalf("audit %+v: %v", a, bad)
	}
}
