package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dealspot/dealspot/adapters/payment/simpay"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// What a buyer and a merchant see of an order beyond its status — its payments, its
// buyer, its units — over HTTP, on each relational store.

const (
	detailsAdminPhone    = "13900000201"
	detailsMerchantPhone = "13900000202"
	detailsWebhookSecret = "order-details-webhook-secret"
)

// orderDetailsNode is a node whose payment provider never notifies by itself: the test
// posts the provider's signed notifications.
type orderDetailsNode struct {
	srv                   *httptest.Server
	svc                   *service.Node
	admin, merchant, anon testsupport.GraphQLClient
	merchantID            string
}

// onEachDatabase runs fn on a node over the embedded SQLite and, when TEST_DATABASE_URL
// is set, over PostgreSQL; the admin has made the merchant run shop 1.
func onEachDatabase(t *testing.T, fn func(t *testing.T, n *orderDetailsNode)) {
	t.Helper()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": detailsAdminPhone,
				"PAYMENT_SIM_DELAY": "1h", "PAYMENT_WEBHOOK_SECRET": detailsWebhookSecret, "CLAIM_RATE_PER_USER": "off"}
			if db == "postgres" {
				env["DATABASE_URL"] = testsupport.PostgresURL(t)
			}
			srv, svc := startService(t, env)
			n := &orderDetailsNode{srv: srv, svc: svc, anon: client(srv), admin: client(srv), merchant: client(srv)}
			n.admin.Token = login(t, n.anon, detailsAdminPhone).AccessToken
			m := login(t, n.anon, detailsMerchantPhone)
			n.merchantID = m.User.ID
			var out struct{ SetShopOwner struct{ ID string } }
			n.admin.Do(t, `mutation($s: ID!, $u: ID!) { setShopOwner(shopId: $s, userId: $u) { id } }`,
				map[string]any{"s": "1", "u": m.User.ID}).Decode(t, &out)
			n.merchant.Token = m.AccessToken
			fn(t, n)
		})
	}
}

// user logs a new user in.
func (n *orderDetailsNode) user(t *testing.T, phone string) (testsupport.GraphQLClient, string) {
	t.Helper()
	c := client(n.srv)
	a := login(t, n.anon, phone)
	c.Token = a.AccessToken
	return c, a.User.ID
}

// voucher creates a normal voucher of shop 1 at payValue.
func (n *orderDetailsNode) voucher(t *testing.T, payValue int64) string {
	t.Helper()
	v, err := n.svc.App.Commands.FlashSales.CreateVoucher(context.Background(), domain.Operator,
		seckill.VoucherInput{ShopID: 1, Title: "套餐", PayValue: payValue, ActualValue: payValue + 500})
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(v.ID, 10)
}

// buy buys quantity of voucher and returns the order id and amount.
func buy(t *testing.T, c testsupport.GraphQLClient, voucher string, quantity int) (string, int) {
	t.Helper()
	var out struct {
		BuyVoucher struct {
			ID, Status string
			Amount     int
		}
	}
	c.Do(t, `mutation($v: ID!, $q: Int) { buyVoucher(voucherId: $v, quantity: $q) { id status amount } }`,
		map[string]any{"v": voucher, "q": quantity}).Decode(t, &out)
	if out.BuyVoucher.Status != "CREATED" {
		t.Fatalf("bought %+v, want CREATED", out.BuyVoucher)
	}
	return out.BuyVoucher.ID, out.BuyVoucher.Amount
}

// startPaying asks for a payment of the order and returns its id.
func startPaying(t *testing.T, c testsupport.GraphQLClient, order string) string {
	t.Helper()
	var out struct{ PayOrder struct{ ID, Status string } }
	c.Do(t, `mutation($o: ID!) { payOrder(orderId: $o) { id status } }`, map[string]any{"o": order}).Decode(t, &out)
	if out.PayOrder.Status != "PENDING" {
		t.Fatalf("payment %+v, want PENDING", out.PayOrder)
	}
	return out.PayOrder.ID
}

