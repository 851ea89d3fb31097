package shop_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/shop/shoptest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The shop use cases on the shoptest fakes, each held to the contract of the adapter it
// stands for.

// view is one view counted.
type view struct {
	userID   int64
	clientIP string
	shopID   int64
}

// views records the views counted (the port has no contract: counting never fails and
// shows nothing to its caller).
type views struct {
	mu   sync.Mutex
	seen []view
}

func (v *views) CountView(_ context.Context, userID int64, clientIP string, shopID int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.seen = append(v.seen, view{userID, clientIP, shopID})
}

func (v *views) counted() []view {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.seen)
}

// shops is the shop use cases on fresh fakes, and the fakes.
type shops struct {
	*shop.Commands
	*shop.Queries
	ops        *shop.Operations
	repo       *shoptest.MemShops
	geo        *shoptest.MemGeoIndex
	cache      *shoptest.MemShopCache
	views      *views
	food, ktv  int64
	hangzhou   [2]float64
	pageLimits domain.PageLimits
}

func newShops(t *testing.T) *shops {
	t.Helper()
	s := &shops{repo: shoptest.NewMemShops(), geo: shoptest.NewMemGeoIndex(), cache: shoptest.NewMemShopCache(), views: &views{},
		hangzhou: [2]float64{120.15, 30.25}, pageLimits: domain.PageLimits{Default: 2, Max: 5}}
	s.food = s.repo.CreateShopType(domain.ShopType{Name: "food", Sort: 1}).ID
	s.ktv = s.repo.CreateShopType(domain.ShopType{Name: "KTV", Sort: 2}).ID
	d := shop.Deps{Repo: s.repo, Geo: s.geo, Shops: s.cache, Types: shoptest.NewMemShopTypeCache(), Views: s.views}
	var err error
	if s.Commands, err = shop.NewCommands(d, s.cache); err != nil {
		t.Fatal(err)
	}
	if s.Queries, err = shop.NewQueries(d, s.pageLimits, shop.NearbyLimits{DefaultRadiusMeters: 1000, MaxRadiusMeters: 10_000, MaxDepth: 4}); err != nil {
		t.Fatal(err)
	}
	if s.ops, err = shop.NewOperations(d); err != nil {
		t.Fatal(err)
	}
	return s
}

func ptr[T any](v T) *T { return &v }

// input is a valid new shop of typeID, lonDelta degrees east of Hangzhou.
func (s *shops) input(name string, typeID int64, lonDelta float64) shop.ShopInput {
	return shop.ShopInput{Name: ptr(name), TypeID: ptr(typeID), Address: ptr("1 Lake Road"),
		Longitude: ptr(s.hangzhou[0] + lonDelta), Latitude: ptr(s.hangzhou[1])}
}

func (s *shops) create(t *testing.T, name string, typeID int64, lonDelta float64) domain.Shop {
	t.Helper()
	created, err := s.CreateShop(context.Background(), s.input(name, typeID, lonDelta))
	if err != nil {
		t.Fatalf("create shop %q: %v", name, err)
	}
	return created
}

func (s *shops) nearby(t *testing.T, q shop.NearbyQuery) shop.NearbyPage {
	t.Helper()
	q.Longitude, q.Latitude = s.hangzhou[0], s.hangzhou[1]
	page, err := s.Nearby(context.Background(), q)
	if err != nil {
		t.Fatalf("nearby %+v: %v", q, err)
	}
	return page
}

func nearbyIDs(p shop.NearbyPage) []int64 {
	var out []int64
	for _, n := range p.Shops {
		out = append(out, n.Shop.ID)
	}
	return out
}

func wantCode(t *testing.T, what string, err error, code domain.Code) {
	t.Helper()
	if domain.ErrorCode(err) != code {
		t.Fatalf("%s: %v, want %s", what, err, code)
	}
}

