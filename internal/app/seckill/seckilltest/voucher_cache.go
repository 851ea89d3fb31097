package seckilltest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// VoucherCache is a read-through cache of vouchers as the seckill ports see it: the
// reader of the claim path and the invalidator told after a voucher changed.
type VoucherCache interface {
	seckill.VoucherReader
	seckill.VoucherInvalidator
}

// VoucherCacheContract is what every seckill.VoucherReader with its
// seckill.VoucherInvalidator must do, as their doc comments say. newCache returns a
// cache; caches of one test may share their server.
func VoucherCacheContract(t *testing.T, newCache func(t *testing.T) VoucherCache) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, c VoucherCache)
	}{
		{"a miss loads once and the answer is cached, not found included", voucherCacheLoadsOnce},
		{"a load's error is returned and not cached", voucherCacheError},
		{"a changed voucher is loaded again", voucherCacheChanged},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newCache(t))
		})
	}
}

// countedLoad is a load that counts its calls and answers v (found when v.ID is set).
type countedLoad struct {
	mu    sync.Mutex
	calls int
	v     domain.Voucher
	err   error
}

func (l *countedLoad) load(context.Context) (domain.Voucher, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	return l.v, l.v.ID != 0 && l.err == nil, l.err
}

func (l *countedLoad) wantCalls(t *testing.T, want int) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.calls != want {
		t.Fatalf("load called %d times, want %d", l.calls, want)
	}
}

func getVoucher(t *testing.T, c VoucherCache, id int64, l *countedLoad) (domain.Voucher, bool) {
	t.Helper()
	v, found, err := c.Get(context.Background(), id, l.load)
	if err != nil {
		t.Fatalf("get %d: %v", id, err)
	}
	return v, found
}

func voucherCacheLoadsOnce(t *testing.T, c VoucherCache) {
	id := newID()
	l := &countedLoad{v: domain.Voucher{ID: id, ShopID: 7, Title: "sale", Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
		FlashSale: &domain.FlashSale{VoucherID: id, Stock: 3}}}
	for range 3 {
		if v, found := getVoucher(t, c, id, l); !found || v.ID != id || v.Title != "sale" || v.FlashSale == nil || v.FlashSale.Stock != 3 {
			t.Fatalf("get %d = %+v (found %v), want the loaded voucher", id, v, found)
		}
	}
	l.wantCalls(t, 1)
	missing, none := newID(), &countedLoad{}
	for range 2 {
		if v, found := getVoucher(t, c, missing, none); found {
			t.Fatalf("get of an unknown voucher = %+v, want not found", v)
		}
	}
	none.wantCalls(t, 1)
}

func voucherCacheError(t *testing.T, c VoucherCache) {
	id := newID()
	broken := errors.New("database down")
	l := &countedLoad{err: broken}
	if _, _, err := c.Get(context.Background(), id, l.load); !errors.Is(err, broken) {
		t.Fatalf("get with a failing load: %v, want its error", err)
	}
	l.err, l.v = nil, domain.Voucher{ID: id, Title: "back"}
	if v, found := getVoucher(t, c, id, l); !found || v.Title != "back" {
		t.Fatalf("get after a failed load = %+v (found %v), want the voucher loaded again", v, found)
	}
	l.wantCalls(t, 2)
}

func voucherCacheChanged(t *testing.T, c VoucherCache) {
	id := newID()
	l := &countedLoad{v: domain.Voucher{ID: id, Title: "old"}}
	getVoucher(t, c, id, l)
	l.v.Title = "new"
	if err := c.VoucherChanged(context.Background(), id); err != nil {
		t.Fatalf("voucher changed: %v", err)
	}
	if v, found := getVoucher(t, c, id, l); !found || v.Title != "new" {
		t.Fatalf("get after a change = %+v (found %v), want the new voucher", v, found)
	}
	l.wantCalls(t, 2)
}

// MemVoucherCache is an in-memory seckill.VoucherReader and seckill.VoucherInvalidator:
// a map of answers, "not found" included, until the voucher changes.
type MemVoucherCache struct {
	mu      sync.Mutex
	answers map[int64]memVoucherAnswer
}

type memVoucherAnswer struct {
	v     domain.Voucher
	found bool
}

var _ VoucherCache = (*MemVoucherCache)(nil)

// NewMemVoucherCache returns an empty cache.
func NewMemVoucherCache() *MemVoucherCache {
	return &MemVoucherCache{answers: map[int64]memVoucherAnswer{}}
}

// Get implements seckill.VoucherReader. Loads of one id are not coalesced.
func (c *MemVoucherCache) Get(ctx context.Context, id int64, load func(ctx context.Context) (domain.Voucher, bool, error)) (domain.Voucher, bool, error) {
	c.mu.Lock()
	a, ok := c.answers[id]
	c.mu.Unlock()
	if ok {
		return cloneVoucher(a.v), a.found, nil
	}
	if err := ctx.Err(); err != nil {
		return domain.Voucher{}, false, err
	}
	v, found, err := load(ctx)
	if err != nil {
		return domain.Voucher{}, false, err
	}
	c.mu.Lock()
	c.answers[id] = memVoucherAnswer{cloneVoucher(v), found}
	c.mu.Unlock()
	return v, found, nil
}

// VoucherChanged implements seckill.VoucherInvalidator.
func (c *MemVoucherCache) VoucherChanged(_ context.Context, id int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.answers, id)
	return nil
}
