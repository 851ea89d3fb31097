package service_test

import (
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// The deals' tests place their shops around a point where the demo data has none.
const (
	dealsLon, dealsLat = 100.0, 10.0
	// metersPerDegreeLon is a degree of longitude at latitude 10, in meters (haversine).
	metersPerDegreeLon = 109503.8
)

type dealsFixture struct {
	srv   string
	admin testsupport.GraphQLClient
}

// createShopEast creates a shop meters east of the point with score.
func (f dealsFixture) createShopEast(t *testing.T, meters float64, score int) string {
	t.Helper()
	var out struct{ CreateShop struct{ ID string } }
	f.admin.Do(t, `mutation($in: CreateShopInput!) { createShop(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"name": "deal shop", "typeId": "1", "address": "east", "longitude": dealsLon + meters/metersPerDegreeLon, "latitude": dealsLat, "score": score,
	}}).Decode(t, &out)
	return out.CreateShop.ID
}

// createSale creates a flash sale of shop from begin to end (from now).
func createSale(t testing.TB, c testsupport.GraphQLClient, shopID string, pay, stock int, begin, end time.Duration) string {
	t.Helper()
	now := time.Now()
	var out struct{ CreateFlashSale struct{ ID string } }
	c.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": shopID, "title": "sale", "payValue": pay, "actualValue": 1000, "stock": stock,
		"beginTime": now.Add(begin).Format(time.RFC3339Nano), "endTime": now.Add(end).Format(time.RFC3339Nano),
	}}).Decode(t, &out)
	return out.CreateFlashSale.ID
}

func createVoucher(t *testing.T, c testsupport.GraphQLClient, shopID string, pay int) string {
	t.Helper()
	var out struct{ CreateVoucher struct{ ID string } }
	c.Do(t, `mutation($in: CreateVoucherInput!) { createVoucher(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": shopID, "title": "voucher", "payValue": pay, "actualValue": 1000,
	}}).Decode(t, &out)
	return out.CreateVoucher.ID
}

type deal struct {
	Voucher        struct{ ID, ShopID string }
	Shop           struct{ ID string }
	DistanceMeters int
	Discount       int
	BeginsAt       *time.Time
	EndsAt         *time.Time
	SecondsLeft    *int
	RemainingStock *int
	Live           bool
}

type dealsPage struct {
	DealsNearby struct {
		Edges []struct {
			Cursor string
			Node   deal
		}
		PageInfo struct {
			HasNextPage bool
			EndCursor   *string
		}
	}
}

const dealsQuery = `query($lon: Float!, $lat: Float!, $radius: Int, $sort: DealSort, $first: Int, $after: String) {
	dealsNearby(longitude: $lon, latitude: $lat, radius: $radius, sort: $sort, first: $first, after: $after) {
		edges { cursor node { voucher { id shopId } shop { id } distanceMeters discount beginsAt endsAt secondsLeft remainingStock live } }
		pageInfo { hasNextPage endCursor } } }`

func dealsAt(t testing.TB, c testsupport.GraphQLClient, vars map[string]any) dealsPage {
	t.Helper()
	all := map[string]any{"lon": dealsLon, "lat": dealsLat}
	for k, v := range vars {
		all[k] = v
	}
	var p dealsPage
	c.Do(t, dealsQuery, all).Decode(t, &p)
	return p
}

func dealIDs(p dealsPage) []string {
	var out []string
	for _, e := range p.DealsNearby.Edges {
		out = append(out, e.Node.Voucher.ID)
	}
	return out
}

func TestDealsNearbyOverGraphQL(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		env["ADMIN_PHONES"] = "13700000700"
		srv, _ := startService(t, env)
		anon := client(srv)
		f := dealsFixture{srv: srv.URL, admin: as(srv, login(t, anon, "13700000700").AccessToken)}
		a := f.createShopEast(t, 100, 30)
		b := f.createShopEast(t, 200, 50)
		c := f.createShopEast(t, 300, 40)
		far := f.createShopEast(t, 8000, 50)

		normal := createVoucher(t, f.admin, c, 800)                          // 300 m, discount 200, score 40, no end
		live := createSale(t, f.admin, a, 500, 5, -time.Minute, 2*time.Hour) // 100 m, 500, score 30, ends in 2 h
		upcoming := createSale(t, f.admin, b, 900, 9, time.Hour, 3*time.Hour)
		big := createSale(t, f.admin, a, 100, 3, -time.Minute, time.Hour) // 100 m, 900, ends in 1 h
		soldOut := createSale(t, f.admin, b, 1, 1, -time.Minute, time.Hour)
		distant := createVoucher(t, f.admin, far, 1)

		// One unit of live goes and the only unit of soldOut: the gate's stock is read.
		buyer := as(srv, login(t, anon, "13700000701").AccessToken)
		for _, v := range []string{live, soldOut} {
			buyer.Do(t, `mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId } }`, map[string]any{"v": v}).Decode(t, &struct{}{})
		}

		for _, tc := range []struct {
			sort string
			want []string
		}{
			{"DISTANCE", []string{live, big, upcoming, normal}},
			{"DISCOUNT", []string{big, live, normal, upcoming}},
			{"SCORE", []string{upcoming, normal, live, big}},
			{"ENDING_SOON", []string{big, live, upcoming, normal}},
		} {
			p := dealsAt(t, anon, map[string]any{"sort": tc.sort})
			if got := dealIDs(p); !slices.Equal(got, tc.want) || p.DealsNearby.PageInfo.HasNextPage {
				t.Errorf("sort %s: %v; want %v (sold out %s and distant %s left out)", tc.sort, got, tc.want, soldOut, distant)
			}
		}
		if got := dealIDs(dealsAt(t, anon, nil)); !slices.Equal(got, []string{live, big, upcoming, normal}) {
			t.Errorf("without a sort: %v; want by distance", got)
		}

		byID := map[string]deal{}
		for _, e := range dealsAt(t, anon, nil).DealsNearby.Edges {
			byID[e.Node.Voucher.ID] = e.Node
		}
		l, u, n := byID[live], byID[upcoming], byID[normal]
		if l.Shop.ID != a || l.DistanceMeters != 100 || l.Discount != 500 || !l.Live || l.RemainingStock == nil || *l.RemainingStock != 4 ||
			l.EndsAt == nil || l.BeginsAt == nil || l.SecondsLeft == nil || *l.SecondsLeft < 7000 || *l.SecondsLeft > 7200 {
			t.Errorf("the live sale: %+v; want shop %s, 100 m, discount 500, live, 4 left, about 7200 s left", l, a)
		}
		if u.Live || u.RemainingStock == nil || *u.RemainingStock != 9 || u.DistanceMeters != 200 || u.Discount != 100 {
			t.Errorf("the upcoming sale: %+v; want not live, 9 left, 200 m, discount 100", u)
		}
		if !n.Live || n.RemainingStock != nil || n.EndsAt != nil || n.SecondsLeft != nil || n.DistanceMeters != 300 || n.Discount != 200 {
			t.Errorf("the normal voucher: %+v; want live, no stock, window or seconds, 300 m, discount 200", n)
		}

		if got := dealIDs(dealsAt(t, anon, map[string]any{"radius": 150})); !slices.Equal(got, []string{live, big}) {
			t.Errorf("within 150 m: %v; want shop %s's", got, a)
		}
		if got := dealIDs(dealsAt(t, anon, map[string]any{"radius": 10000})); !slices.Contains(got, distant) || len(got) != 5 {
			t.Errorf("within 10 km: %v; want the distant shop's voucher too", got)
		}
		q := `query($r: Int, $s: DealSort, $a: String) { dealsNearby(longitude: 100, latitude: 10, radius: $r, sort: $s, after: $a) { edges { cursor } } }`
		wantCode(t, "a radius past DEALS_NEARBY_MAX_RADIUS", anon.Do(t, q, map[string]any{"r": 20001}), "BAD_USER_INPUT")
		first := dealsAt(t, anon, map[string]any{"sort": "DISCOUNT", "first": 1}).DealsNearby.PageInfo.EndCursor
		wantCode(t, "a cursor of another sort", anon.Do(t, q, map[string]any{"s": "SCORE", "a": *first}), "BAD_USER_INPUT")
		wantCode(t, "a cursor of another list", anon.Do(t, q, map[string]any{"a": "bm9wZQ"}), "BAD_USER_INPUT")
	})
}