// A new shop is stored with its fields trimmed, indexed by its position, and any cached
// "not found" of its id dropped; a shop missing a required field or with a bad one is
// refused before anything is written.
func TestCreateShop(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	in := s.input("  Noodle House ", s.food, 0.001)
	in.AvgPrice, in.Score, in.OpenHours = ptr(int64(3500)), ptr(45), ptr("10:00-22:00")
	created, err := s.CreateShop(ctx, in)
	if err != nil || created.ID == 0 || created.Name != "Noodle House" || created.TypeID != s.food || created.AvgPrice != 3500 || created.Score != 45 {
		t.Fatalf("create: %+v, %v; want the shop with an id, its name trimmed", created, err)
	}
	if got := nearbyIDs(s.nearby(t, shop.NearbyQuery{TypeID: s.food})); !slices.Equal(got, []int64{created.ID}) {
		t.Fatalf("nearby food = %v, want the new shop", got)
	}
	if got := s.cache.Changed(); !slices.Equal(got, []int64{created.ID}) {
		t.Fatalf("cache told of %v, want the new shop", got)
	}

	for name, bad := range map[string]shop.ShopInput{
		"no name":          {TypeID: ptr(s.food), Address: ptr("x"), Longitude: ptr(1.0), Latitude: ptr(1.0)},
		"blank name":       s.input("   ", s.food, 0),
		"no coordinates":   {Name: ptr("x"), TypeID: ptr(s.food), Address: ptr("x")},
		"latitude too far": {Name: ptr("x"), TypeID: ptr(s.food), Address: ptr("x"), Longitude: ptr(1.0), Latitude: ptr(89.0)},
		"bad type id":      s.input("x", -1, 0),
		"unknown type":     s.input("x", 999, 0),
		"score above 50": func() shop.ShopInput {
			in := s.input("x", s.food, 0)
			in.Score = ptr(51)
			return in
		}(),
		"negative price": func() shop.ShopInput {
			in := s.input("x", s.food, 0)
			in.AvgPrice = ptr(int64(-1))
			return in
		}(),
	} {
		_, err := s.CreateShop(ctx, bad)
		wantCode(t, name, err, domain.CodeBadUserInput)
	}
	if positions, _ := s.repo.ShopPositions(ctx); len(positions) != 1 {
		t.Fatalf("%d shops stored, want only the valid one", len(positions))
	}
}

// An update changes the given fields only, moves the shop in the index (out of its old
// type's) and drops cached copies; an unknown shop is NOT_FOUND.
func TestUpdateShop(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	admin := domain.Actor{UserID: 1, Role: domain.RoleAdmin}
	old := s.create(t, "Noodle House", s.food, 0.001)
	if _, _, err := s.Lookup(ctx, old.ID); err != nil { // cache it
		t.Fatal(err)
	}
	got, err := s.UpdateShop(ctx, admin, old.ID, shop.ShopInput{Name: ptr("Karaoke"), TypeID: ptr(s.ktv)})
	if err != nil || got.Name != "Karaoke" || got.TypeID != s.ktv || got.Address != old.Address || got.Longitude != old.Longitude {
		t.Fatalf("update: %+v, %v; want the new name and type, the rest as it was", got, err)
	}
	if cached, found, err := s.Lookup(ctx, old.ID); err != nil || !found || cached.Name != "Karaoke" {
		t.Fatalf("lookup after the update = %+v (found %v), %v; want the updated shop, not the cached copy", cached, found, err)
	}
	if ids := nearbyIDs(s.nearby(t, shop.NearbyQuery{TypeID: s.food})); len(ids) != 0 {
		t.Fatalf("nearby food = %v after the shop became KTV, want none", ids)
	}
	if ids := nearbyIDs(s.nearby(t, shop.NearbyQuery{TypeID: s.ktv})); !slices.Equal(ids, []int64{old.ID}) {
		t.Fatalf("nearby KTV = %v, want the shop", ids)
	}
	_, err = s.UpdateShop(ctx, admin, old.ID, shop.ShopInput{Latitude: ptr(100.0)})
	wantCode(t, "latitude out of range", err, domain.CodeBadUserInput)
	_, err = s.UpdateShop(ctx, admin, 999, shop.ShopInput{Name: ptr("x")})
	wantCode(t, "unknown shop", err, domain.CodeNotFound)
	_, err = s.UpdateShop(ctx, admin, 0, shop.ShopInput{Name: ptr("x")})
	wantCode(t, "shop id 0", err, domain.CodeNotFound)
	if stored, _ := s.repo.Shop(ctx, old.ID); stored.Name != "Karaoke" || stored.Latitude != old.Latitude {
		t.Fatalf("after refused updates the shop is %+v", stored)
	}
}

