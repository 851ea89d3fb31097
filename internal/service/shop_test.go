package service_test

import (
	"math"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

type nearbyEdge struct {
	Cursor         string
	DistanceMeters float64
	Node           struct {
		ID, TypeID          string
		Longitude, Latitude float64
	}
}

const nearbyQuery = `query($t: ID!, $lon: Float!, $lat: Float!, $r: Float, $first: Int, $after: String) {
  nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, radiusMeters: $r, first: $first, after: $after) {
    edges { cursor distanceMeters node { id typeId longitude latitude } }
    pageInfo { hasNextPage endCursor }
  }
}`

// allNearby pages through nearbyShops with page size first and returns every edge.
func allNearby(t *testing.T, c testsupport.GraphQLClient, vars map[string]any, first int) []nearbyEdge {
	t.Helper()
	var out []nearbyEdge
	after := ""
	for range 200 {
		v := map[string]any{"first": first}
		for k, x := range vars {
			v[k] = x
		}
		if after != "" {
			v["after"] = after
		}
		var data struct {
			NearbyShops struct {
				Edges    []nearbyEdge
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		c.Do(t, nearbyQuery, v).Decode(t, &data)
		out = append(out, data.NearbyShops.Edges...)
		if !data.NearbyShops.PageInfo.HasNextPage {
			return out
		}
		after = *data.NearbyShops.PageInfo.EndCursor
	}
	t.Fatal("nearby paging does not end")
	return nil
}

func haversine(lon1, lat1, lon2, lat2 float64) float64 {
	const r = 6371000.0
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(a))
}

func TestNearbyShopsPageByDistance(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		srv := startServer(t, env)
		c := client(srv)
		const lon, lat = 120.149993, 30.334229
		vars := map[string]any{"t": "1", "lon": lon, "lat": lat, "r": 50000.0}
		edges := allNearby(t, c, vars, 3)
		if len(edges) < 5 {
			t.Fatalf("want several food shops within 50 km, got %d", len(edges))
		}
		seen := map[string]bool{}
		for i, e := range edges {
			if seen[e.Node.ID] {
				t.Fatalf("shop %s returned twice", e.Node.ID)
			}
			seen[e.Node.ID] = true
			if e.Node.TypeID != "1" {
				t.Errorf("shop %s of type %s in a type-1 search", e.Node.ID, e.Node.TypeID)
			}
			if want := haversine(lon, lat, e.Node.Longitude, e.Node.Latitude); math.Abs(want-e.DistanceMeters) > 1 {
				t.Errorf("shop %s: distance %.2f m, haversine %.2f m", e.Node.ID, e.DistanceMeters, want)
			}
			if i > 0 && e.DistanceMeters < edges[i-1].DistanceMeters {
				t.Errorf("distance decreases at %d: %.2f after %.2f", i, e.DistanceMeters, edges[i-1].DistanceMeters)
			}
			if e.DistanceMeters > 50000+1 {
				t.Errorf("shop %s beyond the radius: %.0f m", e.Node.ID, e.DistanceMeters)
			}
		}
		// One big page agrees with the small pages.
		whole := allNearby(t, c, vars, 100)
		if len(whole) != len(edges) {
			t.Errorf("page size 100 found %d shops, page size 3 found %d", len(whole), len(edges))
		}
		// Without typeId: every type, nearest first, the type-1 shops among them.
		const anyType = `query($lon: Float!, $lat: Float!, $r: Float, $first: Int, $after: String) {
  nearbyShops(longitude: $lon, latitude: $lat, radiusMeters: $r, first: $first, after: $after) {
    edges { cursor distanceMeters node { id typeId longitude latitude } }
    pageInfo { hasNextPage endCursor }
  }
}`
		var every []nearbyEdge
		after := ""
		for range 100 {
			v := map[string]any{"lon": lon, "lat": lat, "r": 50000.0, "first": 4}
			if after != "" {
				v["after"] = after
			}
			var page struct {
				NearbyShops struct {
					Edges    []nearbyEdge
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
			c.Do(t, anyType, v).Decode(t, &page)
			every = append(every, page.NearbyShops.Edges...)
			if !page.NearbyShops.PageInfo.HasNextPage {
				break
			}
			after = page.NearbyShops.PageInfo.EndCursor
		}
		types, ofType1, ids := map[string]bool{}, 0, map[string]bool{}
		for i, e := range every {
			if ids[e.Node.ID] {
				t.Fatalf("any type: shop %s returned twice", e.Node.ID)
			}
			ids[e.Node.ID] = true
			types[e.Node.TypeID] = true
			if e.Node.TypeID == "1" {
				ofType1++
			}
			if i > 0 && e.DistanceMeters < every[i-1].DistanceMeters {
				t.Errorf("any type: distance decreases at %d", i)
			}
		}
		if len(types) < 2 || ofType1 != len(edges) {
			t.Errorf("any type: %d shops of %d types, %d of type 1; want several types and all %d of type 1", len(every), len(types), ofType1, len(edges))
		}
		// A smaller radius finds a subset.
		small := allNearby(t, c, map[string]any{"t": "1", "lon": lon, "lat": lat}, 50)
		for _, e := range small {
			if e.DistanceMeters > 5000+1 {
				t.Errorf("default radius is 5 km, got a shop at %.0f m", e.DistanceMeters)
			}
		}
	})
}

func TestNearbyShopsRefusesBadInput(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"PAGE_SIZE_MAX": "20", "NEARBY_RADIUS_MAX_METERS": "10000"})
	c := client(srv)
	cases := map[string]map[string]any{
		"latitude out of range":  {"t": "1", "lon": 120.0, "lat": 91.0},
		"longitude out of range": {"t": "1", "lon": 181.0, "lat": 30.0},
		"negative radius":        {"t": "1", "lon": 120.0, "lat": 30.0, "r": -1.0},
		"radius above max":       {"t": "1", "lon": 120.0, "lat": 30.0, "r": 10001.0},
		"first above max":        {"t": "1", "lon": 120.0, "lat": 30.0, "first": 21},
		"malformed type":         {"t": "x", "lon": 120.0, "lat": 30.0},
		"garbage cursor":         {"t": "1", "lon": 120.0, "lat": 30.0, "after": "bm9wZQ"},
	}
	for name, vars := range cases {
		wantCode(t, name, c.Do(t, nearbyQuery, vars), "BAD_USER_INPUT")
	}
	var data struct{ NearbyShops struct{ Edges []nearbyEdge } }
	c.Do(t, nearbyQuery, map[string]any{"t": "999", "lon": 120.0, "lat": 30.0}).Decode(t, &data)
	if len(data.NearbyShops.Edges) != 0 {
		t.Errorf("unknown type found shops: %+v", data.NearbyShops.Edges)
	}
}

