package deals_test

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/deals"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/domain"
)

// world is shops and their vouchers, changeable while a search pages through them.
type world struct {
	mu       sync.Mutex
	shops    []domain.Shop
	vouchers map[int64][]seckill.VoucherView
	nextID   int64
}

func (w *world) Within(_ context.Context, lon, lat, radius float64, limit int) ([]shop.NearbyShop, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []shop.NearbyShop
	for _, s := range w.shops {
		if d := domain.DistanceMeters(lon, lat, s.Longitude, s.Latitude); d <= radius {
			out = append(out, shop.NearbyShop{Shop: s, DistanceMeters: d})
		}
	}
	slices.SortFunc(out, func(a, b shop.NearbyShop) int { return cmp.Compare(a.DistanceMeters, b.DistanceMeters) })
	return out[:min(len(out), limit)], nil
}

func (w *world) OfShops(_ context.Context, ids []int64) (map[int64][]seckill.VoucherView, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[int64][]seckill.VoucherView{}
	for _, id := range ids {
		if vs := w.vouchers[id]; len(vs) > 0 {
			out[id] = slices.Clone(vs)
		}
	}
	return out, nil
}

var now = time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)

// Shops 1–4 lie 100 m, 200 m, 300 m and 6 km east of the point (0, 0), with scores 30,
// 50, 40, 50.
const metersPerDegree = 111194.93

func newWorld() *world {
	w := &world{vouchers: map[int64][]seckill.VoucherView{}, nextID: 100}
	for i, m := range []float64{100, 200, 300, 6000} {
		w.shops = append(w.shops, domain.Shop{ID: int64(i + 1), Longitude: m / metersPerDegree, Score: []int{30, 50, 40, 50}[i]})
	}
	return w
}

// add gives shop a voucher paying pay for a value of actual; with sale, a flash sale from
// begin to end (relative to now) with remaining units left.
func (w *world) add(shopID, pay, actual int64, sale *[3]time.Duration, remaining int64) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.nextID++
	v := seckill.VoucherView{Voucher: domain.Voucher{ID: w.nextID, ShopID: shopID, PayValue: pay, ActualValue: actual, Status: domain.VoucherOnSale}}
	if sale != nil {
		v.FlashSale = &domain.FlashSale{VoucherID: w.nextID, Stock: 999, BeginTime: now.Add(sale[0]), EndTime: now.Add(sale[1])}
		v.Remaining = remaining
	}
	w.vouchers[shopID] = append(w.vouchers[shopID], v)
	return w.nextID
}

func window(begin, end time.Duration) *[3]time.Duration { return &[3]time.Duration{begin, end} }

