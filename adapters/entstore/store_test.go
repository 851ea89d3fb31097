package entstore_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

func TestSQLite(t *testing.T) {
	t.Parallel()
	runCases(t, openSQLite, storeCases)
}

func TestPostgres(t *testing.T) {
	t.Parallel()
	testsupport.Require(t, testsupport.EnvPostgres) // skip once, not once per case
	runCases(t, openPostgres, storeCases)
}

func TestSQLiteInMemory(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"sqlite::memory:", "sqlite://:memory:"} {
		t.Run(u, func(t *testing.T) {
			t.Parallel()
			s := openMigrated(t, u)
			shops := s.Shops()
			typ, err := shops.CreateShopType(t.Context(), domain.ShopType{Name: "美食", Sort: 1})
			if err != nil {
				t.Fatal(err)
			}
			// The schema and the row must still be there on the next statement: the
			// in-memory database lives in its one connection.
			types, err := shops.ShopTypes(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(types) != 1 || types[0].ID != typ.ID {
				t.Fatalf("types = %+v, want the one created", types)
			}
		})
	}
}

func openMigrated(t *testing.T, url string) *entstore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := entstore.Open(ctx, url)
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return s
}

// runSuite is the contract every backend of the store must meet. Each subtest gets a
// database of its own.
// openSQLite opens a migrated store on a fresh SQLite file.
func openSQLite(t *testing.T) *entstore.Store {
	return openMigrated(t, "sqlite://"+filepath.ToSlash(filepath.Join(t.TempDir(), "data", "dealspot.db")))
}

// openPostgres opens a migrated store on a fresh PostgreSQL database.
func openPostgres(t *testing.T) *entstore.Store { return openMigrated(t, testsupport.PostgresURL(t)) }

// everyStore names the stores a test runs on, by their opener.
var everyStore = map[string]func(t *testing.T) *entstore.Store{"sqlite": openSQLite, "postgres": openPostgres}

// storeCase is one case of a suite that every store must pass.
type storeCase struct {
	name string
	run  func(t *testing.T, s *entstore.Store)
}

// runCases runs the cases in parallel, each on a store of its own.
func runCases(t *testing.T, openStore func(t *testing.T) *entstore.Store, cases []storeCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, openStore(t))
		})
	}
}

var storeCases = []storeCase{
	{"ping and dialect", testPing},
	{"shop types are ordered by sort then id", testShopTypes},
	{"shop is created and read back", testShopCreateRead},
	{"shops page by id with type and name filters", testShopPaging},
	{"second order of one user for one voucher is a conflict", testOrderUnique},
	{"concurrent orders of one user for one voucher: exactly one wins", testOrderUniqueConcurrent},
	{"migration is idempotent and keeps data", testMigrateIdempotent},
	{"seed fills an empty database once", testSeed},
	{"concurrent seeds write once", testSeedConcurrent},
	{"users are created, found and given roles", testUsers},
	{"flash-sale voucher is written with its sale and read back", testFlashSaleVoucher},
	{"voucher input is checked", testVoucherInput},
	{"a claim whose order id is another user's order is not created", testClaimWithTakenOrderID},
}

func testPing(t *testing.T, s *entstore.Store) {
	if err := s.Ping(t.Context()); err != nil {
		t.Fatal(err)
	}
	if d := s.Dialect(); d != "sqlite3" && d != "postgres" {
		t.Fatalf("Dialect() = %q", d)
	}
	if s.Client() == nil {
		t.Fatal("Client() = nil")
	}
}

