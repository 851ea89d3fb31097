package service_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// queueEnv returns the settings that select a queue backend on real services (or the
// in-process ones), isolated for this test.
func queueEnv(t *testing.T, backend string) map[string]string {
	t.Helper()
	ns := "t" + testsupport.RandomSuffix(8) + "."
	env := map[string]string{"QUEUE": backend, "QUEUE_NAMESPACE": ns}
	switch backend {
	case "amqp":
		url := testsupport.Require(t, testsupport.EnvAMQP)
		env["AMQP_URL"] = url
		// Registered before the server starts, so it runs after the server has stopped.
		t.Cleanup(func() { testsupport.DeleteAMQPQueues(t, url, ns+"orders", ns+"orders.dead") })
	case "kafka":
		cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
		if err != nil {
			t.Fatalf("start kafka broker: %v", err)
		}
		t.Cleanup(cluster.Close)
		env["KAFKA_BROKERS"] = cluster.ListenAddrs()[0]
	}
	return env
}

// storeEnv selects the relational store: SQLite in a temp dir, or a fresh PostgreSQL
// database.
func storeEnv(t *testing.T, store string) map[string]string {
	t.Helper()
	if store == "postgres" {
		return map[string]string{"DATABASE_URL": testsupport.PostgresURL(t)}
	}
	return map[string]string{}
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// flood makes users claim the voucher, claimsPerUser times each, all at once, and
// returns the accepted order ids and the refusals by code.
func flood(t *testing.T, svc *service.Node, voucherID int64, users, claimsPerUser int) ([]int64, map[domain.Code]int) {
	t.Helper()
	var (
		mu       sync.Mutex
		accepted []int64
		refused  = map[domain.Code]int{}
		wg       sync.WaitGroup
		start    = make(chan struct{})
	)
	for u := 1; u <= users; u++ {
		for range claimsPerUser {
			wg.Add(1)
			go func(userID int64) {
				defer wg.Done()
				<-start
				res, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), userID, voucherID)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					refused[domain.ErrorCode(err)]++
					if domain.ErrorCode(err) == domain.CodeInternal {
						t.Errorf("claim failed: %v", err)
					}
					return
				}
				accepted = append(accepted, res.OrderID)
			}(int64(u))
		}
	}
	close(start)
	wg.Wait()
	return accepted, refused
}

// drain waits until the sale has no pending reservations.
func drain(t testing.TB, svc *service.Node, voucherID int64) seckill.Audit {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		a, err := svc.Ops.Reconciler.Audit(context.Background(), voucherID)
		if err != nil {
			t.Fatal(err)
		}
		if a.Pending == 0 || time.Now().After(deadline) {
			return a
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// floodSellsExactlyTheStock floods a sale of stock units with users claiming
// claimsPerUser times each, and checks that exactly the stock was accepted, every other
// claim refused SOLD_OUT or ALREADY_CLAIMED, the audit's invariants hold once the orders
// are written, the sale is sold out in Redis and the database, and every accepted claim
// is exactly one CREATED order (I3).
func floodSellsExactlyTheStock(t *testing.T, svc *service.Node, voucherID int64, stock, users, claimsPerUser int) {
	t.Helper()
	accepted, refused := flood(t, svc, voucherID, users, claimsPerUser)
	if len(accepted) != stock {
		t.Errorf("accepted %d claims for a stock of %d (refusals %v)", len(accepted), stock, refused)
	}
	for code, n := range refused {
		if code != domain.CodeSoldOut && code != domain.CodeAlreadyClaimed {
			t.Errorf("%d claims refused with %s", n, code)
		}
	}
	a := drain(t, svc, voucherID)
	for _, bad := range a.Check(int64(stock)) {
		t.Error(bad)
	}
	if a.Orders.Created != int64(stock) || a.Orders.Failed != 0 || a.RedisStock != 0 || a.DBStock != 0 {
		t.Errorf("after the flood: %+v", a)
	}
	for _, id := range accepted {
		o, err := svc.Store.Orders().Order(context.Background(), id)
		if err != nil || o.Status != domain.OrderCreated || o.VoucherID != voucherID {
			t.Errorf("accepted order %d: %+v, %v", id, o, err)
		}
	}
}

func TestFlashSaleInvariantsOnEveryBackend(t *testing.T) {
	t.Parallel()
	const (
		stock         = 100
		users         = 500
		claimsPerUser = 4
	)
	for _, store := range []string{"sqlite", "postgres"} {
		for _, backend := range []string{"memory", "redis", "amqp", "kafka"} {
			t.Run(store+"/"+backend, func(t *testing.T) {
				t.Parallel()
				env := merge(storeEnv(t, store), queueEnv(t, backend), map[string]string{"CLAIM_RATE_PER_USER": "off"})
				if !(store == "sqlite" && backend == "memory") {
					env["REDIS_URL"] = testsupport.RedisURL(t)
				}
				_, svc := startService(t, env)
				ctx := context.Background()
				v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
					VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "invariants", PayValue: 1, ActualValue: 100},
					Stock:        stock, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
				})
				if err != nil {
					t.Fatal(err)
				}
				floodSellsExactlyTheStock(t, svc, v.ID, stock, users, claimsPerUser)
			})
		}
	}
}