// Paging through dealsNearby by every order, a page at a time, while another client
// creates sales all along: no deal is shown twice, and every sale that existed before
// the first page is shown.
func TestDealsNearbyPagesExactlyWhileSalesAreCreated(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		env["ADMIN_PHONES"] = "13700000710"
		srv, _ := startService(t, env)
		anon := client(srv)
		f := dealsFixture{srv: srv.URL, admin: as(srv, login(t, anon, "13700000710").AccessToken)}
		shops := []string{f.createShopEast(t, 50, 20), f.createShopEast(t, 400, 45), f.createShopEast(t, 900, 35)}
		var before []string
		for i := range 24 {
			before = append(before, createSale(t, f.admin, shops[i%3], 100+(i*37)%500, 10, -time.Minute, time.Duration(i+2)*time.Hour))
		}

		var created atomic.Int64
		// create makes up to 30 sales, one every 10 ms or so, until stop: the pages must
		// be able to catch up with the sales that sort after them.
		create := func(stop <-chan struct{}) {
			hc := &http.Client{Timeout: time.Minute}
			for i := range 30 {
				select {
				case <-stop:
					return
				case <-time.After(10 * time.Millisecond):
				}
				now := time.Now()
				// Sales everywhere in every order: near and far, small and large
				// discounts, ending first and last.
				resp, err := postGraphQL(hc, srv.URL+"/graphql", f.admin.Token,
					`mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, map[string]any{"in": map[string]any{
						"shopId": shops[i%3], "title": "new", "payValue": []int{1, 999, 500}[i%3], "actualValue": 1000, "stock": 5,
						"beginTime": now.Add(-time.Minute).Format(time.RFC3339Nano), "endTime": now.Add([]time.Duration{time.Hour + time.Minute, 99 * time.Hour, 5 * time.Hour}[i%3]).Format(time.RFC3339Nano),
					}})
				if err != nil || len(resp.Errors) > 0 {
					t.Errorf("create a sale while paging: %v %+v", err, resp.Errors)
					return
				}
				created.Add(1)
			}
		}
		for _, sort := range []string{"DISTANCE", "DISCOUNT", "SCORE", "ENDING_SOON"} {
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() { create(stop) })
			seen := map[string]int{}
			var after any
			for pages := 0; ; pages++ {
				if pages > 200 {
					t.Fatalf("%s: paging never ends", sort)
				}
				p := dealsAt(t, anon, map[string]any{"sort": sort, "first": 4, "after": after})
				for _, e := range p.DealsNearby.Edges {
					seen[e.Node.Voucher.ID]++
				}
				if !p.DealsNearby.PageInfo.HasNextPage {
					break
				}
				after = *p.DealsNearby.PageInfo.EndCursor
				time.Sleep(20 * time.Millisecond) // let the creator in between pages
			}
			close(stop)
			wg.Wait()
			for id, n := range seen {
				if n > 1 {
					t.Errorf("%s: deal %s shown %d times", sort, id, n)
				}
			}
			for _, id := range before {
				if seen[id] != 1 {
					t.Errorf("%s: sale %s, there before the first page, shown %d times", sort, id, seen[id])
				}
			}
			t.Logf("%s: %d deals shown, %d sales created so far", sort, len(seen), created.Load())
		}
		if created.Load() < 16 {
			t.Errorf("only %d sales were created while paging", created.Load())
		}
	})
}
