package service_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// storeBackends runs fn on the embedded defaults (SQLite, in-process Redis) and on
// PostgreSQL with a real Redis.
func storeBackends(t *testing.T, fn func(t *testing.T, env map[string]string)) {
	t.Helper()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"JWT_SECRET": testSecret, "DEALSPOT_DATA_DIR": t.TempDir(), "LOGIN_CODE_INTERVAL": "1ms"}
			if db == "postgres" {
				env["DATABASE_URL"] = testsupport.PostgresURL(t)
				env["REDIS_URL"] = testsupport.RedisURL(t)
			}
			fn(t, env)
		})
	}
}

// shopVoucherIDs lists the ids of a shop's vouchers.
func shopVoucherIDs(t *testing.T, c testsupport.GraphQLClient, shopID string) []string {
	t.Helper()
	var out struct{ Vouchers []struct{ ID string } }
	c.Do(t, `query($s: ID!) { vouchers(shopId: $s) { id } }`, map[string]any{"s": shopID}).Decode(t, &out)
	ids := make([]string, len(out.Vouchers))
	for i, v := range out.Vouchers {
		ids[i] = v.ID
	}
	return ids
}

type favShop struct {
	ID            string
	FavoritedByMe bool
	FavoriteCount int
}

func TestFavoriteShopsAndVouchersOverGraphQL(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		srv, _ := startService(t, env)
		anon := client(srv)
		a := as(srv, login(t, anon, "13700000601").AccessToken)
		b := as(srv, login(t, anon, "13700000602").AccessToken)
		const markShop = `mutation($s: ID!) { favoriteShop(shopId: $s) { id favoritedByMe favoriteCount } }`
		const unmarkShop = `mutation($s: ID!) { unfavoriteShop(shopId: $s) { id favoritedByMe favoriteCount } }`
		shopAs := func(c testsupport.GraphQLClient, mutation string) favShop {
			t.Helper()
			var out struct{ FavoriteShop, UnfavoriteShop *favShop }
			c.Do(t, mutation, map[string]any{"s": "2"}).Decode(t, &out)
			if out.FavoriteShop != nil {
				return *out.FavoriteShop
			}
			return *out.UnfavoriteShop
		}
		for i := range 2 { // idempotent
			if s := shopAs(a, markShop); s.ID != "2" || !s.FavoritedByMe || s.FavoriteCount != 1 {
				t.Fatalf("favoriteShop #%d = %+v; want favourited, count 1", i+1, s)
			}
		}
		if s := shopAs(b, markShop); !s.FavoritedByMe || s.FavoriteCount != 2 {
			t.Fatalf("favoriteShop by b = %+v; want favourited, count 2", s)
		}
		var seen struct{ Shop favShop }
		anon.Do(t, `{ shop(id: "2") { id favoritedByMe favoriteCount } }`, nil).Decode(t, &seen)
		if seen.Shop.FavoritedByMe || seen.Shop.FavoriteCount != 2 {
			t.Fatalf("shop 2 seen anonymously = %+v; want not favourited, count 2", seen.Shop)
		}
		for i := range 2 {
			if s := shopAs(a, unmarkShop); s.FavoritedByMe || s.FavoriteCount != 1 {
				t.Fatalf("unfavoriteShop #%d = %+v; want not favourited, count 1", i+1, s)
			}
		}

		voucher := shopVoucherIDs(t, anon, "1")[0]
		for i := range 2 {
			var out struct {
				FavoriteVoucher struct {
					ID            string
					FavoritedByMe bool
				}
			}
			a.Do(t, `mutation($v: ID!) { favoriteVoucher(voucherId: $v) { id favoritedByMe } }`, map[string]any{"v": voucher}).Decode(t, &out)
			if out.FavoriteVoucher.ID != voucher || !out.FavoriteVoucher.FavoritedByMe {
				t.Fatalf("favoriteVoucher #%d = %+v", i+1, out.FavoriteVoucher)
			}
		}
		var vs struct {
			Shop struct {
				Vouchers []struct {
					ID            string
					FavoritedByMe bool
				}
			}
		}
		b.Do(t, `{ shop(id: "1") { vouchers { id favoritedByMe } } }`, nil).Decode(t, &vs)
		for _, v := range vs.Shop.Vouchers {
			if v.FavoritedByMe {
				t.Fatalf("b sees a's favourite voucher %s as its own", v.ID)
			}
		}
		for i := range 2 {
			var out struct{ UnfavoriteVoucher struct{ FavoritedByMe bool } }
			a.Do(t, `mutation($v: ID!) { unfavoriteVoucher(voucherId: $v) { favoritedByMe } }`, map[string]any{"v": voucher}).Decode(t, &out)
			if out.UnfavoriteVoucher.FavoritedByMe {
				t.Fatalf("unfavoriteVoucher #%d left it favourited", i+1)
			}
		}

		wantCode(t, "favoriteShop anonymously", anon.Do(t, markShop, map[string]any{"s": "2"}), "UNAUTHENTICATED")
		wantCode(t, "favoriteShop of an unknown shop", a.Do(t, `mutation { favoriteShop(shopId: "999999") { id } }`, nil), "NOT_FOUND")
		wantCode(t, "favoriteVoucher of an unknown voucher", a.Do(t, `mutation { favoriteVoucher(voucherId: "999999") { id } }`, nil), "NOT_FOUND")
		wantCode(t, "myFavorites anonymously", anon.Do(t, `{ myFavorites { edges { cursor } } }`, nil), "UNAUTHENTICATED")
	})
}