// failingPublisher fails every publish while failing is set, before sending it.
type failingPublisher struct {
	seckill.ClaimPublisher
	mu      sync.Mutex
	failing bool
}

func (p *failingPublisher) PublishClaim(ctx context.Context, c domain.Claim) error {
	p.mu.Lock()
	failing := p.failing
	p.mu.Unlock()
	if failing {
		// Never sent: the claim is known not to be queued.
		return fmt.Errorf("broker unavailable: %w", seckill.ErrNotEnqueued)
	}
	return p.ClaimPublisher.PublishClaim(ctx, c)
}

func TestFailedPublishReturnsStockAndSlot(t *testing.T) {
	t.Parallel()
	pub := &failingPublisher{failing: true}
	_, svc := startService(t, map[string]string{"CLAIM_RATE_PER_USER": "off"}, service.WithClaimPublisher(func(p seckill.ClaimPublisher) seckill.ClaimPublisher {
		pub.ClaimPublisher = p
		return pub
	}))
	ctx := context.Background()
	v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
		VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "publish failure", PayValue: 1, ActualValue: 100},
		Stock:        1, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 7, v.ID); err == nil || domain.ErrorCode(err) != domain.CodeInternal {
		t.Fatalf("claim with a failing broker: %v, want INTERNAL", err)
	}
	a, _ := svc.Ops.Reconciler.Audit(ctx, v.ID)
	if a.RedisStock != 1 || a.Pending != 0 || a.RedisHolders != 0 {
		t.Fatalf("after a failed publish: %+v; want stock, slot and reservation returned", a)
	}
	pub.mu.Lock()
	pub.failing = false
	pub.mu.Unlock()
	res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 7, v.ID)
	if err != nil {
		t.Fatalf("the same user claims again once the broker is back: %v", err)
	}
	a = drain(t, svc, v.ID)
	if bad := a.Check(1); len(bad) > 0 || a.Orders.Created != 1 {
		t.Fatalf("audit %+v: %v", a, bad)
	}
	if o, err := svc.Store.Orders().Order(ctx, res.OrderID); err != nil || o.Status != domain.OrderCreated {
		t.Fatalf("order %+v %v", o, err)
	}
}

