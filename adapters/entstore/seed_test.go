package entstore_test

import (
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
)

func testSeed(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	seeded, err := s.Seed(ctx)
	if err != nil || !seeded {
		t.Fatalf("first seed = %v, %v; want true", seeded, err)
	}
	types, err := s.Shops().ShopTypes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(types) < 8 {
		t.Fatalf("%d shop types, want at least 8", len(types))
	}
	all := pageThroughShops(t, s.Shops(), domain.ShopFilter{})
	if len(all) < 50 {
		t.Fatalf("%d shops, want at least 50", len(all))
	}
	perType := map[int64]int{}
	names := map[string]bool{}
	for _, sh := range all {
		perType[sh.TypeID]++
		if names[sh.Name] {
			t.Errorf("shop name %q seeded twice", sh.Name)
		}
		names[sh.Name] = true
		if sh.Longitude < 120.05 || sh.Longitude > 120.25 || sh.Latitude < 30.15 || sh.Latitude > 30.35 {
			t.Errorf("shop %s at (%v, %v) is not in Hangzhou", sh.Name, sh.Longitude, sh.Latitude)
		}
		if sh.AvgPrice < 1000 || sh.Score < 10 || sh.Score > 50 || sh.OpenHours == "" || sh.Address == "" || sh.Area == "" {
			t.Errorf("implausible shop %+v", sh)
		}
	}
	for _, typ := range types {
		if perType[typ.ID] < 3 {
			t.Errorf("type %s has %d shops, want several", typ.Name, perType[typ.ID])
		}
	}

	vouchers, err := s.Vouchers().VouchersOfShop(ctx, all[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	live := 0
	for _, v := range vouchers {
		if fs := v.FlashSale; fs != nil && v.Kind == domain.VoucherFlashSale && v.Status == domain.VoucherOnSale &&
			fs.Stock == 100 && fs.BeginTime.Before(now) && fs.EndTime.After(now) && fs.VoucherID == v.ID {
			live++
		}
	}
	if live != 1 {
		t.Fatalf("shop %d (%s) has %d live flash sales in %+v, want 1", all[0].ID, all[0].Name, live, vouchers)
	}

	again, err := s.Seed(ctx)
	if err != nil || again {
		t.Fatalf("second seed = %v, %v; want false", again, err)
	}
	if n := len(pageThroughShops(t, s.Shops(), domain.ShopFilter{})); n != len(all) {
		t.Fatalf("second seed changed the shop count from %d to %d", len(all), n)
	}
}

func testSeedConcurrent(t *testing.T, s *entstore.Store) {
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		wrote  int
		errs   []error
		starts = make(chan struct{})
	)
	for range 3 {
		wg.Go(func() {
			<-starts
			seeded, err := s.Seed(t.Context())
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			}
			if seeded {
				wrote++
			}
		})
	}
	close(starts)
	wg.Wait()
	if len(errs) > 0 || wrote != 1 {
		t.Fatalf("%d seeds wrote, errors %v; want exactly one and none", wrote, errs)
	}
	types, err := s.Shops().ShopTypes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, typ := range types {
		if seen[typ.Name] {
			t.Fatalf("type %s seeded twice", typ.Name)
		}
		seen[typ.Name] = true
	}
}

func pageThroughShops(t *testing.T, shops *entstore.Shops, filter domain.ShopFilter) []domain.Shop {
	t.Helper()
	var out []domain.Shop
	after := int64(0)
	for {
		page, err := shops.Shops(t.Context(), filter, domain.Page{First: 20, After: after})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > 20 {
			out = append(out, page[:20]...)
			after = page[19].ID
			continue
		}
		return append(out, page...)
	}
}