// notify posts the provider's signed word on a payment, as the provider would.
func (n *orderDetailsNode) notify(t *testing.T, payment, status string, amount int, reason string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"paymentId": payment, "providerRef": "sim_test", "status": status, "amount": amount,
		"reason": reason, "at": time.Now().UTC()})
	req, err := http.NewRequest(http.MethodPost, n.srv.URL+"/payments/notify", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(simpay.SignatureHeader, simpay.Sign([]byte(detailsWebhookSecret), time.Now(), body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("notification of payment %s answered %d", payment, resp.StatusCode)
	}
}

// pay pays the order: a payment, and the provider's word that it succeeded.
func (n *orderDetailsNode) pay(t *testing.T, c testsupport.GraphQLClient, order string, amount int) {
	t.Helper()
	n.notify(t, startPaying(t, c, order), "SUCCEEDED", amount, "")
}

type paymentSeen struct {
	ID, Status   string
	Amount       int
	Reason       *string
	RefundAmount *int
}

type orderSeen struct {
	ID, Status       string
	Quantity         int
	RedeemedQuantity int
	UnitsLeft        int
	RedemptionCode   *string
	Payments         []paymentSeen
	Buyer            *struct{ ID, NickName string }
}

const orderSeenFields = `id status quantity redeemedQuantity unitsLeft redemptionCode payments { id status amount reason refundAmount } buyer { id nickName }`

func orderAsSeen(t *testing.T, c testsupport.GraphQLClient, id string) orderSeen {
	t.Helper()
	var out struct{ Order *orderSeen }
	c.Do(t, `query($id: ID!) { order(id: $id) { `+orderSeenFields+` } }`, map[string]any{"id": id}).Decode(t, &out)
	if out.Order == nil {
		t.Fatalf("order %s not found", id)
	}
	return *out.Order
}

// orderEvent is one event of an orderStatus subscription.
type orderEvent struct{ Status, Reason string }

// watchOrder opens orderStatus over graphql-transport-ws and hands on its events until
// the server completes it (the channel is closed then).
func watchOrder(t *testing.T, baseURL, token, orderID string) <-chan orderEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(baseURL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		cancel()
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { cancel(); conn.CloseNow() })
	send := func(v any) {
		b, _ := json.Marshal(v)
		if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	send(map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer " + token}})
	send(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
		"query":     `subscription($id: ID!) { orderStatus(orderId: $id) { orderId status reason } }`,
		"variables": map[string]any{"id": orderID},
	}})
	out := make(chan orderEvent, 16)
	go func() {
		defer close(out)
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				return
			}
			var m struct {
				Type    string
				Payload json.RawMessage
			}
			_ = json.Unmarshal(data, &m)
			switch m.Type {
			case "next":
				var p struct {
					Data *struct {
						OrderStatus struct {
							Status string
							Reason *string
						}
					}
				}
				_ = json.Unmarshal(m.Payload, &p)
				if p.Data != nil {
					e := orderEvent{Status: p.Data.OrderStatus.Status}
					if p.Data.OrderStatus.Reason != nil {
						e.Reason = *p.Data.OrderStatus.Reason
					}
					out <- e
				}
			case "error", "complete":
				return
			}
		}
	}()
	return out
}

// wantEvents reads the subscription's events until it has each of want, in order, and
// fails on any other.
func wantEvents(t *testing.T, events <-chan orderEvent, want ...orderEvent) {
	t.Helper()
	for _, w := range want {
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatalf("subscription ended, want %+v", w)
			}
			if e != w {
				t.Fatalf("event %+v, want %+v", e, w)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no event, want %+v", w)
		}
	}
}