func TestRedeliveredClaimsMakeOneOrder(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{"ORDER_CONSUMER": "false", "CLAIM_RATE_PER_USER": "off"})
	ctx := context.Background()
	v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
		VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "redelivery", PayValue: 1, ActualValue: 100},
		Stock:        5, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 42, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	claim := domain.Claim{OrderID: res.OrderID, UserID: 42, VoucherID: v.ID, ClaimedAt: time.Now()}
	// Delivered three times, e.g. after a consumer wrote the order but died before the
	// ack: one order, stock taken once.
	for i := range 3 {
		if err := svc.Ops.OrderWriter.ProcessClaims(ctx, []domain.Claim{claim}); err != nil {
			t.Fatalf("delivery %d: %v", i+1, err)
		}
	}
	// And once more inside a batch with a claim of the same user under another id.
	dup := domain.Claim{OrderID: res.OrderID + 1, UserID: 42, VoucherID: v.ID, ClaimedAt: time.Now()}
	if err := svc.Ops.OrderWriter.ProcessClaims(ctx, []domain.Claim{claim, dup}); err != nil {
		t.Fatal(err)
	}
	a, err := svc.Ops.Reconciler.Audit(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Orders.Created != 1 || a.DBStock != 4 || a.Pending != 0 {
		t.Fatalf("after redelivery: %+v; want one order and database stock 4", a)
	}
	if bad := a.Check(5); len(bad) > 0 {
		t.Fatal(bad)
	}
	if o, err := svc.Store.Orders().Order(ctx, dup.OrderID); err != nil || o.Status != domain.OrderFailed {
		t.Errorf("a second order of the same user: %+v %v; want FAILED", o, err)
	}
}

func TestLostAckAfterCommitStillOneOrderPerClaim(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			dropped := map[int64]bool{}
			seen := map[int64]int{}
			env := merge(queueEnv(t, backend), map[string]string{"CLAIM_RATE_PER_USER": "off"})
			if backend == "redis" {
				env["REDIS_URL"] = testsupport.RedisURL(t)
			}
			_, svc := startService(t, env, service.WithOrderHandler(func(h service.OrderHandler) service.OrderHandler {
				// The first delivery of every claim is written and committed, then its
				// ack is lost: the queue delivers it again.
				return func(ctx context.Context, claims []domain.Claim) error {
					if err := h(ctx, claims); err != nil {
						return err
					}
					mu.Lock()
					defer mu.Unlock()
					lost := false
					for _, c := range claims {
						seen[c.OrderID]++
						if !dropped[c.OrderID] {
							dropped[c.OrderID], lost = true, true
						}
					}
					if lost {
						return errors.New("consumer died before the ack")
					}
					return nil
				}
			}))
			ctx := context.Background()
			v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
				VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "lost ack", PayValue: 1, ActualValue: 100},
				Stock:        20, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
			})
			if err != nil {
				t.Fatal(err)
			}
			accepted, _ := flood(t, svc, v.ID, 30, 1)
			// Wait for every claim's second delivery.
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				mu.Lock()
				redelivered := 0
				for _, n := range seen {
					if n >= 2 {
						redelivered++
					}
				}
				mu.Unlock()
				if redelivered == len(accepted) || time.Now().After(deadline) {
					break
				}
			}
			a := drain(t, svc, v.ID)
			if bad := a.Check(20); len(bad) > 0 || len(accepted) != 20 || a.Orders.Created != 20 {
				t.Fatalf("accepted %d, audit %+v: %v", len(accepted), a, bad)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(dropped) != 20 {
				t.Errorf("%d claims went through the lost-ack path, want 20", len(dropped))
			}
			for id, n := range seen {
				if n < 2 {
					t.Errorf("order %d delivered %d times, want a redelivery", id, n)
				}
			}
		})
	}
}

