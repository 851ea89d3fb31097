package service_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// claimFateEnv is a service on real PostgreSQL and Redis with the memory queue.
func claimFateEnv(t *testing.T) map[string]string {
	t.Helper()
	return map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t),
		"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "0",
	}
}

// unsurePublisher queues every claim, then reports an outcome it cannot vouch for, as a
// publisher whose confirmation timed out does.
type unsurePublisher struct {
	seckill.ClaimPublisher
}

func (p unsurePublisher) PublishClaim(ctx context.Context, c domain.Claim) error {
	if err := p.ClaimPublisher.PublishClaim(ctx, c); err != nil {
		return err
	}
	return fmt.Errorf("publish order %d: unconfirmed: %w", c.OrderID, context.DeadlineExceeded)
}

// checkSettledClaim drains the sale and checks that the claim ended CREATED, that Redis
// and the database agree, and that the user cannot claim again.
func checkSettledClaim(t *testing.T, svc *service.Node, v domain.Voucher, stock int64, userID, orderID int64) {
	t.Helper()
	ctx := context.Background()
	a := drain(t, svc, v.ID)
	if bad := a.Check(stock); len(bad) > 0 {
		t.Errorf("audit %+v: %v", a, bad)
	}
	if a.RedisStock != a.DBStock || a.Orders.Created != 1 || a.RedisHolders != 1 {
		t.Errorf("after settling: %+v; want one order, Redis stock = database stock, one holder", a)
	}
	if o, err := svc.Store.Orders().Order(ctx, orderID); err != nil || o.Status != domain.OrderCreated || o.UserID != userID {
		t.Errorf("order %d: %+v, %v; want CREATED for user %d", orderID, o, err, userID)
	}
	if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, userID, v.ID); !errors.Is(err, domain.ErrAlreadyClaimed) {
		t.Errorf("the same user claims again: %v, want ALREADY_CLAIMED", err)
	}
}

// A publish whose outcome is unknown keeps the reservation: the message may be queued
// (here it is), so the claim is answered PENDING and ends CREATED, once.
func TestUnknownPublishOutcomeKeepsTheReservation(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, claimFateEnv(t), service.WithClaimPublisher(func(p seckill.ClaimPublisher) seckill.ClaimPublisher {
		return unsurePublisher{p}
	}))
	const stock = 3
	v := newSale(t, svc, stock)
	res, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), 11, v.ID)
	if err != nil || res.Status != domain.OrderPending || res.OrderID == 0 {
		t.Fatalf("claim with an unconfirmed publish: %+v, %v; want PENDING with an order id", res, err)
	}
	checkSettledClaim(t, svc, v, stock, 11, res.OrderID)
}

// cancellingPublisher cancels the client's request just before publishing, as a client
// that gives up a few milliseconds into its request does.
type cancellingPublisher struct {
	seckill.ClaimPublisher
	mu      sync.Mutex
	cancels map[int64]context.CancelFunc
}

func (p *cancellingPublisher) PublishClaim(ctx context.Context, c domain.Claim) error {
	p.mu.Lock()
	cancel := p.cancels[c.UserID]
	p.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return p.ClaimPublisher.PublishClaim(ctx, c)
}

// A claim's fate does not depend on its client: a request cancelled after the gate ran
// still ends as one CREATED order.
func TestClientCancellingMidClaimDoesNotUndoIt(t *testing.T) {
	t.Parallel()
	pub := &cancellingPublisher{cancels: map[int64]context.CancelFunc{}}
	_, svc := startService(t, claimFateEnv(t), service.WithClaimPublisher(func(p seckill.ClaimPublisher) seckill.ClaimPublisher {
		pub.ClaimPublisher = p
		return pub
	}))
	const stock = 3
	v := newSale(t, svc, stock)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pub.mu.Lock()
	pub.cancels[12] = cancel
	pub.mu.Unlock()
	res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 12, v.ID)
	if err != nil || res.Status != domain.OrderPending {
		t.Fatalf("claim cancelled by its client after the gate: %+v, %v; want PENDING", res, err)
	}
	checkSettledClaim(t, svc, v, stock, 12, res.OrderID)
}

// refusingPublisher refuses every claim, saying it was not queued.
type refusingPublisher struct{ seckill.ClaimPublisher }

func (refusingPublisher) PublishClaim(_ context.Context, c domain.Claim) error {
	return fmt.Errorf("publish order %d: broker refused the message: %w", c.OrderID, seckill.ErrNotEnqueued)
}

// A claim known not to be queued is undone: INTERNAL, stock and slot back.
func TestRefusedPublishIsUndone(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, claimFateEnv(t), service.WithClaimPublisher(func(p seckill.ClaimPublisher) seckill.ClaimPublisher {
		return refusingPublisher{p}
	}))
	v := newSale(t, svc, 2)
	if _, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), 13, v.ID); err == nil || domain.ErrorCode(err) != domain.CodeInternal {
		t.Fatalf("claim refused by the broker: %v, want INTERNAL", err)
	}
	a, _ := svc.Ops.Reconciler.Audit(context.Background(), v.ID)
	if a.RedisStock != 2 || a.Pending != 0 || a.RedisHolders != 0 {
		t.Fatalf("after a refused publish: %+v; want stock, slot and reservation back", a)
	}
}

// cancellingGate cancels the client's request as the gate step begins.
type cancellingGate struct {
	seckill.SaleStock
	mu     sync.Mutex
	cancel context.CancelFunc
}

func (g *cancellingGate) Reserve(ctx context.Context, r seckill.Reservation) (seckill.Verdict, int64, error) {
	g.mu.Lock()
	if g.cancel != nil {
		g.cancel()
	}
	g.mu.Unlock()
	return g.SaleStock.Reserve(ctx, r)
}

// A client that gives up while Redis decides its claim does not leave a reservation
// behind an error: the claim is decided and answered as if it had stayed.
func TestClientCancellingDuringTheGateStep(t *testing.T) {
	t.Parallel()
	gate := &cancellingGate{}
	_, svc := startService(t, claimFateEnv(t), service.WithSaleStock(func(g seckill.SaleStock) seckill.SaleStock {
		gate.SaleStock = g
		return gate
	}))
	const stock = 3
	v := newSale(t, svc, stock)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gate.mu.Lock()
	gate.cancel = cancel
	gate.mu.Unlock()
	res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 14, v.ID)
	if err != nil || res.Status != domain.OrderPending {
		t.Fatalf("claim cancelled by its client during the gate step: %+v, %v; want PENDING", res, err)
	}
	checkSettledClaim(t, svc, v, stock, 14, res.OrderID)
}