func newDeals(t *testing.T, w *world) *deals.Queries {
	t.Helper()
	q, err := deals.New(deals.Limits{MaxRadiusMeters: 20000, MaxShops: 100, Pages: domain.PageLimits{Default: 10, Max: 50}},
		deals.Deps{Shops: w, Vouchers: w, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func ids(p deals.Page) []int64 {
	out := make([]int64, len(p.Deals))
	for i, d := range p.Deals {
		out[i] = d.Voucher.ID
	}
	return out
}

func TestDealsSortByEachKey(t *testing.T) {
	t.Parallel()
	w := newWorld()
	a := w.add(3, 800, 1000, nil, 0)                             // 300 m, discount 200, score 40, no end
	b := w.add(1, 500, 1000, window(-time.Hour, 2*time.Hour), 5) // 100 m, 500, score 30, ends in 2 h
	c := w.add(2, 900, 1000, window(time.Hour, 3*time.Hour), 9)  // 200 m, 100, score 50, ends in 3 h
	d := w.add(1, 100, 1000, window(-time.Hour, time.Hour), 1)   // 100 m, 900, score 30, ends in 1 h
	q := newDeals(t, w)
	for _, tc := range []struct {
		sort deals.Sort
		want []int64
	}{
		{deals.ByDistance, []int64{b, d, c, a}}, // ties by voucher id
		{deals.ByDiscount, []int64{d, b, a, c}},
		{deals.ByScore, []int64{c, a, b, d}},
		{deals.EndingSoon, []int64{d, b, c, a}},
		{"", []int64{b, d, c, a}},
	} {
		p, err := q.Nearby(t.Context(), deals.Query{Sort: tc.sort})
		if err != nil || !slices.Equal(ids(p), tc.want) || p.HasNextPage {
			t.Errorf("sort %q: %v, %v; want %v", tc.sort, ids(p), err, tc.want)
		}
	}
}

func TestDealsFilterAndValues(t *testing.T) {
	t.Parallel()
	w := newWorld()
	normal := w.add(1, 4750, 5000, nil, 0)
	live := w.add(1, 8000, 10000, window(-time.Minute, 90*time.Second), 7)
	upcoming := w.add(2, 100, 300, window(time.Hour, 2*time.Hour), 20)
	w.add(1, 1, 2, window(-2*time.Hour, -time.Hour), 3) // ended
	w.add(2, 1, 2, window(-time.Hour, time.Hour), 0)    // sold out
	w.add(4, 1, 2, nil, 0)                              // 6 km away
	off := w.add(3, 1, 2, nil, 0)                       // off sale
	w.vouchers[3][0].Status = domain.VoucherOffSale
	q := newDeals(t, w)
	p, err := q.Nearby(t.Context(), deals.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(p); !slices.Equal(got, []int64{normal, live, upcoming}) {
		t.Fatalf("deals within 5 km: %v; want %v (no ended, sold-out, distant or off-sale %d one)", got, []int64{normal, live, upcoming}, off)
	}
	n, l, u := p.Deals[0], p.Deals[1], p.Deals[2]
	if n.Discount != 250 || !n.Live || n.FlashSale() || n.Shop.ID != 1 || n.DistanceMeters < 99 || n.DistanceMeters > 101 {
		t.Errorf("the normal voucher: %+v", n)
	}
	if l.Discount != 2000 || !l.Live || l.Voucher.Remaining != 7 || l.SecondsLeft != 90 {
		t.Errorf("the live sale: discount %d, live %v, remaining %d, %d s left; want 2000, true, 7, 90", l.Discount, l.Live, l.Voucher.Remaining, l.SecondsLeft)
	}
	if u.Live || u.Voucher.Remaining != 20 || u.SecondsLeft != 7200 {
		t.Errorf("the upcoming sale: live %v, remaining %d, %d s left; want false, 20, 7200", u.Live, u.Voucher.Remaining, u.SecondsLeft)
	}
	p, err = q.Nearby(t.Context(), deals.Query{RadiusMeters: 7000})
	if err != nil || len(p.Deals) != 4 {
		t.Fatalf("within 7 km: %v, %v; want the distant shop's voucher too", ids(p), err)
	}
	p, err = q.Nearby(t.Context(), deals.Query{RadiusMeters: 150})
	if err != nil || !slices.Equal(ids(p), []int64{normal, live}) {
		t.Fatalf("within 150 m: %v, %v; want shop 1's", ids(p), err)
	}
}

// Paging by each order shows every deal that existed before the first page exactly
// once, while deals are added between pages before and after the page boundary.
func TestDealsPageExactlyWhileSalesAreCreated(t *testing.T) {
	t.Parallel()
	for _, sort := range []deals.Sort{deals.ByDistance, deals.ByDiscount, deals.ByScore, deals.EndingSoon} {
		t.Run(string(sort), func(t *testing.T) {
			t.Parallel()
			w := newWorld()
			var before []int64
			for i := range 12 {
				before = append(before, w.add(int64(i%3+1), int64(100+i*37%11), 1000, window(-time.Hour, time.Duration(i+1)*time.Hour), 5))
			}
			q := newDeals(t, w)
			seen := map[int64]int{}
			var after *deals.Cursor
			for pages := 0; ; pages++ {
				p, err := q.Nearby(t.Context(), deals.Query{Sort: sort, First: 3, After: after})
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range p.Deals {
					seen[d.Voucher.ID]++
				}
				// New sales everywhere in the order: the nearest shop and a far one,
				// great and small discounts, ending first and last.
				w.add(1, 1, 1000, window(-time.Hour, time.Minute), 5)
				w.add(3, 999, 1000, window(-time.Hour, 99*time.Hour), 5)
				if !p.HasNextPage {
					break
				}
				if pages > 30 {
					t.Fatal("paging never ends")
				}
				after = &p.Deals[len(p.Deals)-1].Cursor
			}
			for id, n := range seen {
				if n > 1 {
					t.Errorf("deal %d shown %d times", id, n)
				}
			}
			for _, id := range before {
				if seen[id] != 1 {
					t.Errorf("deal %d, there before the first page, shown %d times", id, seen[id])
				}
			}
		})
	}
}

func TestDealsRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld()
	w.add(1, 1, 2, nil, 0)
	q := newDeals(t, w)
	p, err := q.Nearby(t.Context(), deals.Query{Sort: deals.ByDiscount})
	if err != nil || len(p.Deals) != 1 {
		t.Fatal(err)
	}
	cursor := p.Deals[0].Cursor
	for name, in := range map[string]deals.Query{
		"a radius past the maximum":    {RadiusMeters: 20001},
		"a negative radius":            {RadiusMeters: -1},
		"an unknown sort":              {Sort: "PRICE"},
		"a page too large":             {First: 51},
		"a cursor of another order":    {Sort: deals.ByDistance, After: &cursor},
		"a cursor without its voucher": {Sort: deals.ByDiscount, After: &deals.Cursor{Sort: deals.ByDiscount}},
	} {
		if _, err := q.Nearby(t.Context(), in); !errors.Is(err, &domain.Error{Code: domain.CodeBadUserInput}) {
			t.Errorf("%s: %v; want BAD_USER_INPUT", name, err)
		}
	}
}