func TestUpdateFlashSaleRefusesStockChangesOnceBegun(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{"CLAIM_RATE_PER_USER": "off"})
	ctx := context.Background()
	now := time.Now()
	mk := func(begin time.Time) domain.Voucher {
		v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
			VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "edit", PayValue: 1, ActualValue: 100},
			Stock:        10, BeginTime: begin, EndTime: now.Add(time.Hour),
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	stock := func(n int64) *int64 { return &n }

	live := mk(now.Add(-time.Minute))
	if _, err := svc.App.Commands.FlashSales.UpdateFlashSale(ctx, domain.Operator, live.ID, seckill.SaleChanges{Stock: stock(20)}); domain.ErrorCode(err) != domain.CodeConflict {
		t.Errorf("stock change of a live sale: %v, want CONFLICT", err)
	}
	// Its window may still move: ending it now makes claims ENDED.
	end := time.Now()
	if _, err := svc.App.Commands.FlashSales.UpdateFlashSale(ctx, domain.Operator, live.ID, seckill.SaleChanges{EndTime: &end}); err != nil {
		t.Fatalf("window change of a live sale: %v", err)
	}
	if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 1, live.ID); domain.ErrorCode(err) != domain.CodeEnded {
		t.Errorf("claim after the sale was ended early: %v, want ENDED", err)
	}

	later := mk(now.Add(time.Hour / 2))
	if _, err := svc.App.Commands.FlashSales.UpdateFlashSale(ctx, domain.Operator, later.ID, seckill.SaleChanges{Stock: stock(3)}); err != nil {
		t.Fatalf("stock change before the sale begins: %v", err)
	}
	begin := time.Now().Add(-time.Second)
	if _, err := svc.App.Commands.FlashSales.UpdateFlashSale(ctx, domain.Operator, later.ID, seckill.SaleChanges{BeginTime: &begin}); err != nil {
		t.Fatal(err)
	}
	accepted, _ := flood(t, svc, later.ID, 10, 1)
	if len(accepted) != 3 {
		t.Errorf("after lowering the stock to 3, %d claims were accepted", len(accepted))
	}
	a := drain(t, svc, later.ID)
	if bad := a.Check(3); len(bad) > 0 {
		t.Error(bad)
	}
	for name, ch := range map[string]seckill.SaleChanges{
		"zero stock":       {Stock: stock(0)},
		"end before begin": {EndTime: &begin, BeginTime: &end},
	} {
		v := mk(now.Add(time.Hour / 2))
		if _, err := svc.App.Commands.FlashSales.UpdateFlashSale(ctx, domain.Operator, v.ID, ch); domain.ErrorCode(err) != domain.CodeBadUserInput {
			t.Errorf("%s: %v, want BAD_USER_INPUT", name, err)
		}
	}
	if _, err := svc.App.Commands.FlashSales.UpdateFlashSale(ctx, domain.Operator, 999999, seckill.SaleChanges{}); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Errorf("unknown sale: %v, want NOT_FOUND", err)
	}
}

func TestClaimRateLimitPerUser(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		env["CLAIM_RATE_PER_USER"] = "3/1s"
		_, svc := startService(t, env)
		ctx := context.Background()
		v := newSale(t, svc, 10)
		codes := []domain.Code{}
		for i := range 5 {
			_, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 77, v.ID)
			if i == 0 && err != nil {
				t.Fatalf("first claim: %v", err)
			}
			codes = append(codes, domain.ErrorCode(err))
		}
		// One accepted, two ALREADY_CLAIMED, then the limit: 3 attempts per second.
		want := []domain.Code{domain.CodeInternal, domain.CodeAlreadyClaimed, domain.CodeAlreadyClaimed, domain.CodeRateLimited, domain.CodeRateLimited}
		_, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 78, v.ID)
		if err != nil {
			t.Errorf("another user is not limited: %v", err)
		}
		for i := range want {
			if i == 0 {
				continue // accepted: ErrorCode(nil) reads as INTERNAL
			}
			if codes[i] != want[i] {
				t.Fatalf("attempt %d: %s, want %s (all %v)", i+1, codes[i], want[i], codes)
			}
		}
		var coded *domain.Error
		_, err = svc.App.Commands.ClaimVoucher.Handle(ctx, 77, v.ID)
		if !errors.As(err, &coded) || coded.RetryAfterSeconds < 1 {
			t.Errorf("RATE_LIMITED should say when to retry: %#v", err)
		}
		time.Sleep(1100 * time.Millisecond)
		if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 77, v.ID); domain.ErrorCode(err) != domain.CodeAlreadyClaimed {
			t.Errorf("after the window: %v, want ALREADY_CLAIMED", err)
		}
	})
}
