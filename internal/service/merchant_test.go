package service_test

import (
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestMerchantRunsOnlyItsShopsOverHTTP walks the lifecycle as clients would: an admin
// makes a user the merchant of shop 1; the merchant runs a free flash sale there (and is
// refused shop 2); a buyer claims it, sees the order (PENDING at once, then PAID with its
// code), the merchant of shop 2 cannot redeem the code, the merchant of shop 1 can, once;
// a used order cannot be refunded.
func TestMerchantRunsOnlyItsShopsOverHTTP(t *testing.T) {
	t.Parallel()
	const adminPhone, merchantPhone, otherMerchantPhone = "13900000051", "13900000052", "13900000053"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone})
	anon := client(srv)
	admin, merchant, other, alice := client(srv), client(srv), client(srv), client(srv)
	admin.Token = login(t, anon, adminPhone).AccessToken
	m := login(t, anon, merchantPhone)
	o := login(t, anon, otherMerchantPhone)
	alice.Token = login(t, anon, "13900000054").AccessToken
	for _, own := range []struct{ shop, user string }{{"1", m.User.ID}, {"2", o.User.ID}} {
		var out struct{ SetShopOwner struct{ ID string } }
		admin.Do(t, `mutation($s: ID!, $u: ID!) { setShopOwner(shopId: $s, userId: $u) { id } }`,
			map[string]any{"s": own.shop, "u": own.user}).Decode(t, &out)
	}
	// The MERCHANT role applies to the tokens the users already hold.
	merchant.Token, other.Token = m.AccessToken, o.AccessToken
	wantCode(t, "a buyer creating a sale", alice.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`,
		saleInput("1", 0)), "FORBIDDEN")
	wantCode(t, "a merchant creating a sale for another's shop", merchant.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`,
		saleInput("2", 0)), "FORBIDDEN")
	var sale struct{ CreateFlashSale struct{ ID string } }
	merchant.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, saleInput("1", 0)).Decode(t, &sale)

	var claim claimAnswer
	alice.Do(t, claimMutation, map[string]any{"v": sale.CreateFlashSale.ID}).Decode(t, &claim)
	orderID := claim.ClaimVoucher.OrderID
	// Listed at once, whatever its status by now.
	var mine struct {
		MyOrders struct {
			Edges []struct {
				Node struct {
					ID, Status     string
					RedemptionCode *string
					Voucher        struct{ ID string }
					Shop           struct{ ID string }
				}
			}
		}
	}
	alice.Do(t, `{ myOrders { edges { node { id status redemptionCode voucher { id } shop { id } } } } }`, nil).Decode(t, &mine)
	if len(mine.MyOrders.Edges) != 1 || mine.MyOrders.Edges[0].Node.ID != orderID {
		t.Fatalf("myOrders right after the claim: %+v", mine)
	}
	if got := waitOrder(t, alice, orderID); got != "PAID" {
		t.Fatalf("a free flash sale's order ended %s, want PAID", got)
	}
	alice.Do(t, `{ myOrders(status: [PAID]) { edges { node { id status redemptionCode voucher { id } shop { id } } } } }`, nil).Decode(t, &mine)
	if len(mine.MyOrders.Edges) != 1 {
		t.Fatalf("myOrders(status: PAID): %+v", mine)
	}
	n := mine.MyOrders.Edges[0].Node
	if n.RedemptionCode == nil || len(*n.RedemptionCode) != 12 || n.Voucher.ID != sale.CreateFlashSale.ID || n.Shop.ID != "1" {
		t.Fatalf("paid order as its owner sees it: %+v", n)
	}
	code := *n.RedemptionCode
	// The merchant's view of the shop's orders shows no code.
	var shopOrders struct {
		ShopOrders struct {
			Edges []struct {
				Node struct {
					ID, Status     string
					RedemptionCode *string
				}
			}
		}
	}
	merchant.Do(t, `{ shopOrders(shopId: "1") { edges { node { id status redemptionCode } } } }`, nil).Decode(t, &shopOrders)
	if len(shopOrders.ShopOrders.Edges) != 1 || shopOrders.ShopOrders.Edges[0].Node.RedemptionCode != nil {
		t.Errorf("shopOrders: %+v", shopOrders)
	}
	wantCode(t, "shopOrders of another's shop", merchant.Do(t, `{ shopOrders(shopId: "2") { edges { node { id } } } }`, nil), "FORBIDDEN")
	wantCode(t, "a buyer listing a shop's orders", alice.Do(t, `{ shopOrders(shopId: "1") { edges { node { id } } } }`, nil), "FORBIDDEN")

	redeem := `mutation($c: String!) { redeemOrder(code: $c) { id status usedAt } }`
	wantCode(t, "the merchant of shop 2 redeeming a shop 1 code", other.Do(t, redeem, map[string]any{"c": code}), "NOT_FOUND")
	var used struct{ RedeemOrder struct{ ID, Status string } }
	merchant.Do(t, redeem, map[string]any{"c": code}).Decode(t, &used)
	if used.RedeemOrder.Status != "USED" || used.RedeemOrder.ID != orderID {
		t.Errorf("redeemed: %+v", used)
	}
	again := merchant.Do(t, redeem, map[string]any{"c": code})
	wantCode(t, "a second redemption", again, "CONFLICT")
	if len(again.Errors) == 1 && again.Errors[0].Extensions["currentStatus"] != "USED" {
		t.Errorf("conflict extensions %v, want currentStatus USED", again.Errors[0].Extensions)
	}
	wantCode(t, "refund of a used order", alice.Do(t, `mutation($o: ID!) { requestRefund(orderId: $o) { status } }`, map[string]any{"o": orderID}), "CONFLICT")
	wantCode(t, "cancel of someone else's order", other.Do(t, `mutation($o: ID!) { cancelOrder(orderId: $o) { status } }`, map[string]any{"o": orderID}), "NOT_FOUND")

	var stats struct {
		SaleStats struct{ Remaining, Accepted, Used int }
	}
	merchant.Do(t, `query($v: ID!) { saleStats(voucherId: $v) { remaining accepted used } }`, map[string]any{"v": sale.CreateFlashSale.ID}).Decode(t, &stats)
	if stats.SaleStats.Remaining != 4 || stats.SaleStats.Accepted != 1 || stats.SaleStats.Used != 1 {
		t.Errorf("saleStats %+v", stats.SaleStats)
	}
	wantCode(t, "saleStats of another's sale", other.Do(t, `query($v: ID!) { saleStats(voucherId: $v) { remaining } }`,
		map[string]any{"v": sale.CreateFlashSale.ID}), "FORBIDDEN")
}

func saleInput(shopID string, payValue int) map[string]any {
	now := time.Now()
	return map[string]any{"in": map[string]any{
		"shopId": shopID, "title": "免费券", "payValue": payValue, "actualValue": 1000, "stock": 5,
		"beginTime": now.Add(-time.Minute).Format(time.RFC3339Nano), "endTime": now.Add(time.Hour).Format(time.RFC3339Nano),
	}}
}

var _ = testsupport.GraphQLClient{}