// wantCompleted waits for the subscription to complete with no further event.
func wantCompleted(t *testing.T, events <-chan orderEvent) {
	t.Helper()
	select {
	case e, ok := <-events:
		if ok {
			t.Fatalf("event %+v, want the subscription completed", e)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("subscription not completed")
	}
}

// A declined payment shows on the order (FAILED, with the provider's reason) and tells
// the orderStatus subscribers (PAYMENT_DECLINED, the order still CREATED); a payment that
// succeeds after the buyer canceled is refunded, and the buyer sees the refund and is
// told of it. The shop's merchant sees the payments and the buyer's public profile.
func TestOrderPaymentsAreShownOverHTTP(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, n *orderDetailsNode) {
		alice, aliceID := n.user(t, "13900000203")
		bob, _ := n.user(t, "13900000204")
		order, amount := buy(t, alice, n.voucher(t, 1000), 1)
		events := watchOrder(t, n.srv.URL, alice.Token, order)
		wantEvents(t, events, orderEvent{Status: "CREATED"})

		declined := startPaying(t, alice, order)
		n.notify(t, declined, "FAILED", 0, "card declined")
		wantEvents(t, events, orderEvent{Status: "CREATED", Reason: "PAYMENT_DECLINED"})
		seen := orderAsSeen(t, alice, order)
		if seen.Status != "CREATED" || len(seen.Payments) != 1 || seen.Payments[0].ID != declined || seen.Payments[0].Status != "FAILED" ||
			seen.Payments[0].Reason == nil || *seen.Payments[0].Reason != "card declined" || seen.Payments[0].Amount != amount {
			t.Fatalf("order after a declined payment: %+v", seen)
		}
		if seen.Buyer == nil || seen.Buyer.ID != aliceID {
			t.Errorf("buyer as the buyer sees it: %+v", seen.Buyer)
		}

		// Paying again, then canceling before the provider answers: the late success is
		// refunded.
		late := startPaying(t, alice, order)
		var canceled struct{ CancelOrder struct{ Status string } }
		alice.Do(t, `mutation($o: ID!) { cancelOrder(orderId: $o) { status } }`, map[string]any{"o": order}).Decode(t, &canceled)
		wantEvents(t, events, orderEvent{Status: "CANCELED", Reason: "BUYER"})
		n.notify(t, late, "SUCCEEDED", amount, "")
		wantEvents(t, events, orderEvent{Status: "CANCELED", Reason: "PAYMENT_REFUNDED"})
		wantCompleted(t, events)
		seen = orderAsSeen(t, alice, order)
		if seen.Status != "CANCELED" || len(seen.Payments) != 2 || seen.Payments[1].ID != late || seen.Payments[1].Status != "REFUNDED" ||
			seen.Payments[1].RefundAmount == nil || *seen.Payments[1].RefundAmount != amount || seen.Payments[1].Reason == nil {
			t.Fatalf("canceled order after a late payment: %+v", seen)
		}
		// A subscription opened now has nothing more to wait for.
		again := watchOrder(t, n.srv.URL, alice.Token, order)
		wantEvents(t, again, orderEvent{Status: "CANCELED"})
		wantCompleted(t, again)

		// The shop's merchant sees the payments and who bought; another buyer sees nothing.
		var shopOrders struct {
			ShopOrders struct{ Edges []struct{ Node orderSeen } }
		}
		n.merchant.Do(t, `{ shopOrders(shopId: "1") { edges { node { `+orderSeenFields+` } } } }`, nil).Decode(t, &shopOrders)
		if len(shopOrders.ShopOrders.Edges) != 1 {
			t.Fatalf("shopOrders: %+v", shopOrders)
		}
		m := shopOrders.ShopOrders.Edges[0].Node
		if m.ID != order || len(m.Payments) != 2 || m.Payments[0].Status != "FAILED" || m.Payments[1].Status != "REFUNDED" ||
			m.Buyer == nil || m.Buyer.ID != aliceID || m.Buyer.NickName == "" {
			t.Errorf("the order as the shop's merchant sees it: %+v", m)
		}
		var other struct{ Order *orderSeen }
		bob.Do(t, `query($id: ID!) { order(id: $id) { id } }`, map[string]any{"id": order}).Decode(t, &other)
		if other.Order != nil {
			t.Errorf("another user sees the order: %+v", other.Order)
		}
	})
}