func testShopTypes(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	shops := s.Shops()
	for _, st := range []domain.ShopType{
		{Name: "c", Sort: 2}, {Name: "a", Sort: 1}, {Name: "d", Sort: 2}, {Name: "b", Sort: 1},
	} {
		if _, err := shops.CreateShopType(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	types, err := shops.ShopTypes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, st := range types {
		names = append(names, st.Name)
	}
	if got, want := strings.Join(names, ","), "a,b,c,d"; got != want {
		t.Fatalf("order = %s, want %s", got, want)
	}
}

func testShopCreateRead(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	shops := s.Shops()
	typ := mustShopType(t, s, "美食")
	in := domain.Shop{
		Name: "103茶餐厅", TypeID: typ.ID, Images: "/a.jpg,/b.jpg", Area: "大关",
		Address: "金华路锦昌文华苑29号", Longitude: 120.149192, Latitude: 30.316078,
		AvgPrice: 8000, Sold: 4215, Comments: 3035, Score: 37, OpenHours: "10:00-22:00",
	}
	created, err := shops.CreateShop(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if created.ID <= 0 || created.CreatedAt.IsZero() || created.UpdatedAt.IsZero() {
		t.Fatalf("created = %+v, want id and times", created)
	}
	got, err := shops.Shop(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.ID, want.CreatedAt, want.UpdatedAt = created.ID, got.CreatedAt, got.UpdatedAt
	if got != want {
		t.Fatalf("read back\n got %+v\nwant %+v", got, want)
	}
	if _, err := shops.Shop(ctx, created.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing shop: err = %v, want NOT_FOUND", err)
	}
	in.TypeID = typ.ID + 1000
	if _, err := shops.CreateShop(ctx, in); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("unknown type: err = %v, want BAD_USER_INPUT", err)
	}
}

func testShopPaging(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	shops := s.Shops()
	food, ktv := mustShopType(t, s, "美食"), mustShopType(t, s, "KTV")
	names := []struct {
		name string
		typ  int64
	}{
		{"Blue Cafe", food.ID}, {"海底捞火锅(水晶城店)", food.ID}, {"INLOVE KTV", ktv.ID},
		{"blue lagoon bar", ktv.ID}, {"外婆家(湖滨店)", food.ID}, {"100% Noodles", food.ID},
		{"海底捞火锅(万达店)", food.ID},
	}
	var ids []int64
	for _, n := range names {
		sh, err := shops.CreateShop(ctx, domain.Shop{Name: n.name, TypeID: n.typ, Longitude: 120.15, Latitude: 30.3})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sh.ID)
	}

	tests := []struct {
		name   string
		filter domain.ShopFilter
		want   []int64
	}{
		{"all", domain.ShopFilter{}, ids},
		{"by type", domain.ShopFilter{TypeID: food.ID}, []int64{ids[0], ids[1], ids[4], ids[5], ids[6]}},
		{"by name, any case", domain.ShopFilter{Name: "BLUE"}, []int64{ids[0], ids[3]}},
		{"by name and type", domain.ShopFilter{Name: "blue", TypeID: ktv.ID}, []int64{ids[3]}},
		{"by chinese name", domain.ShopFilter{Name: "海底捞"}, []int64{ids[1], ids[6]}},
		{"percent sign is literal", domain.ShopFilter{Name: "100%"}, []int64{ids[5]}},
		{"no match", domain.ShopFilter{Name: "nothing like it"}, nil},
		{"unknown type", domain.ShopFilter{TypeID: ktv.ID + 1000}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range []int{1, 2, 3, 10} {
				got := pageThrough(t, shops, tc.filter, size)
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Fatalf("page size %d: ids = %v, want %v", size, got, tc.want)
				}
			}
		})
	}

	t.Run("a page holds First+1 rows when more follow", func(t *testing.T) {
		got, err := shops.Shops(ctx, domain.ShopFilter{}, domain.Page{First: 3, After: ids[1]})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 4 || got[0].ID != ids[2] || got[3].ID != ids[5] {
			t.Fatalf("got %d rows starting %v, want 4 rows %v…%v", len(got), got, ids[2], ids[5])
		}
		got, err = shops.Shops(ctx, domain.ShopFilter{}, domain.Page{First: 3, After: ids[4]})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 {
			t.Fatalf("last page: got %d rows, want 2", len(got))
		}
	})
}

// pageThrough collects the ids of every shop matching filter, size at a time, checking
// the First+1 contract on the way.
func pageThrough(t *testing.T, shops *entstore.Shops, filter domain.ShopFilter, size int) []int64 {
	t.Helper()
	var ids []int64
	after := int64(0)
	for range 100 {
		page, err := shops.Shops(t.Context(), filter, domain.Page{First: size, After: after})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > size+1 {
			t.Fatalf("page of %d has %d rows", size, len(page))
		}
		more := len(page) > size
		if more {
			page = page[:size]
		}
		for _, sh := range page {
			if sh.ID <= after {
				t.Fatalf("id %d not after %d", sh.ID, after)
			}
			after = sh.ID
			ids = append(ids, sh.ID)
		}
		if !more {
			return ids
		}
	}
	t.Fatal("paging does not end")
	return nil
}

