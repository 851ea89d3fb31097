package service_test

import (
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestMerchantsRunTheirShopsOverHTTP: a merchant lists the shops they run (myShops),
// edits them (not their score, not others' shops), runs their sales and reads their
// visitors; everyone sees who runs a shop; a merchant whose last shop goes to someone
// else is a USER again, an ADMIN stays one.
func TestMerchantsRunTheirShopsOverHTTP(t *testing.T) {
	t.Parallel()
	const adminPhone, merchantPhone, nextPhone, buyerPhone = "13300006661", "13300006662", "13300006663", "13300006664"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone, "LOGIN_CODE_INTERVAL": "1ms"})
	anon, admin, merchant, next, buyer := client(srv), client(srv), client(srv), client(srv), client(srv)
	a := login(t, anon, adminPhone)
	m := login(t, anon, merchantPhone)
	n := login(t, anon, nextPhone)
	admin.Token, merchant.Token, next.Token = a.AccessToken, m.AccessToken, n.AccessToken
	buyer.Token = login(t, anon, buyerPhone).AccessToken

	setOwner := func(shop, user string) {
		t.Helper()
		admin.Do(t, `mutation($s: ID!, $u: ID!) { setShopOwner(shopId: $s, userId: $u) { id } }`,
			map[string]any{"s": shop, "u": user}).Decode(t, &struct{}{})
	}
	setOwner("1", m.User.ID)
	setOwner("2", m.User.ID)

	// myShops: the caller's own shops, each with its owner's public profile.
	myShops := func(c testsupport.GraphQLClient) []string {
		t.Helper()
		var out struct {
			MyShops []struct {
				ID    string
				Owner struct{ ID string }
			}
		}
		c.Do(t, `{ myShops { id owner { id } } }`, nil).Decode(t, &out)
		var ids []string
		for _, s := range out.MyShops {
			ids = append(ids, s.ID)
		}
		return ids
	}
	if got := myShops(merchant); !slices.Equal(got, []string{"1", "2"}) {
		t.Fatalf("the merchant's myShops: %v, want [1 2]", got)
	}
	if got := myShops(admin); len(got) != 0 {
		t.Fatalf("an ADMIN who owns no shop: myShops %v, want none", got)
	}
	wantCode(t, "myShops of a USER", buyer.Do(t, `{ myShops { id } }`, nil), "FORBIDDEN")

	// Shop.owner is public: the merchant's profile, the phone masked.
	var shop1 struct {
		Shop struct {
			OwnerID *string
			Owner   *struct{ ID, Phone, NickName string }
		}
	}
	anon.Do(t, `{ shop(id: "1") { ownerId owner { id phone nickName } } }`, nil).Decode(t, &shop1)
	if o := shop1.Shop.Owner; o == nil || o.ID != m.User.ID || o.Phone != "133****6662" || shop1.Shop.OwnerID == nil || *shop1.Shop.OwnerID != m.User.ID {
		t.Fatalf("shop 1 as anyone sees it: %+v", shop1.Shop)
	}
	var shop3 struct {
		Shop struct{ Owner *struct{ ID string } }
	}
	anon.Do(t, `{ shop(id: "3") { owner { id } } }`, nil).Decode(t, &shop3)
	if shop3.Shop.Owner != nil {
		t.Fatalf("a shop without an owner: owner %+v, want null", shop3.Shop.Owner)
	}

	// updateShop: the shop's owner or an ADMIN; the score is the reviews', not the merchant's.
	update := `mutation($in: UpdateShopInput!) { updateShop(input: $in) { id name } }`
	var upd struct{ UpdateShop struct{ ID, Name string } }
	merchant.Do(t, update, map[string]any{"in": map[string]any{"id": "1", "name": "新名字"}}).Decode(t, &upd)
	if upd.UpdateShop.Name != "新名字" {
		t.Fatalf("the owner's updateShop: %+v", upd)
	}
	wantCode(t, "updateShop of another's shop", merchant.Do(t, update, map[string]any{"in": map[string]any{"id": "3", "name": "x"}}), "FORBIDDEN")
	wantCode(t, "updateShop of the score by its merchant", merchant.Do(t, update, map[string]any{"in": map[string]any{"id": "1", "score": 50}}), "FORBIDDEN")
	wantCode(t, "updateShop by a USER", buyer.Do(t, update, map[string]any{"in": map[string]any{"id": "1", "name": "x"}}), "FORBIDDEN")
	admin.Do(t, update, map[string]any{"in": map[string]any{"id": "3", "score": 40}}).Decode(t, &upd)

	// The merchant's sales, on their own shops only.
	var voucher struct{ CreateVoucher struct{ ID string } }
	merchant.Do(t, `mutation($in: CreateVoucherInput!) { createVoucher(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": "代金券", "payValue": 5000, "actualValue": 6000}}).Decode(t, &voucher)
	var sale struct{ CreateFlashSale struct{ ID string } }
	merchant.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, saleInput("2", 100)).Decode(t, &sale)
	merchant.Do(t, `mutation($in: UpdateFlashSaleInput!) { updateFlashSale(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"voucherId": sale.CreateFlashSale.ID, "endTime": time.Now().Add(2 * time.Hour).Format(time.RFC3339)}}).Decode(t, &struct{}{})
	wantCode(t, "a sale for another's shop", merchant.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`,
		saleInput("3", 100)), "FORBIDDEN")

	// Their shops' visitors; the site's are the ADMINs'.
	today := time.Now().UTC().Format(time.DateOnly)
	uv := `query($s: ID) { uniqueVisitors(from: "` + today + `", to: "` + today + `", shopId: $s) }`
	var count struct{ UniqueVisitors int }
	merchant.Do(t, uv, map[string]any{"s": "1"}).Decode(t, &count)
	wantCode(t, "visitors of another's shop", merchant.Do(t, uv, map[string]any{"s": "3"}), "FORBIDDEN")
	wantCode(t, "the site's visitors by a merchant", merchant.Do(t, uv, nil), "FORBIDDEN")
	wantCode(t, "visitors by a USER", buyer.Do(t, uv, map[string]any{"s": "1"}), "FORBIDDEN")
	admin.Do(t, uv, nil).Decode(t, &count)
	admin.Do(t, uv, map[string]any{"s": "1"}).Decode(t, &count)

	// Shops change hands: a merchant with a shop left stays one; without, is a USER again.
	role := func(c testsupport.GraphQLClient) string {
		t.Helper()
		var out struct{ Me struct{ Role string } }
		c.Do(t, `{ me { role } }`, nil).Decode(t, &out)
		return out.Me.Role
	}
	setOwner("1", n.User.ID)
	if r := role(merchant); r != "MERCHANT" {
		t.Fatalf("a merchant with shop 2 left is %s", r)
	}
	setOwner("2", n.User.ID)
	if r := role(merchant); r != "USER" {
		t.Fatalf("a merchant whose last shop went to someone else is %s, want USER", r)
	}
	wantCode(t, "myShops of a former merchant", merchant.Do(t, `{ myShops { id } }`, nil), "FORBIDDEN")
	wantCode(t, "a sale by a former merchant", merchant.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`,
		saleInput("2", 100)), "FORBIDDEN")
	if got := myShops(next); !slices.Equal(got, []string{"1", "2"}) {
		t.Fatalf("the new owner's myShops: %v, want [1 2]", got)
	}
	setOwner("3", a.User.ID)
	if got := myShops(admin); !slices.Equal(got, []string{"3"}) {
		t.Fatalf("an ADMIN's myShops: %v, want [3]", got)
	}
	setOwner("3", n.User.ID)
	if r := role(admin); r != "ADMIN" {
		t.Fatalf("an ADMIN whose shop went to someone else is %s", r)
	}
}