// An order of several units is redeemed unit by unit with its one code: it stays PAID
// (code and all) while units are left and becomes USED with the last; a 1-unit order is
// USED at the first redemption, as before; a refund takes the units not redeemed only.
func TestRedeemUnitByUnitOverHTTP(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, n *orderDetailsNode) {
		alice, _ := n.user(t, "13900000205")
		voucher := n.voucher(t, 500)
		redeem := `mutation($c: String!, $q: Int) { redeemOrder(code: $c, quantity: $q) { ` + orderSeenFields + ` } }`
		redeemOne := `mutation($c: String!) { redeemOrder(code: $c) { ` + orderSeenFields + ` } }`

		three, amount := buy(t, alice, voucher, 3)
		n.pay(t, alice, three, amount)
		code := *orderAsSeen(t, alice, three).RedemptionCode
		var out struct{ RedeemOrder orderSeen }
		n.merchant.Do(t, redeem, map[string]any{"c": code, "q": 2}).Decode(t, &out)
		if o := out.RedeemOrder; o.Status != "PAID" || o.RedeemedQuantity != 2 || o.UnitsLeft != 1 || o.Quantity != 3 {
			t.Fatalf("after redeeming 2 of 3 units: %+v", o)
		}
		if o := orderAsSeen(t, alice, three); o.RedemptionCode == nil || *o.RedemptionCode != code || o.UnitsLeft != 1 {
			t.Errorf("the buyer's order with a unit left: %+v", o)
		}
		wantCode(t, "redeeming more units than are left", n.merchant.Do(t, redeem, map[string]any{"c": code, "q": 2}), "CONFLICT")
		wantCode(t, "redeeming no unit", n.merchant.Do(t, redeem, map[string]any{"c": code, "q": 0}), "BAD_USER_INPUT")
		n.merchant.Do(t, redeemOne, map[string]any{"c": code}).Decode(t, &out)
		if o := out.RedeemOrder; o.Status != "USED" || o.RedeemedQuantity != 3 || o.UnitsLeft != 0 {
			t.Fatalf("after redeeming the last unit: %+v", o)
		}
		wantCode(t, "redeeming a used order", n.merchant.Do(t, redeemOne, map[string]any{"c": code}), "CONFLICT")

		one, amount := buy(t, alice, voucher, 1)
		n.pay(t, alice, one, amount)
		n.merchant.Do(t, redeemOne, map[string]any{"c": *orderAsSeen(t, alice, one).RedemptionCode}).Decode(t, &out)
		if o := out.RedeemOrder; o.Status != "USED" || o.RedeemedQuantity != 1 || o.UnitsLeft != 0 {
			t.Fatalf("a 1-unit order redeemed as before: %+v", o)
		}

		partly, amount := buy(t, alice, voucher, 3)
		n.pay(t, alice, partly, amount)
		n.merchant.Do(t, redeemOne, map[string]any{"c": *orderAsSeen(t, alice, partly).RedemptionCode}).Decode(t, &out)
		var refunded struct{ RequestRefund orderSeen }
		alice.Do(t, `mutation($o: ID!) { requestRefund(orderId: $o, reason: "too many") { `+orderSeenFields+` } }`,
			map[string]any{"o": partly}).Decode(t, &refunded)
		r := refunded.RequestRefund
		if r.Status != "REFUNDED" || r.RedeemedQuantity != 1 || r.UnitsLeft != 0 || len(r.Payments) != 1 ||
			r.Payments[0].Status != "REFUNDED" || r.Payments[0].RefundAmount == nil || *r.Payments[0].RefundAmount != 1000 {
			t.Fatalf("refund of an order with 1 of 3 units redeemed: %+v", r)
		}
	})
}

// Shop.sold counts the units of the shop's paid and used orders, less those refunded:
// paying moves it, redeeming does not, a refund takes the units not redeemed back, and a
// flash sale that costs nothing counts its claims once written.
func TestShopSoldCountsUnitsOverHTTP(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, n *orderDetailsNode) {
		alice, _ := n.user(t, "13900000206")
		bob, _ := n.user(t, "13900000207")
		sold := func() int {
			var out struct{ Shop struct{ Sold int } }
			n.anon.Do(t, `{ shop(id: "1") { sold } }`, nil).Decode(t, &out)
			return out.Shop.Sold
		}
		wantSold := func(what string, want int) {
			t.Helper()
			deadline := time.Now().Add(10 * time.Second)
			for got := sold(); got != want; got = sold() {
				if time.Now().After(deadline) {
					t.Fatalf("%s: sold %d, want %d", what, got, want)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		start := sold()
		voucher := n.voucher(t, 700)
		three, amount := buy(t, alice, voucher, 3)
		wantSold("an unpaid order", start)
		n.pay(t, alice, three, amount)
		wantSold("3 units paid", start+3)
		var out struct{ RedeemOrder struct{ Status string } }
		n.merchant.Do(t, `mutation($c: String!) { redeemOrder(code: $c) { status } }`,
			map[string]any{"c": *orderAsSeen(t, alice, three).RedemptionCode}).Decode(t, &out)
		wantSold("a unit redeemed", start+3)
		var refunded struct{ RequestRefund struct{ Status string } }
		alice.Do(t, `mutation($o: ID!) { requestRefund(orderId: $o) { status } }`, map[string]any{"o": three}).Decode(t, &refunded)
		wantSold("the order refunded with 1 of 3 units redeemed", start+1)

		var sale struct{ CreateFlashSale struct{ ID string } }
		n.merchant.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, saleInput("1", 0)).Decode(t, &sale)
		var claim claimAnswer
		bob.Do(t, claimMutation, map[string]any{"v": sale.CreateFlashSale.ID}).Decode(t, &claim)
		if got := waitOrder(t, bob, claim.ClaimVoucher.OrderID); got != "PAID" {
			t.Fatalf("a free claim's order ended %s", got)
		}
		wantSold("a free flash sale's order written", start+2)
	})
}