func TestShopNameSearchLongerThanAnyNameIsRefused(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	c := client(srv)
	const q = `query($n: String!) { shops(name: $n, first: 5) { edges { node { id } } } }`
	// A pattern longer than any shop name may be can match nothing: refused before the
	// database scans for it.
	wantCode(t, "name pattern of 129 characters", c.Do(t, q, map[string]any{"n": strings.Repeat("店", 129)}), "BAD_USER_INPUT")
	var data struct {
		Shops struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	c.Do(t, q, map[string]any{"n": strings.Repeat("店", 128)}).Decode(t, &data)
	if len(data.Shops.Edges) != 0 {
		t.Errorf("a 128-character pattern matched %d shops", len(data.Shops.Edges))
	}
}

const createShop = `mutation($in: CreateShopInput!) { createShop(input: $in) { id name typeId longitude latitude } }`
const updateShop = `mutation($in: UpdateShopInput!) { updateShop(input: $in) { id name typeId avgPrice longitude latitude } }`

func TestShopAdminMutations(t *testing.T) {
	t.Parallel()
	const admin = "13100009999"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": admin})
	anon := client(srv)
	user := client(srv)
	user.Token = login(t, anon, "13100001234").AccessToken
	adm := client(srv)
	adm.Token = login(t, anon, admin).AccessToken

	in := map[string]any{"name": "新开的店", "typeId": "2", "address": "西湖区文三路 1 号", "longitude": 120.1301, "latitude": 30.2781, "avgPrice": 8800}
	wantCode(t, "createShop anonymously", anon.Do(t, createShop, map[string]any{"in": in}), "UNAUTHENTICATED")
	wantCode(t, "createShop as a user", user.Do(t, createShop, map[string]any{"in": in}), "FORBIDDEN")

	// listed pages through shops(typeId) and tells the shop ids with their names.
	listed := func(typeID string) map[string]string {
		out := map[string]string{}
		var after *string
		for range 100 {
			var page struct {
				Shops struct {
					Edges []struct {
						Cursor string
						Node   struct{ ID, Name string }
					}
					PageInfo struct{ HasNextPage bool }
				}
			}
			anon.Do(t, `query($t: ID, $a: String) { shops(typeId: $t, first: 10, after: $a) { edges { cursor node { id name } } pageInfo { hasNextPage } } }`,
				map[string]any{"t": typeID, "a": after}).Decode(t, &page)
			for _, e := range page.Shops.Edges {
				out[e.Node.ID] = e.Node.Name
				after = &e.Cursor
			}
			if !page.Shops.PageInfo.HasNextPage {
				return out
			}
		}
		t.Fatalf("shops of type %s: more than 100 pages", typeID)
		return nil
	}
	before2, before3 := listed("2"), listed("3")

	var created struct {
		CreateShop struct{ ID, Name, TypeID string }
	}
	adm.Do(t, createShop, map[string]any{"in": in}).Decode(t, &created)
	id := created.CreateShop.ID
	if id == "" || created.CreateShop.Name != "新开的店" {
		t.Fatalf("created %+v", created)
	}
	near := func(typeID string) bool {
		for _, e := range allNearby(t, anon, map[string]any{"t": typeID, "lon": 120.1301, "lat": 30.2781, "r": 1000.0}, 20) {
			if e.Node.ID == id {
				return true
			}
		}
		return false
	}
	if !near("2") {
		t.Fatal("a new shop is not found nearby")
	}
	if l := listed("2"); l[id] != "新开的店" || len(l) != len(before2)+1 {
		t.Fatalf("shops of type 2 after a new one: %d, want %d with the new shop", len(l), len(before2)+1)
	}

	var updated struct {
		UpdateShop struct {
			ID, Name, TypeID string
			AvgPrice         int
		}
	}
	adm.Do(t, updateShop, map[string]any{"in": map[string]any{"id": id, "typeId": "3", "avgPrice": 12000}}).Decode(t, &updated)
	if updated.UpdateShop.TypeID != "3" || updated.UpdateShop.AvgPrice != 12000 || updated.UpdateShop.Name != "新开的店" {
		t.Fatalf("updated %+v: want type 3, price 12000 and the name kept", updated.UpdateShop)
	}
	if near("2") || !near("3") {
		t.Error("after a type change the shop should be found under its new type only")
	}
	if l2, l3 := listed("2"), listed("3"); len(l2) != len(before2) || l2[id] != "" || l3[id] != "新开的店" || len(l3) != len(before3)+1 {
		t.Errorf("after a type change: %d shops of type 2 (want %d), %d of type 3 (want %d), the shop under 3: %q",
			len(l2), len(before2), len(l3), len(before3)+1, l3[id])
	}
	var read struct{ Shop struct{ TypeID string } }
	anon.Do(t, `query($id: ID!) { shop(id: $id) { typeId } }`, map[string]any{"id": id}).Decode(t, &read)
	if read.Shop.TypeID != "3" {
		t.Errorf("shop(id) after update has type %s", read.Shop.TypeID)
	}

	bad := map[string]map[string]any{
		"unknown shop":       {"id": "999999", "name": "x"},
		"empty name":         {"id": id, "name": "  "},
		"latitude too large": {"id": id, "latitude": 99.0},
		"negative price":     {"id": id, "avgPrice": -1},
		"unknown type":       {"id": id, "typeId": "4242"},
	}
	for name, in := range bad {
		want := "BAD_USER_INPUT"
		if name == "unknown shop" {
			want = "NOT_FOUND"
		}
		wantCode(t, name, adm.Do(t, updateShop, map[string]any{"in": in}), want)
	}
}
