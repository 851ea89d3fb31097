package service_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// TestSaleStatsOverWebsocket: the merchant of a shop subscribes to its sale's live
// numbers over graphql-transport-ws and sees the current ones at once, then the claims
// arrive, each push at least SALE_STATS_INTERVAL after the previous one; the merchant
// of another shop and a buyer are refused.
func TestSaleStatsOverWebsocket(t *testing.T) {
	t.Parallel()
	const interval = 300 * time.Millisecond
	const adminPhone, merchantPhone, otherPhone = "13900000061", "13900000062", "13900000063"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
		"SALE_STATS_INTERVAL": interval.String(), "CLAIM_RATE_PER_USER": "off"})
	anon := client(srv)
	admin, merchant, buyer := client(srv), client(srv), client(srv)
	admin.Token = login(t, anon, adminPhone).AccessToken
	m, o := login(t, anon, merchantPhone), login(t, anon, otherPhone)
	for _, own := range []struct{ shop, user string }{{"1", m.User.ID}, {"2", o.User.ID}} {
		var out struct{ SetShopOwner struct{ ID string } }
		admin.Do(t, `mutation($s: ID!, $u: ID!) { setShopOwner(shopId: $s, userId: $u) { id } }`,
			map[string]any{"s": own.shop, "u": own.user}).Decode(t, &out)
	}
	merchant.Token = m.AccessToken
	var sale struct{ CreateFlashSale struct{ ID string } }
	merchant.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, saleInput("1", 500)).Decode(t, &sale)
	id := sale.CreateFlashSale.ID
	sub := fmt.Sprintf(`subscription { saleStats(voucherId: %q) { voucherId remaining accepted pending created paid at } }`, id)

	type stats struct {
		VoucherID              string
		Remaining, Accepted    int
		Pending, Created, Paid int
		At                     time.Time
	}
	ws := wsOpen(t, srv, m.AccessToken)
	ws.send(map[string]any{"type": "subscribe", "id": "s", "payload": map[string]any{"query": sub}})
	read := func() stats {
		t.Helper()
		typ, payload, code := ws.next()
		if typ != "next" {
			t.Fatalf("saleStats: got %q %s (close %d)", typ, payload, code)
		}
		var r struct {
			Data   struct{ SaleStats stats }
			Errors json.RawMessage
		}
		if err := json.Unmarshal(payload, &r); err != nil || r.Errors != nil {
			t.Fatalf("saleStats payload %s: %v", payload, err)
		}
		return r.Data.SaleStats
	}
	first := read()
	if first.VoucherID != id || first.Remaining != 5 || first.Accepted != 0 || first.Created != 0 {
		t.Fatalf("first push: %+v, want the sale untouched (5 remaining)", first)
	}
	// Five buyers claim the five units.
	for i := range 5 {
		buyer.Token = login(t, anon, fmt.Sprintf("1390000007%d", i)).AccessToken
		var claim claimAnswer
		buyer.Do(t, claimMutation, map[string]any{"v": id}).Decode(t, &claim)
	}
	prev, pushes := first, 0
	for prev.Created < 5 {
		s := read()
		pushes++
		if gap := s.At.Sub(prev.At); gap < interval*9/10 {
			t.Errorf("push %d came %s after the previous one, want at least %s", pushes, gap, interval)
		}
		if s.Accepted < prev.Accepted || s.Remaining > prev.Remaining || s.Accepted+s.Remaining != 5 {
			t.Errorf("push %d: %+v after %+v: accepted and remaining must add up to the stock and move one way", pushes, s, prev)
		}
		prev = s
	}
	if prev.Remaining != 0 || prev.Accepted != 5 || prev.Pending != 0 || prev.Paid != 0 {
		t.Errorf("last push %+v, want 0 remaining, 5 accepted and CREATED, none pending or paid", prev)
	}

	// Another shop's merchant, and a buyer, are refused.
	for _, who := range []struct {
		name, token string
		want        []string
	}{{"the merchant of shop 2", o.AccessToken, []string{"FORBIDDEN", "NOT_FOUND"}}, {"a buyer", buyer.Token, []string{"FORBIDDEN"}}} {
		codes, closeCode := wsOpen(t, srv, who.token).query("x", sub)
		if len(codes) != 1 || (codes[0] != who.want[0] && codes[0] != who.want[len(who.want)-1]) {
			t.Errorf("%s subscribing: codes %v (close %d), want one of %v", who.name, codes, closeCode, who.want)
		}
	}
}
