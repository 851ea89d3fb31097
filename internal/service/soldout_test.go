package service_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
)

// countingGate counts the gate calls the sold-out path might make: the claim's and the
// inspector's.
type countingGate struct {
	seckill.SaleStock
	reserves, holders, stocks atomic.Int64
}

func (g *countingGate) Reserve(ctx context.Context, r seckill.Reservation) (seckill.Verdict, int64, error) {
	g.reserves.Add(1)
	return g.SaleStock.Reserve(ctx, r)
}

func (g *countingGate) Holders(ctx context.Context, voucherID int64) ([]int64, error) {
	g.holders.Add(1)
	return g.SaleStock.Holders(ctx, voucherID)
}

func (g *countingGate) Stock(ctx context.Context, voucherID int64) (int64, bool, error) {
	g.stocks.Add(1)
	return g.SaleStock.Stock(ctx, voucherID)
}

// Once a sale sells out, a flood of claims is answered from this node's mark: a burst of
// claims meeting the sold-out gate reads the holders once, and the mark is checked
// against Redis ahead of running out, by one claim at a time, so claims do not fall
// through to the gate every TTL.
func TestSoldOutFloodStaysOffRedis(t *testing.T) {
	t.Parallel()
	gate := &countingGate{}
	// Long enough that the renewal's slack (20 % of it) outlasts the scheduling delays of
	// a loaded machine.
	const ttl = 5 * time.Second
	_, svc := startService(t, map[string]string{"CLAIM_RATE_PER_USER": "off", "SOLD_OUT_MARK_TTL": ttl.String()},
		service.WithSaleStock(func(g seckill.SaleStock) seckill.SaleStock {
			gate.SaleStock = g
			return gate
		}))
	ctx := context.Background()
	v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
		VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "sold out", PayValue: 1, ActualValue: 2},
		Stock:        20, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	// 200 users at once: 20 win, 180 meet the sold-out gate together.
	accepted, refused := flood(t, svc, v.ID, 200, 1)
	if len(accepted) != 20 || refused[domain.CodeSoldOut] != 180 {
		t.Fatalf("accepted %d, refused %v", len(accepted), refused)
	}
	// The mark is set in the background; wait until a claim is answered without the gate.
	for deadline := time.Now().Add(5 * time.Second); ; {
		before := gate.reserves.Load()
		_, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 100_000, v.ID)
		if domain.ErrorCode(err) != domain.CodeSoldOut {
			t.Fatalf("claim after the sale sold out: %v", err)
		}
		if gate.reserves.Load() == before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("claims still reach the gate 5s after the sale sold out")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := gate.holders.Load(); n != 1 {
		t.Errorf("the burst read the holders %d times, want once", n)
	}

	// Keep claiming for 3 TTLs from 8 goroutines, pausing a little so a busy machine
	// still runs the renewal.
	reservesBefore, holdersBefore := gate.reserves.Load(), gate.holders.Load()
	var claims atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(3 * ttl)
	for w := range int64(8) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := 1_000 + w; time.Now().Before(stop); u += 8 {
				_, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID)
				if code := domain.ErrorCode(err); code != domain.CodeSoldOut {
					t.Errorf("claim on a sold-out sale: %v", err)
					return
				}
				claims.Add(1)
				if u%64 < 8 {
					time.Sleep(time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	reserves, holders := gate.reserves.Load()-reservesBefore, gate.holders.Load()-holdersBefore
	t.Logf("%d claims over %s: %d reached the gate, %d holder reads, %d stock checks", claims.Load(), 3*ttl, reserves, holders, gate.stocks.Load())
	// Renewed ahead of time, the mark never runs out: no claim should reach the gate. (A
	// mark left to run out sends every claim in flight to the gate, and each of them
	// reads the holders, at every expiry.) A renewal delayed past the slack of 20 % of
	// the TTL by a loaded machine may let a few through.
	if reserves > 8 {
		t.Errorf("%d of %d claims reached the gate; the mark should have been renewed ahead of time", reserves, claims.Load())
	}
	// One renewal per 80 % of the TTL, give or take scheduling: about 4 in 3 TTLs.
	if holders < 2 || holders > 6 {
		t.Errorf("%d holder reads in 3 TTLs, want one per renewal (about 4)", holders)
	}
}
