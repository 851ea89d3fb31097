package service_test

import (
	"strings"
	"testing"
	"time"
)

// A public read answered from the response cache shows a shop's update at once after
// the mutation that made it returns, with a TTL far longer than the test.
func TestResponseCacheShowsAnUpdateAtOnce(t *testing.T) {
	t.Parallel()
	const admin = "13100009998"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": admin, "RESPONSE_CACHE_TTL": "1h"})
	anon := client(srv)
	adm := client(srv)
	adm.Token = login(t, anon, admin).AccessToken

	in := map[string]any{"name": "缓存的店", "typeId": "2", "address": "西湖区文三路 2 号", "longitude": 120.1301, "latitude": 30.2781, "avgPrice": 8800}
	var created struct {
		CreateShop struct{ ID string }
	}
	adm.Do(t, createShop, map[string]any{"in": in}).Decode(t, &created)
	id := created.CreateShop.ID
	read := func() string {
		t.Helper()
		var got struct {
			Shop struct{ Name string }
		}
		anon.Do(t, `query($id: ID!) { shop(id: $id) { id name } }`, map[string]any{"id": id}).Decode(t, &got)
		return got.Shop.Name
	}
	// The creation's own cache invalidations reach this node over Redis a moment later
	// and drop what was cached before them, so read until a read is a hit.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if a := read(); a != "缓存的店" {
			t.Fatalf("read before the update: %q", a)
		}
		m := scrape(t, srv.URL)
		if !strings.Contains(m, "dealspot_response_cache_hits_total 0") && strings.Contains(m, "dealspot_response_cache_hits_total") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no read was a hit:\n%s", grepLines(m, "dealspot_response_cache"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	adm.Do(t, updateShop, map[string]any{"in": map[string]any{"id": id, "name": "改名的店"}}).Decode(t, &struct{}{})
	if got := read(); got != "改名的店" {
		t.Errorf("the read after the update answered %q", got)
	}
}