func testOrderUnique(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	orders := s.Orders()
	first := domain.VoucherOrder{ID: 1001, UserID: 7, VoucherID: 3, Status: domain.OrderCreated}
	if err := orders.CreateOrder(ctx, first); err != nil {
		t.Fatal(err)
	}
	dup := domain.VoucherOrder{ID: 1002, UserID: 7, VoucherID: 3, Status: domain.OrderCreated}
	if err := orders.CreateOrder(ctx, dup); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("same user and voucher: err = %v, want CONFLICT", err)
	}
	other := domain.VoucherOrder{ID: 1003, UserID: 8, VoucherID: 3, Status: domain.OrderCreated}
	if err := orders.CreateOrder(ctx, other); err != nil {
		t.Fatalf("another user: %v", err)
	}
	otherVoucher := domain.VoucherOrder{ID: 1004, UserID: 7, VoucherID: 4}
	if err := orders.CreateOrder(ctx, otherVoucher); err != nil {
		t.Fatalf("another voucher: %v", err)
	}
	reusedID := domain.VoucherOrder{ID: 1001, UserID: 9, VoucherID: 3}
	if err := orders.CreateOrder(ctx, reusedID); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("reused id: err = %v, want CONFLICT", err)
	}

	got, err := orders.Order(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != first.ID || got.UserID != 7 || got.VoucherID != 3 || got.Status != domain.OrderCreated ||
		got.CreatedAt.IsZero() || got.PayTime != nil || got.UseTime != nil || got.RefundTime != nil {
		t.Fatalf("order = %+v", got)
	}
	if got, err := orders.Order(ctx, otherVoucher.ID); err != nil || got.Status != domain.OrderCreated {
		t.Fatalf("default status: %+v, %v", got, err)
	}
	if _, err := orders.Order(ctx, 1002); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("rejected order: err = %v, want NOT_FOUND", err)
	}

	paid := time.Now().Add(-time.Minute).Truncate(time.Microsecond)
	withTimes := domain.VoucherOrder{ID: 1005, UserID: 10, VoucherID: 3, Status: domain.OrderPaid, PayTime: &paid}
	if err := orders.CreateOrder(ctx, withTimes); err != nil {
		t.Fatal(err)
	}
	if got, err := orders.Order(ctx, withTimes.ID); err != nil || got.PayTime == nil || !got.PayTime.Equal(paid) {
		t.Fatalf("pay time: %+v, %v", got, err)
	}
	bad := domain.VoucherOrder{ID: 1006, UserID: 11, VoucherID: 3, Status: "LOST"}
	if err := orders.CreateOrder(ctx, bad); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("unknown status: err = %v, want BAD_USER_INPUT", err)
	}
}

func testOrderUniqueConcurrent(t *testing.T, s *entstore.Store) {
	const n = 8
	var (
		wg                   sync.WaitGroup
		mu                   sync.Mutex
		won, conflicts, fail int
		failures             []error
	)
	for i := range n {
		wg.Go(func() {
			err := s.Orders().CreateOrder(t.Context(), domain.VoucherOrder{ID: int64(2000 + i), UserID: 1, VoucherID: 1})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.Is(err, domain.ErrConflict):
				conflicts++
			default:
				fail++
				failures = append(failures, err)
			}
		})
	}
	wg.Wait()
	if won != 1 || conflicts != n-1 {
		t.Fatalf("won %d, conflicts %d, other errors %d %v; want 1 and %d", won, conflicts, fail, failures, n-1)
	}
}

func testMigrateIdempotent(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	typ := mustShopType(t, s, "KTV")
	sh, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "开乐迪KTV", TypeID: typ.ID, Longitude: 120.149, Latitude: 30.324})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("migrate again: %v", err)
		}
	}
	got, err := s.Shops().Shop(ctx, sh.ID)
	if err != nil || got.Name != sh.Name {
		t.Fatalf("after migrations: %+v, %v", got, err)
	}
	if _, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "second", TypeID: typ.ID}); err != nil {
		t.Fatalf("write after migrations: %v", err)
	}
}

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

