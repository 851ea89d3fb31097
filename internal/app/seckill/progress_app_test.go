package seckill_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// stockReads counts the gate's Stock reads of a flash sale's fixture.
type stockReads struct {
	*countedGate
	reads atomic.Int64
}

func (g *stockReads) Stock(ctx context.Context, voucherID int64) (int64, bool, error) {
	g.reads.Add(1)
	return g.countedGate.Stock(ctx, voucherID)
}

// newProgressSale is the flash sale's fixture with progress pushed every interval and the
// gate's stock reads counted.
func newProgressSale(t *testing.T, cfg seckill.Config) (*flashSale, *stockReads) {
	t.Helper()
	f := newFlashSale(t, seckill.Config{})
	reads := &stockReads{countedGate: f.gate}
	cfg.MaxStock = 1000
	cfg.Pages = domain.PageLimits{Default: 10, Max: 50}
	svc, err := seckill.New(context.Background(), cfg, seckill.Deps{Vouchers: f.vouchers, Orders: f.orders, Stock: reads,
		Publisher: f.queue, Republisher: f.requeue, IDs: f.ids, Status: f.status, SoldOut: f.soldOut, Shops: f.shops,
		VoucherCache: f.cache, VoucherChanges: f.cache, Observer: f.observed, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	f.Service = svc
	return f, reads
}

// nextProgress waits for a push that satisfies want, skipping earlier ones.
func nextProgress(t *testing.T, what string, ch <-chan seckill.Progress, want func(seckill.Progress) bool) seckill.Progress {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case p, ok := <-ch:
			if !ok {
				t.Fatalf("%s: the feed ended first", what)
			}
			if want(p) {
				return p
			}
		case <-deadline:
			t.Fatalf("%s: no such push within 10 s", what)
		}
	}
}

func TestSaleProgressReadsASaleOncePerIntervalForAllItsViewers(t *testing.T) {
	t.Parallel()
	const interval = 20 * time.Millisecond
	f, reads := newProgressSale(t, seckill.Config{ProgressInterval: interval})
	sale := f.openSale(t, 50)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const viewers = 300
	feeds := make([]<-chan seckill.Progress, viewers)
	for i := range feeds {
		ch, err := f.Progress.Watch(ctx, sale)
		if err != nil {
			t.Fatal(err)
		}
		feeds[i] = ch
	}
	for i, ch := range feeds {
		p := nextProgress(t, "first push", ch, func(seckill.Progress) bool { return true })
		if p.Remaining != 50 || p.SoldOut || p.Phase != seckill.PhaseLive || p.VoucherID != sale {
			t.Fatalf("viewer %d's first push: %+v; want 50 left, LIVE", i, p)
		}
	}
	if n := f.Progress.Following(); n != 1 {
		t.Fatalf("following %d sales for %d viewers of one, want 1", n, viewers)
	}

	// Over 15 intervals the sale is read about 15 times, not once per viewer.
	before := reads.reads.Load()
	time.Sleep(15 * interval)
	if n := reads.reads.Load() - before; n > 20 {
		t.Errorf("%d gate reads in 15 intervals for %d viewers, want at most one per interval", n, viewers)
	}

	// Every viewer sees the sale sell out.
	for u := int64(1); u <= 50; u++ {
		f.accept(t, u, sale)
	}
	var wg sync.WaitGroup
	for i, ch := range feeds {
		wg.Go(func() {
			p := nextProgress(t, "sold out", ch, func(p seckill.Progress) bool { return p.Remaining == 0 })
			if !p.SoldOut {
				t.Errorf("viewer %d: %+v; want soldOut with nothing left", i, p)
			}
		})
	}
	wg.Wait()

	// The loop stops with the last viewer.
	cancel()
	eventually(t, "no sale followed once every viewer left", func() bool { return f.Progress.Following() == 0 })
}

func TestSaleProgressFollowsTheWindowAndEnds(t *testing.T) {
	t.Parallel()
	f, _ := newProgressSale(t, seckill.Config{ProgressInterval: 10 * time.Millisecond})
	sale := f.sale(t, 5, time.Minute, 2*time.Minute)
	ch, err := f.Progress.Watch(context.Background(), sale)
	if err != nil {
		t.Fatal(err)
	}
	p := nextProgress(t, "upcoming", ch, func(seckill.Progress) bool { return true })
	if p.Phase != seckill.PhaseUpcoming || p.Remaining != 5 {
		t.Fatalf("before the sale: %+v; want UPCOMING with 5 left (from the database: the gate does not hold it)", p)
	}
	f.clock.Advance(time.Minute)
	nextProgress(t, "live", ch, func(p seckill.Progress) bool { return p.Phase == seckill.PhaseLive })
	f.clock.Advance(time.Minute)
	nextProgress(t, "ended", ch, func(p seckill.Progress) bool { return p.Phase == seckill.PhaseEnded })
	select {
	case _, ok := <-ch:
		if ok {
			t.Fatal("a push after ENDED")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the feed did not end after the sale ended")
	}
	eventually(t, "the ended sale is no longer followed", func() bool { return f.Progress.Following() == 0 })
}

func TestSaleProgressRefusals(t *testing.T) {
	t.Parallel()
	f, _ := newProgressSale(t, seckill.Config{ProgressInterval: time.Second, ProgressMaxSales: 1})
	ctx := context.Background()
	_, err := f.Progress.Watch(ctx, 999_999)
	wantCode(t, "unknown voucher", err, domain.CodeNotFound)
	normal, err := f.vouchers.CreateVoucher(ctx, domain.Voucher{ShopID: 1, Title: "normal", PayValue: 1, ActualValue: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Progress.Watch(ctx, normal.ID)
	wantCode(t, "normal voucher", err, domain.CodeBadUserInput)

	first, second := f.openSale(t, 3), f.sale(t, 3, -time.Hour, time.Hour)
	if _, err := f.Progress.Watch(ctx, first); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Progress.Watch(ctx, first); err != nil {
		t.Fatalf("a second viewer of a followed sale: %v", err)
	}
	_, err = f.Progress.Watch(ctx, second)
	wantCode(t, "a second sale beyond SALE_PROGRESS_MAX_SALES 1", err, domain.CodeRateLimited)
}