type favoritePage struct {
	MyFavorites struct {
		Edges []struct {
			Cursor string
			Node   struct {
				ID        string
				CreatedAt string
				Target    struct {
					Typename string `json:"__typename"`
					ID       string
				}
				Shop    *struct{ ID string }
				Voucher *struct{ ID string }
			}
		}
		PageInfo struct {
			HasNextPage bool
			EndCursor   *string
		}
	}
}

const myFavoritesQuery = `query($after: String) { myFavorites(first: 2, after: $after) {
	edges { cursor node { id createdAt target { __typename ... on Shop { id } ... on Voucher { id } } shop { id } voucher { id } } }
	pageInfo { hasNextPage endCursor } } }`

// myFavorites pages newest first by a Relay cursor; each favourite names its shop or
// voucher through the union and the convenience fields. A user keeps at most
// FAVORITES_MAX_PER_USER favourites.
func TestMyFavoritesPagesAndTheLimit(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		env["FAVORITES_MAX_PER_USER"] = "5"
		srv, _ := startService(t, env)
		anon := client(srv)
		a := as(srv, login(t, anon, "13700000611").AccessToken)
		vouchers := shopVoucherIDs(t, anon, "1")
		type target struct{ kind, id string }
		marks := []target{{"Shop", "3"}, {"Voucher", vouchers[0]}, {"Shop", "1"}, {"Shop", "4"}, {"Voucher", vouchers[len(vouchers)-1]}}
		if marks[1] == marks[4] {
			t.Fatalf("shop 1 has one voucher only: %v", vouchers)
		}
		for _, m := range marks {
			field, arg := "favoriteShop", "shopId"
			if m.kind == "Voucher" {
				field, arg = "favoriteVoucher", "voucherId"
			}
			a.Do(t, fmt.Sprintf(`mutation($id: ID!) { %s(%s: $id) { id } }`, field, arg), map[string]any{"id": m.id}).Decode(t, &struct{}{})
		}
		var got []target
		var after any
		for pages := 0; ; pages++ {
			if pages > 3 {
				t.Fatal("myFavorites never ends")
			}
			var p favoritePage
			a.Do(t, myFavoritesQuery, map[string]any{"after": after}).Decode(t, &p)
			for _, e := range p.MyFavorites.Edges {
				n := e.Node
				got = append(got, target{n.Target.Typename, n.Target.ID})
				if (n.Shop == nil) == (n.Voucher == nil) || (n.Shop != nil && n.Shop.ID != n.Target.ID) || (n.Voucher != nil && n.Voucher.ID != n.Target.ID) || n.CreatedAt == "" {
					t.Fatalf("a favourite's fields disagree: %+v", n)
				}
			}
			if !p.MyFavorites.PageInfo.HasNextPage {
				break
			}
			after = *p.MyFavorites.PageInfo.EndCursor
		}
		want := slices.Clone(marks)
		slices.Reverse(want)
		if !slices.Equal(got, want) {
			t.Fatalf("myFavorites = %v; want newest first %v", got, want)
		}

		// The limit: a sixth is refused, one held already is fine, and one taken back
		// makes room.
		wantCode(t, "a sixth favourite", a.Do(t, `mutation { favoriteShop(shopId: "5") { id } }`, nil), "BAD_USER_INPUT")
		a.Do(t, `mutation { favoriteShop(shopId: "3") { id } }`, nil).Decode(t, &struct{}{})
		a.Do(t, `mutation { unfavoriteShop(shopId: "3") { id } }`, nil).Decode(t, &struct{}{})
		a.Do(t, `mutation { favoriteShop(shopId: "5") { id } }`, nil).Decode(t, &struct{}{})
		wantCode(t, "a bad cursor", a.Do(t, `{ myFavorites(after: "bm9wZQ") { edges { cursor } } }`, nil), "BAD_USER_INPUT")
	})
}

