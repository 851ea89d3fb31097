package seckill_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// An accepted claim takes a unit in the gate, is queued and answered PENDING; the order
// writer then writes its order, settles the reservation and tells the order's followers.
func TestClaimAcceptedIsQueuedAndWritten(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 2)
	order := f.accept(t, 7, v)
	if order != 1000 {
		t.Fatalf("order id %d, want the generator's first (1000)", order)
	}
	f.wantGate(t, v, 1, 7)
	f.wantReservations(t, v, order)
	claims := f.wantPublished(t, f.queue, order)
	if c := claims[0]; c.UserID != 7 || c.VoucherID != v || !c.ClaimedAt.Equal(f.clock.Now()) {
		t.Fatalf("queued claim %+v, want user 7's of voucher %d at the clock's now", c, v)
	}
	f.wantCounted(t, seckill.ClaimAccepted, 1)

	events := f.follow(t, order)
	if err := f.OrderWriter.ProcessClaims(context.Background(), claims); err != nil {
		t.Fatalf("process claims: %v", err)
	}
	if o, err := f.orders.Order(context.Background(), order); err != nil || o.Status != domain.OrderCreated || o.UserID != 7 {
		t.Fatalf("order %d = %+v, %v; want user 7's, CREATED", order, o, err)
	}
	wantStatus(t, events, domain.OrderCreated)
	f.wantReservations(t, v)
	f.wantGate(t, v, 1, 7)
	// A claim delivered again finds its order and changes nothing.
	if err := f.OrderWriter.ProcessClaims(context.Background(), claims); err != nil {
		t.Fatalf("process claims again: %v", err)
	}
	if stock, _ := f.orders.SaleStock(context.Background(), v); stock != 1 {
		t.Fatalf("database stock %d after a claim written twice, want 1", stock)
	}
}

// A user holding the voucher is answered ALREADY_CLAIMED, and nothing more is taken or
// queued.
func TestClaimAlreadyClaimed(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 5)
	order := f.accept(t, 7, v)
	f.refuse(t, 7, v, domain.CodeAlreadyClaimed)
	f.wantGate(t, v, 4, 7)
	f.wantPublished(t, f.queue, order)
	f.wantCounted(t, seckill.ClaimAlreadyClaimed, 1)
}

// The claim that meets an empty gate is answered SOLD_OUT and announces it to every node;
// later claims are answered from this node's mark: SOLD_OUT, and ALREADY_CLAIMED for the
// holder.
func TestClaimSoldOut(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 1)
	order := f.accept(t, 7, v)
	f.refuse(t, 8, v, domain.CodeSoldOut)
	eventually(t, "the sale announced sold out", func() bool { return f.soldOut.Announced(v, true) })
	// Once this node has read the holders, claims are answered from its mark without the
	// gate.
	user := int64(100)
	eventually(t, "a claim answered from the mark", func() bool {
		user++
		before := f.gate.reserves.Load()
		f.refuse(t, user, v, domain.CodeSoldOut)
		return f.gate.reserves.Load() == before
	})
	before := f.gate.reserves.Load()
	f.refuse(t, 7, v, domain.CodeAlreadyClaimed)
	if f.gate.reserves.Load() != before {
		t.Fatal("the holder's claim reached the gate, want it answered from the mark")
	}
	f.wantGate(t, v, 0, 7)
	f.wantPublished(t, f.queue, order)
}

// A claim before the sale's window or after it is refused before the gate.
func TestClaimOutsideTheWindow(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	later := f.sale(t, 5, time.Minute, time.Hour)
	over := f.sale(t, 5, -time.Hour, 0)
	f.refuse(t, 7, later, domain.CodeNotStarted)
	f.refuse(t, 7, over, domain.CodeEnded)
	for _, v := range []int64{later, over} {
		if _, loaded, err := f.gate.Stock(context.Background(), v); err != nil || loaded {
			t.Fatalf("sale %d reached the gate (loaded %v, %v)", v, loaded, err)
		}
	}
	// Once the window opens the same sale is claimed (and loaded by the claim).
	f.clock.Advance(time.Minute)
	f.accept(t, 7, later)
	f.wantGate(t, later, 4, 7)
	f.wantCounted(t, seckill.ClaimNotStarted, 1)
	f.wantCounted(t, seckill.ClaimEnded, 1)
}