// A shop is edited by its merchant or an ADMIN; only an ADMIN sets the score.
func TestUpdateShopByItsMerchant(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	mine, theirs := s.create(t, "Mine", s.food, 0), s.create(t, "Theirs", s.food, 0.001)
	s.repo.AddUser(7)
	s.repo.AddUser(8)
	for id, owner := range map[int64]int64{mine.ID: 7, theirs.ID: 8} {
		if _, _, err := s.repo.SetShopOwner(ctx, id, owner); err != nil {
			t.Fatal(err)
		}
	}
	merchant := domain.Actor{UserID: 7, Role: domain.RoleMerchant}
	got, err := s.UpdateShop(ctx, merchant, mine.ID, shop.ShopInput{Name: ptr("Still mine"), OpenHours: ptr("09:00-21:00")})
	if err != nil || got.Name != "Still mine" || got.OwnerID != 7 {
		t.Fatalf("the merchant's update: %+v, %v", got, err)
	}
	for name, tc := range map[string]struct {
		a    domain.Actor
		id   int64
		in   shop.ShopInput
		want domain.Code
	}{
		"another's shop":             {merchant, theirs.ID, shop.ShopInput{Name: ptr("x")}, domain.CodeForbidden},
		"the score, by its merchant": {merchant, mine.ID, shop.ShopInput{Score: ptr(50)}, domain.CodeForbidden},
		"a USER who owns the id":     {domain.Actor{UserID: 7, Role: domain.RoleUser}, mine.ID, shop.ShopInput{Name: ptr("x")}, domain.CodeForbidden},
		"anonymous":                  {domain.Actor{}, mine.ID, shop.ShopInput{Name: ptr("x")}, domain.CodeUnauthenticated},
		"an unknown shop":            {merchant, 999, shop.ShopInput{Name: ptr("x")}, domain.CodeNotFound},
	} {
		_, err := s.UpdateShop(ctx, tc.a, tc.id, tc.in)
		wantCode(t, name, err, tc.want)
	}
	if got, err := s.UpdateShop(ctx, domain.Actor{UserID: 1, Role: domain.RoleAdmin}, theirs.ID, shop.ShopInput{Score: ptr(42)}); err != nil || got.Score != 42 {
		t.Fatalf("an ADMIN's update of the score: %+v, %v", got, err)
	}
	if stored, _ := s.repo.Shop(ctx, theirs.ID); stored.Name != "Theirs" {
		t.Fatalf("another's shop after the refused update: %+v", stored)
	}
}

// A merchant lists the shops they run.
func TestMyShops(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	s.repo.AddUser(7)
	var want []int64
	for i := range 3 {
		sh := s.create(t, fmt.Sprint("shop ", i), s.food, float64(i)/1000)
		if i < 2 {
			if _, _, err := s.repo.SetShopOwner(ctx, sh.ID, 7); err != nil {
				t.Fatal(err)
			}
			want = append(want, sh.ID)
		}
	}
	got, err := s.MyShops(ctx, domain.Actor{UserID: 7, Role: domain.RoleMerchant})
	if ids := shopIDs(got); err != nil || !slices.Equal(ids, want) {
		t.Fatalf("MyShops = %v, %v; want %v", ids, err, want)
	}
	if got, err := s.MyShops(ctx, domain.Actor{UserID: 1, Role: domain.RoleAdmin}); err != nil || len(got) != 0 {
		t.Fatalf("an ADMIN without shops: %v, %v", got, err)
	}
	_, err = s.MyShops(ctx, domain.Actor{UserID: 7, Role: domain.RoleUser})
	wantCode(t, "a USER", err, domain.CodeForbidden)
	_, err = s.MyShops(ctx, domain.Actor{})
	wantCode(t, "anonymous", err, domain.CodeUnauthenticated)
}

func shopIDs(shops []domain.Shop) []int64 {
	ids := make([]int64, len(shops))
	for i, s := range shops {
		ids[i] = s.ID
	}
	return ids
}