func testUsers(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	users := s.Users()
	alice, err := users.CreateUser(ctx, domain.User{Phone: "13800000001", NickName: "小鱼同学", Icon: "/icons/1.png"})
	if err != nil {
		t.Fatal(err)
	}
	if alice.ID <= 0 || alice.Role != domain.RoleUser || alice.Blocked || alice.NickName != "小鱼同学" {
		t.Fatalf("created %+v", alice)
	}
	bob, err := users.CreateUser(ctx, domain.User{Phone: "13800000002"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(bob.NickName, "user_") || len(bob.NickName) != len("user_")+10 {
		t.Fatalf("default nickname %q, want user_ and 10 characters", bob.NickName)
	}
	if _, err := users.CreateUser(ctx, domain.User{Phone: "13800000001"}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("duplicate phone: err = %v, want CONFLICT", err)
	}

	byPhone, err := users.UserByPhone(ctx, "13800000001")
	if err != nil || byPhone.ID != alice.ID || byPhone.Icon != "/icons/1.png" {
		t.Fatalf("by phone: %+v, %v", byPhone, err)
	}
	if _, err := users.UserByPhone(ctx, "13800009999"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown phone: err = %v, want NOT_FOUND", err)
	}
	byID, err := users.User(ctx, bob.ID)
	if err != nil || byID.Phone != bob.Phone {
		t.Fatalf("by id: %+v, %v", byID, err)
	}
	if _, err := users.User(ctx, bob.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown id: err = %v, want NOT_FOUND", err)
	}

	list, err := users.UsersByIDs(ctx, []int64{bob.ID, bob.ID + 1000, alice.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != bob.ID || list[1].ID != alice.ID {
		t.Fatalf("by ids = %+v, want bob then alice", list)
	}

	admin, err := users.SetRole(ctx, "13800000001", domain.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if admin.ID != alice.ID || admin.Role != domain.RoleAdmin || admin.NickName != "小鱼同学" {
		t.Fatalf("granted %+v, want alice as admin", admin)
	}
	if u, _ := users.User(ctx, alice.ID); u.Role != domain.RoleAdmin {
		t.Fatalf("stored role %s, want ADMIN", u.Role)
	}
	fresh, err := users.SetRole(ctx, "13800000003", domain.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.ID <= 0 || fresh.Role != domain.RoleAdmin || fresh.Phone != "13800000003" ||
		!strings.HasPrefix(fresh.NickName, "user_") || len(fresh.NickName) != 15 {
		t.Fatalf("created by grant: %+v", fresh)
	}
	back, err := users.SetRole(ctx, "13800000003", domain.RoleUser)
	if err != nil || back.ID != fresh.ID || back.Role != domain.RoleUser || back.NickName != fresh.NickName {
		t.Fatalf("revoke: %+v, %v", back, err)
	}
	if _, err := users.SetRole(ctx, "13800000003", "ROOT"); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("unknown role: err = %v, want BAD_USER_INPUT", err)
	}

	// By id, as the administrators' mutations change accounts.
	if u, err := users.SetRoleByID(ctx, bob.ID, domain.RoleAdmin); err != nil || u.ID != bob.ID || u.Role != domain.RoleAdmin {
		t.Fatalf("set role by id: %+v, %v", u, err)
	}
	if _, err := users.SetRoleByID(ctx, bob.ID+1000, domain.RoleAdmin); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("set role of an unknown id: err = %v, want NOT_FOUND", err)
	}
	if _, err := users.SetRoleByID(ctx, bob.ID, "ROOT"); !errors.Is(err, domain.ErrBadInput) {
		t.Fatalf("unknown role by id: err = %v, want BAD_USER_INPUT", err)
	}
	if u, err := users.SetBlockedByID(ctx, bob.ID, true); err != nil || !u.Blocked {
		t.Fatalf("block by id: %+v, %v", u, err)
	}
	if u, err := users.SetBlockedByID(ctx, bob.ID, false); err != nil || u.Blocked {
		t.Fatalf("unblock by id: %+v, %v", u, err)
	}
	if _, err := users.SetBlockedByID(ctx, bob.ID+1000, true); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("block an unknown id: err = %v, want NOT_FOUND", err)
	}
}

func testFlashSaleVoucher(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	typ := mustShopType(t, s, "美食")
	sh, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "103茶餐厅", TypeID: typ.ID, Longitude: 120.149192, Latitude: 30.316078})
	if err != nil {
		t.Fatal(err)
	}
	vouchers := s.Vouchers()
	normal, err := vouchers.CreateVoucher(ctx, domain.Voucher{
		ShopID: sh.ID, Title: "50元代金券", PayValue: 4750, ActualValue: 5000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if normal.Kind != domain.VoucherNormal || normal.Status != domain.VoucherOnSale || normal.FlashSale != nil {
		t.Fatalf("normal voucher %+v", normal)
	}

	begin := time.Now().Add(-time.Hour).Truncate(time.Microsecond)
	end := begin.Add(7 * 24 * time.Hour)
	in := domain.Voucher{
		ShopID: sh.ID, Title: "100元代金券", SubTitle: "周一至周日均可使用", Rules: "全场通用\n无需预约",
		PayValue: 8000, ActualValue: 10000,
		FlashSale: &domain.FlashSale{Stock: 100, BeginTime: begin, EndTime: end},
	}
	created, err := vouchers.CreateVoucher(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if created.ID <= normal.ID || created.Kind != domain.VoucherFlashSale || created.FlashSale == nil ||
		created.FlashSale.VoucherID != created.ID {
		t.Fatalf("created %+v", created)
	}

	got, err := vouchers.Voucher(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkFlashSale(t, got, created.ID, begin, end)
	if got.Title != in.Title || got.SubTitle != in.SubTitle || got.Rules != in.Rules ||
		got.PayValue != 8000 || got.ActualValue != 10000 || got.ShopID != sh.ID {
		t.Fatalf("read back %+v", got)
	}

	list, err := vouchers.VouchersOfShop(ctx, sh.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != normal.ID || list[0].FlashSale != nil {
		t.Fatalf("vouchers of shop = %+v", list)
	}
	checkFlashSale(t, list[1], created.ID, begin, end)

	if _, err := vouchers.Voucher(ctx, created.ID+1000); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("missing voucher: err = %v, want NOT_FOUND", err)
	}
	if other, err := vouchers.VouchersOfShop(ctx, sh.ID+1000); err != nil || len(other) != 0 {
		t.Fatalf("vouchers of unknown shop = %v, %v", other, err)
	}
}

func checkFlashSale(t *testing.T, v domain.Voucher, id int64, begin, end time.Time) {
	t.Helper()
	fs := v.FlashSale
	if v.ID != id || v.Kind != domain.VoucherFlashSale || fs == nil {
		t.Fatalf("voucher %+v, want flash sale %d", v, id)
	}
	if fs.VoucherID != id || fs.Stock != 100 || !fs.BeginTime.Equal(begin) || !fs.EndTime.Equal(end) {
		t.Fatalf("flash sale %+v, want stock 100 from %v to %v", *fs, begin, end)
	}
}

func testVoucherInput(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	typ := mustShopType(t, s, "美食")
	sh, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "外婆家", TypeID: typ.ID})
	if err != nil {
		t.Fatal(err)
	}
	window := &domain.FlashSale{Stock: 10, BeginTime: time.Now(), EndTime: time.Now().Add(time.Hour)}
	tests := []struct {
		name string
		in   domain.Voucher
	}{
		{"flash-sale kind without a sale", domain.Voucher{ShopID: sh.ID, Title: "t", Kind: domain.VoucherFlashSale}},
		{"normal kind with a sale", domain.Voucher{ShopID: sh.ID, Title: "t", Kind: domain.VoucherNormal, FlashSale: window}},
		{"unknown kind", domain.Voucher{ShopID: sh.ID, Title: "t", Kind: "GIFT"}},
		{"unknown status", domain.Voucher{ShopID: sh.ID, Title: "t", Status: "HIDDEN"}},
		{"unknown shop", domain.Voucher{ShopID: sh.ID + 1000, Title: "t"}},
		{"negative stock", domain.Voucher{ShopID: sh.ID, Title: "t", FlashSale: &domain.FlashSale{Stock: -1}}},
		{"empty title", domain.Voucher{ShopID: sh.ID}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.Vouchers().CreateVoucher(ctx, tc.in); !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("err = %v, want BAD_USER_INPUT", err)
			}
		})
	}
	// The failed flash sale must not leave its voucher behind.
	list, err := s.Vouchers().VouchersOfShop(ctx, sh.ID)
	if err != nil || len(list) != 0 {
		t.Fatalf("vouchers after failed writes = %+v, %v; want none", list, err)
	}
}

func mustShopType(t *testing.T, s *entstore.Store, name string) domain.ShopType {
	t.Helper()
	typ, err := s.Shops().CreateShopType(t.Context(), domain.ShopType{Name: name, Icon: "/types/x.png", Sort: 1})
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func TestSQLiteFileSettings(t *testing.T) {
	t.Parallel()
	s := openMigrated(t, "sqlite://"+filepath.ToSlash(filepath.Join(t.TempDir(), "nested", "dir", "dealspot.db")))
	for pragma, want := range map[string]string{"journal_mode": "wal", "foreign_keys": "1", "busy_timeout": "5000"} {
		var got string
		if err := s.DB().QueryRowContext(t.Context(), "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

func TestOpenRefusesWhatItCannotUse(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, u := range []string{
		"mysql://root@localhost/dealspot",
		"postgres://nobody@127.0.0.1:1/dealspot?sslmode=disable&connect_timeout=5",
	} {
		if s, err := entstore.Open(ctx, u); err == nil {
			_ = s.Close()
			t.Errorf("Open(%s) succeeded, want an error", u)
		}
	}
}

// An order id answered to two claims (ids repeated after Redis lost its counters) must not
// make the second claim CREATED: the row is the first claim's order.
func testClaimWithTakenOrderID(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	shop, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "shop", TypeID: mustShopType(t, s, "美食").ID, Longitude: 120.1, Latitude: 30.2})
	if err != nil {
		t.Fatal(err)
	}
	newSale := func() domain.Voucher {
		v, err := s.Vouchers().CreateVoucher(ctx, domain.Voucher{ShopID: shop.ID, Title: "sale", PayValue: 1, ActualValue: 2,
			Kind: domain.VoucherFlashSale, Status: domain.VoucherOnSale,
			FlashSale: &domain.FlashSale{Stock: 10, BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	sale, otherSale := newSale(), newSale()
	orders := s.Orders()
	first := domain.Claim{OrderID: 4242, UserID: 7, VoucherID: sale.ID, ClaimedAt: time.Now()}
	if res, err := orders.WriteClaims(ctx, []domain.Claim{first}); err != nil || len(res.Created) != 1 {
		t.Fatalf("first claim: %+v, %v", res, err)
	}
	sameUserOtherSale := domain.Claim{OrderID: first.OrderID, UserID: 7, VoucherID: otherSale.ID, ClaimedAt: time.Now()}
	for _, c := range []domain.Claim{
		{OrderID: first.OrderID, UserID: 8, VoucherID: sale.ID, ClaimedAt: time.Now()},
		sameUserOtherSale,
	} {
		res, err := orders.WriteClaims(ctx, []domain.Claim{c, first})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Created) != 1 || res.Created[0] != first {
			t.Fatalf("claim %+v with a taken id: created = %+v, want only the redelivered first claim", c, res.Created)
		}
		if len(res.IDTaken) != 1 || res.IDTaken[0] != c || len(res.Duplicate) != 0 || len(res.NoStock) != 0 {
			t.Fatalf("claim %+v with a taken id: result = %+v, want it in IDTaken", c, res)
		}
	}
	if got, err := orders.Order(ctx, first.OrderID); err != nil || got.UserID != 7 || got.VoucherID != sale.ID || got.Status != domain.OrderCreated {
		t.Fatalf("first order = %+v, %v", got, err)
	}
	for _, v := range []domain.Voucher{sale, otherSale} {
		want := int64(10)
		if v.ID == sale.ID {
			want = 9
		}
		if stock, err := orders.SaleStock(ctx, v.ID); err != nil || stock != want {
			t.Fatalf("stock of %d = %d, %v; want %d", v.ID, stock, err, want)
		}
	}
}