// voucher(id) answers anyone with one voucher and its shop; null for an unknown id.
func TestVoucherByIDOverHTTP(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, n *orderDetailsNode) {
		id := n.voucher(t, 990)
		var out struct {
			Voucher *struct {
				ID, Title string
				PayValue  int
				Shop      struct{ ID, Name string }
			}
		}
		n.anon.Do(t, `query($id: ID!) { voucher(id: $id) { id title payValue shop { id name } } }`, map[string]any{"id": id}).Decode(t, &out)
		if v := out.Voucher; v == nil || v.ID != id || v.Title != "套餐" || v.PayValue != 990 || v.Shop.ID != "1" || v.Shop.Name == "" {
			t.Fatalf("voucher(%s): %+v", id, out.Voucher)
		}
		n.anon.Do(t, `{ voucher(id: "987654321") { id } }`, nil).Decode(t, &out)
		if out.Voucher != nil {
			t.Errorf("an unknown voucher: %+v, want null", out.Voucher)
		}
	})
}

// Once a flash sale has begun (and has orders), its beginTime cannot move (into the
// future least of all); its endTime may move later, and an endTime already past ends it
// now, not before the claims it took.
func TestUpdateStartedFlashSaleOverHTTP(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, n *orderDetailsNode) {
		alice, _ := n.user(t, "13900000208")
		now := time.Now().Truncate(time.Millisecond)
		var sale struct{ CreateFlashSale struct{ ID string } }
		n.merchant.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, saleInput("1", 100)).Decode(t, &sale)
		vid := sale.CreateFlashSale.ID
		var claim claimAnswer
		alice.Do(t, claimMutation, map[string]any{"v": vid}).Decode(t, &claim)
		waitOrder(t, alice, claim.ClaimVoucher.OrderID)
		update := `mutation($in: UpdateFlashSaleInput!) { updateFlashSale(input: $in) { id beginTime endTime } }`
		at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339Nano) }
		wantCode(t, "moving a begun sale into the future", n.merchant.Do(t, update,
			map[string]any{"in": map[string]any{"voucherId": vid, "beginTime": at(time.Hour), "endTime": at(2 * time.Hour)}}), "CONFLICT")
		wantCode(t, "moving a begun sale's beginTime earlier", n.merchant.Do(t, update,
			map[string]any{"in": map[string]any{"voucherId": vid, "beginTime": at(-time.Hour)}}), "CONFLICT")
		var out struct {
			UpdateFlashSale struct {
				ID                 string
				BeginTime, EndTime time.Time
			}
		}
		n.merchant.Do(t, update, map[string]any{"in": map[string]any{"voucherId": vid, "endTime": at(3 * time.Hour)}}).Decode(t, &out)
		if !out.UpdateFlashSale.EndTime.Equal(now.Add(3 * time.Hour)) {
			t.Errorf("a begun sale's end moved later: %+v", out.UpdateFlashSale)
		}
		before := time.Now().Add(-time.Millisecond)
		n.merchant.Do(t, update, map[string]any{"in": map[string]any{"voucherId": vid, "endTime": at(-time.Minute)}}).Decode(t, &out)
		if end := out.UpdateFlashSale.EndTime; end.Before(before) || end.After(time.Now()) {
			t.Errorf("a begun sale ended in the past: %+v, want it ended now", out.UpdateFlashSale)
		}
		bob, _ := n.user(t, "13900000209")
		wantCode(t, "a claim after the sale was ended", bob.Do(t, claimMutation, map[string]any{"v": vid}), "ENDED")
		// A sale still to come may move.
		later := createFlashSale(t, n.admin, 5, now.Add(time.Hour), now.Add(2*time.Hour))
		n.merchant.Do(t, update, map[string]any{"in": map[string]any{"voucherId": later, "beginTime": at(90 * time.Minute)}}).Decode(t, &out)
		if !out.UpdateFlashSale.BeginTime.Equal(now.Add(90 * time.Minute)) {
			t.Errorf("a sale still to come moved: %+v", out.UpdateFlashSale)
		}
	})
}