// statementsAs is statements (graph_statements_test.go) for a logged-in caller.
func statementsAs(t *testing.T, svc *service.Node, token, query string) (int64, json.RawMessage) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	var n atomic.Int64
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req = req.WithContext(entstore.WithStatementCounter(req.Context(), &n))
	rec := httptest.NewRecorder()
	svc.Handler.ServeHTTP(rec, req)
	var resp struct {
		Data   json.RawMessage
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || len(resp.Errors) > 0 || rec.Code != http.StatusOK {
		t.Fatalf("query answered %d: %s", rec.Code, rec.Body.String())
	}
	return n.Load(), resp.Data
}

// TestFavoriteFieldsCostConstantStatements: a page of shops with, for each, whether the
// caller favourited it and how many did, and each shop's vouchers with whether the
// caller favourited them, costs the same few statements for 10 shops as for 50: one
// for the shops' marks, one for their counts, one for the vouchers' marks.
func TestFavoriteFieldsCostConstantStatements(t *testing.T) {
	t.Parallel()
	srv, svc := startService(t, map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t), "JWT_SECRET": testSecret,
		"GRAPHQL_MAX_COMPLEXITY": "20000", "DATALOADER_WAIT": "50ms", // as in TestNotePageCostsConstantStatements
	})
	token := login(t, client(srv), "13700000621").AccessToken
	a := as(srv, token)
	for _, id := range []string{"1", "3", "7", "12", "30"} {
		a.Do(t, `mutation($s: ID!) { favoriteShop(shopId: $s) { id } }`, map[string]any{"s": id}).Decode(t, &struct{}{})
	}
	const bare = `{ shops(first: %d) { edges { node { id name vouchers { id title } } } } }`
	const withFavorites = `{ shops(first: %d) { edges { node { id name favoritedByMe favoriteCount vouchers { id title favoritedByMe } } } } }`
	statementsAs(t, svc, token, fmt.Sprintf(withFavorites, 50)) // warm the caches
	base, _ := statementsAs(t, svc, token, fmt.Sprintf(bare, 50))
	small, _ := statementsAs(t, svc, token, fmt.Sprintf(withFavorites, 10))
	large, data := statementsAs(t, svc, token, fmt.Sprintf(withFavorites, 50))
	t.Logf("statements: 50 shops without favourites %d; with them, 10 shops %d, 50 shops %d", base, small, large)
	var page struct {
		Shops struct{ Edges []struct{ Node favShop } }
	}
	if err := json.Unmarshal(data, &page); err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, e := range page.Shops.Edges {
		if e.Node.FavoritedByMe {
			marked++
			if e.Node.FavoriteCount != 1 {
				t.Errorf("shop %s: favourited, count %d; want 1", e.Node.ID, e.Node.FavoriteCount)
			}
		}
	}
	if marked != 5 {
		t.Errorf("%d of the 50 shops favourited; want 5", marked)
	}
	if small > base+3 || large > base+3 {
		t.Errorf("with the favourite fields 10 shops cost %d statements, 50 cost %d: want at most %d each (3 more than without)", small, large, base+3)
	}
}