// Claims beyond the per-user limit, and beyond the node's global bucket, are answered
// RATE_LIMITED with a wait.
func TestClaimRateLimited(t *testing.T) {
	t.Parallel()
	t.Run("per user", func(t *testing.T) {
		t.Parallel()
		f := newFlashSale(t, seckill.Config{ClaimsPerUser: 2, ClaimWindow: time.Minute})
		a, b, c := f.openSale(t, 5), f.openSale(t, 5), f.openSale(t, 5)
		f.accept(t, 7, a)
		f.accept(t, 7, b)
		err := f.refuse(t, 7, c, domain.CodeRateLimited)
		var coded *domain.Error
		if !errors.As(err, &coded) || coded.RetryAfterSeconds < 1 || coded.RetryAfterSeconds > 60 {
			t.Fatalf("rate limited %+v, want a wait of 1 to 60 s", err)
		}
		f.accept(t, 8, c) // another user is not held back
		f.clock.Advance(time.Minute)
		f.accept(t, 7, c)
	})
	t.Run("global", func(t *testing.T) {
		t.Parallel()
		f := newFlashSale(t, seckill.Config{GlobalClaims: seckill.RateLimit{Max: 1, Window: time.Hour}})
		v := f.openSale(t, 5)
		f.accept(t, 7, v)
		f.refuse(t, 8, v, domain.CodeRateLimited)
		f.wantGate(t, v, 4, 7)
		f.wantCounted(t, seckill.ClaimRateLimited, 1)
	})
}

// A claim without a user, of an unknown voucher or of one that is not a flash sale is
// refused.
func TestClaimRefused(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 5)
	f.refuse(t, 0, v, domain.CodeUnauthenticated)
	f.refuse(t, 7, 0, domain.CodeNotFound)
	f.refuse(t, 7, v+100, domain.CodeNotFound)
	normal, err := f.vouchers.CreateVoucher(context.Background(), domain.Voucher{ShopID: 1, Title: "normal", PayValue: 1, ActualValue: 2})
	if err != nil {
		t.Fatal(err)
	}
	f.refuse(t, 7, normal.ID, domain.CodeBadUserInput)
	f.wantGate(t, v, 5)
	f.wantCounted(t, seckill.ClaimRefused, 4)
}

// A claim on a sale the gate holds reads no voucher: the gate checks the window, the
// user and the stock in its one step. The voucher is read only for a sale the gate does
// not hold.
func TestClaimOnAHeldSaleReadsNoVoucher(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 5)
	before := f.cache.gets.Load()
	for u := int64(7); u < 10; u++ {
		f.accept(t, u, v)
	}
	f.refuse(t, 7, v, domain.CodeAlreadyClaimed)
	if n := f.cache.gets.Load() - before; n != 0 {
		t.Fatalf("claims on a held sale read the voucher %d times, want none", n)
	}
	f.refuse(t, 7, v+100, domain.CodeNotFound)
	if n := f.cache.gets.Load() - before; n != 1 {
		t.Fatalf("a claim on an unknown voucher read it %d times, want once", n)
	}
	f.wantGate(t, v, 2, 7, 8, 9)
}

// A sale the gate lost is loaded again from the database by the claim that finds it
// missing, holders included.
func TestClaimLoadsALostSale(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.sale(t, 3, -time.Hour, time.Hour)
	f.orders.mu.Lock()
	f.orders.orders[1] = domain.VoucherOrder{ID: 1, UserID: 6, VoucherID: v, Status: domain.OrderPaid}
	f.orders.mu.Unlock()
	f.orders.setStock(t, v, 2) // user 6's order took a unit
	f.accept(t, 7, v)
	f.wantGate(t, v, 1, 6, 7)
	f.refuse(t, 6, v, domain.CodeAlreadyClaimed)
}

// A publish known not to have queued the claim undoes the reservation and is answered
// INTERNAL; a publish whose outcome is unknown keeps it and is answered PENDING.
func TestClaimPublishFailures(t *testing.T) {
	t.Parallel()
	f := newFlashSale(t, seckill.Config{})
	v := f.openSale(t, 2)
	f.queue.Fail(fmt.Errorf("broker refused: %w", seckill.ErrNotEnqueued))
	if res, err := f.claim(t, 7, v); !errors.Is(err, seckill.ErrNotEnqueued) || domain.ErrorCode(err) != domain.CodeInternal {
		t.Fatalf("claim not enqueued: %+v, %v; want INTERNAL", res, err)
	}
	f.wantGate(t, v, 2)
	f.wantReservations(t, v)
	if !f.soldOut.Announced(v, false) {
		t.Fatal("the undone unit was not announced back")
	}
	f.queue.Fail(errors.New("timeout"))
	order := f.accept(t, 7, v)
	f.wantGate(t, v, 1, 7)
	f.wantReservations(t, v, order)
	f.wantPublished(t, f.queue)
}