// Reading a shop's page counts the viewer; a lookup and a batch read do not. Unknown
// and impossible ids are not found, without an error.
func TestReadShops(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	a, b := s.create(t, "A", s.food, 0.001), s.create(t, "B", s.ktv, 0.002)
	got, found, err := s.Shop(ctx, shop.Viewer{UserID: 7, ClientIP: "203.0.113.9"}, a.ID)
	if err != nil || !found || got.ID != a.ID {
		t.Fatalf("shop %d = %+v (found %v), %v", a.ID, got, found, err)
	}
	if got := s.views.counted(); !slices.Equal(got, []view{{7, "203.0.113.9", a.ID}}) {
		t.Fatalf("views counted %+v, want user 7's of shop %d", got, a.ID)
	}
	for _, id := range []int64{999, 0, -1} {
		if got, found, err := s.Shop(ctx, shop.Viewer{}, id); err != nil || found {
			t.Fatalf("shop %d = %+v (found %v), %v; want not found", id, got, found, err)
		}
	}
	if _, _, err := s.Lookup(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	byID, err := s.ShopsByIDs(ctx, []int64{b.ID, 999, a.ID, 0})
	if err != nil || len(byID) != 2 || byID[a.ID].Name != "A" || byID[b.ID].Name != "B" {
		t.Fatalf("shops by ids = %+v, %v; want A and B", byID, err)
	}
	if n := len(s.views.counted()); n != 1 {
		t.Fatalf("%d views counted after lookups, want still 1", n)
	}
	if !shop.ValidShopID("12") || shop.ValidShopID("0") || shop.ValidShopID("x") {
		t.Fatal("ValidShopID tells ids wrongly")
	}
}

// Shop types come from the cache, by sort; ShopTypesByID maps them.
func TestShopTypes(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	types, err := s.ShopTypes(ctx)
	if err != nil || len(types) != 2 || types[0].ID != s.food || types[1].ID != s.ktv {
		t.Fatalf("shop types = %+v, %v; want food, KTV", types, err)
	}
	s.repo.CreateShopType(domain.ShopType{Name: "hair", Sort: 0})
	if again, _ := s.ShopTypes(ctx); len(again) != 2 {
		t.Fatalf("shop types = %+v, want the cached list", again)
	}
	byID, err := s.ShopTypesByID(ctx)
	if err != nil || byID[s.ktv].Name != "KTV" || len(byID) != 2 {
		t.Fatalf("shop types by id = %+v, %v", byID, err)
	}
}

// Shops page by id within the page limits, of one type. (Shops found by name are the
// search's, and its tests': internal/app/search.)
func TestShopsPages(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	var ids []int64
	for _, c := range []struct {
		name string
		typ  int64
	}{{"Tea One", s.food}, {"Tea Two", s.food}, {"Karaoke", s.ktv}, {"Tea Three", s.food}} {
		ids = append(ids, s.create(t, c.name, c.typ, 0).ID)
	}
	page, err := s.Shops(ctx, domain.ShopFilter{TypeID: s.food}, 0, 0)
	if err != nil || !page.HasNextPage || len(page.Shops) != 2 || page.Shops[0].ID != ids[0] || page.Shops[1].ID != ids[1] {
		t.Fatalf("first page = %+v, %v; want Tea One and Two (the default size) and more", page, err)
	}
	page, err = s.Shops(ctx, domain.ShopFilter{TypeID: s.food}, 2, ids[1])
	if err != nil || page.HasNextPage || len(page.Shops) != 1 || page.Shops[0].ID != ids[3] {
		t.Fatalf("second page = %+v, %v; want Tea Three, the last", page, err)
	}
	_, err = s.Shops(ctx, domain.ShopFilter{}, s.pageLimits.Max+1, 0)
	wantCode(t, "a page above the limit", err, domain.CodeBadUserInput)
	_, err = s.Shops(ctx, domain.ShopFilter{TypeID: -1}, 0, 0)
	wantCode(t, "a negative type", err, domain.CodeBadUserInput)
}

// Nearby pages through a type's shops by distance, nearest first, each once; a shop that
// moved to another type since it was indexed is left out; pages go no deeper than
// MaxDepth; bad input is refused.
func TestNearbyPages(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	var ids []int64
	for i, d := range []float64{0.004, 0.001, 0.003, 0.002} {
		ids = append(ids, s.create(t, "shop "+string(rune('A'+i)), s.food, d).ID)
	}
	s.create(t, "far", s.food, 0.05) // about 4.8 km east
	s.create(t, "other type", s.ktv, 0.001)
	// Nearest first: B (0.001), D, C, A.
	want := []int64{ids[1], ids[3], ids[2], ids[0]}
	first := s.nearby(t, shop.NearbyQuery{TypeID: s.food})
	if got := nearbyIDs(first); !slices.Equal(got, want[:2]) || !first.HasNextPage {
		t.Fatalf("first page = %v (more %v), want %v and more", got, first.HasNextPage, want[:2])
	}
	if first.Shops[0].DistanceMeters <= 0 || first.Shops[0].DistanceMeters >= first.Shops[1].DistanceMeters {
		t.Fatalf("distances %v, %v: want increasing", first.Shops[0].DistanceMeters, first.Shops[1].DistanceMeters)
	}
	last := first.Shops[1]
	after := &shop.NearbyCursor{DistanceMeters: last.DistanceMeters, ShopID: last.Shop.ID, Seen: 2}
	second := s.nearby(t, shop.NearbyQuery{TypeID: s.food, After: after})
	if got := nearbyIDs(second); !slices.Equal(got, want[2:]) || second.HasNextPage {
		t.Fatalf("second page = %v (more %v), want %v, the last", got, second.HasNextPage, want[2:])
	}
	// Without a type: the shops of every type, nearest first (the KTV beside B).
	if got := nearbyIDs(s.nearby(t, shop.NearbyQuery{First: 5})); len(got) != 5 || got[0] != ids[1] && got[1] != ids[1] || !slices.Contains(got, ids[0]) {
		t.Fatalf("any type within 5 km = %v, want the 4 near food shops and the KTV", got)
	}
	// The far shop is within a wider radius.
	if got := nearbyIDs(s.nearby(t, shop.NearbyQuery{TypeID: s.food, RadiusMeters: 10_000, First: 5})); len(got) != 5 {
		t.Fatalf("within 10 km = %v, want all 5 food shops", got)
	}
	// A shop whose type changed in the database (and its cached copies dropped, as
	// every change does) but not (yet) in the index is left out.
	if _, _, err := s.repo.UpdateShop(ctx, ids[1], func(x *domain.Shop) error { x.TypeID = s.ktv; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.cache.ShopChanged(ctx, ids[1]); err != nil {
		t.Fatal(err)
	}
	if got := nearbyIDs(s.nearby(t, shop.NearbyQuery{TypeID: s.food})); !slices.Equal(got, []int64{ids[3], ids[2]}) {
		t.Fatalf("after a type change = %v, want %v", got, []int64{ids[3], ids[2]})
	}

	for name, q := range map[string]shop.NearbyQuery{
		"negative type":     {TypeID: -1, Longitude: 120, Latitude: 30},
		"latitude too far":  {TypeID: s.food, Longitude: 120, Latitude: 86},
		"radius too wide":   {TypeID: s.food, Longitude: 120, Latitude: 30, RadiusMeters: 10_001},
		"negative radius":   {TypeID: s.food, Longitude: 120, Latitude: 30, RadiusMeters: -1},
		"page too large":    {TypeID: s.food, Longitude: 120, Latitude: 30, First: s.pageLimits.Max + 1},
		"a cursor not ours": {TypeID: s.food, Longitude: 120, Latitude: 30, After: &shop.NearbyCursor{ShopID: 1}},
		"beyond max depth":  {TypeID: s.food, Longitude: 120, Latitude: 30, After: &shop.NearbyCursor{ShopID: 1, Seen: 4}},
	} {
		_, err := s.Nearby(ctx, q)
		wantCode(t, name, err, domain.CodeBadUserInput)
	}
}

// The nearby index is rebuilt from the database's positions.
func TestRebuildNearbyIndex(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	a := s.create(t, "A", s.food, 0.001)
	// The index lost the shop, and holds one the database does not.
	if err := s.geo.Rebuild(ctx, []domain.ShopPosition{{ShopID: 999, TypeID: s.food, Longitude: s.hangzhou[0], Latitude: s.hangzhou[1]}}); err != nil {
		t.Fatal(err)
	}
	n, err := s.ops.RebuildNearbyIndex(ctx)
	if err != nil || n != 1 {
		t.Fatalf("rebuild: %d, %v; want 1 shop", n, err)
	}
	if got := nearbyIDs(s.nearby(t, shop.NearbyQuery{TypeID: s.food})); !slices.Equal(got, []int64{a.ID}) {
		t.Fatalf("nearby after the rebuild = %v, want %v", got, []int64{a.ID})
	}
}

// promoter makes users merchants and records whom it was asked to demote.
type promoter struct{ promoted, demoted []int64 }

func (p *promoter) PromoteToMerchant(_ context.Context, userID int64) (domain.User, error) {
	p.promoted = append(p.promoted, userID)
	return domain.User{ID: userID, Role: domain.RoleMerchant}, nil
}

func (p *promoter) DemoteIfNoShops(_ context.Context, userID int64) (domain.User, error) {
	p.demoted = append(p.demoted, userID)
	return domain.User{ID: userID, Role: domain.RoleUser}, nil
}

// Only an administrator sets a shop's owner, who becomes a merchant first; the cached
// shop is dropped.
func TestSetOwner(t *testing.T) {
	t.Parallel()
	s := newShops(t)
	ctx := context.Background()
	p := &promoter{}
	cmd, err := shop.NewSetOwner(s.repo, p, s.cache)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := shop.NewSetOwner(nil, p, nil); err == nil {
		t.Fatal("set owner without a store: no error")
	}
	a := s.create(t, "A", s.food, 0)
	s.repo.AddUser(7)
	admin := domain.Actor{UserID: 1, Role: domain.RoleAdmin}
	_, err = cmd.Handle(ctx, domain.Actor{}, a.ID, 7)
	wantCode(t, "anonymous", err, domain.CodeUnauthenticated)
	_, err = cmd.Handle(ctx, domain.Actor{UserID: 2, Role: domain.RoleMerchant}, a.ID, 7)
	wantCode(t, "a merchant", err, domain.CodeForbidden)
	_, err = cmd.Handle(ctx, admin, 999, 7)
	wantCode(t, "unknown shop", err, domain.CodeNotFound)
	_, err = cmd.Handle(ctx, admin, a.ID, 404)
	wantCode(t, "unknown user", err, domain.CodeNotFound)
	_, err = cmd.Handle(ctx, admin, a.ID, 0)
	wantCode(t, "user 0", err, domain.CodeNotFound)
	before := len(s.cache.Changed())
	got, err := cmd.Handle(ctx, admin, a.ID, 7)
	if err != nil || got.OwnerID != 7 {
		t.Fatalf("set owner: %+v, %v; want user 7 running the shop", got, err)
	}
	if !slices.Contains(p.promoted, 7) {
		t.Fatalf("promoted %v, want user 7 made a merchant", p.promoted)
	}
	if changed := s.cache.Changed(); len(changed) != before+1 || changed[len(changed)-1] != a.ID {
		t.Fatalf("cache told of %v, want the shop dropped", changed)
	}
	if len(p.demoted) != 0 {
		t.Fatalf("demoted %v for a shop that had no owner", p.demoted)
	}
	// Handing the shop over asks for the previous owner's demotion (kept when they run
	// another shop, which the roles decide); handing it to its owner again does not.
	s.repo.AddUser(8)
	if _, err := cmd.Handle(ctx, admin, a.ID, 7); err != nil || len(p.demoted) != 0 {
		t.Fatalf("the same owner again: %v, demoted %v", err, p.demoted)
	}
	if _, err := cmd.Handle(ctx, admin, a.ID, 8); err != nil || !slices.Equal(p.demoted, []int64{7}) {
		t.Fatalf("a new owner: %v, demoted %v; want user 7 asked for", err, p.demoted)
	}
}
