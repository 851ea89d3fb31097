package service_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// A redemption sent again with its requestId (the merchant's request timed out, the app
// retries) answers the order as it stands and redeems nothing more, however many copies
// arrive at once; another requestId redeems again; a requestId reused with another
// quantity is refused. The keys outlive the requests: they are stored with the
// redemption, on each relational store.
func TestRedeemRequestIDRedeemsOnceOverHTTP(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, n *orderDetailsNode) {
		alice, _ := n.user(t, "13900000210")
		voucher := n.voucher(t, 300)
		order, amount := buy(t, alice, voucher, 6)
		n.pay(t, alice, order, amount)
		code := *orderAsSeen(t, alice, order).RedemptionCode
		const redeem = `mutation($c: String!, $q: Int, $r: String) { redeemOrder(code: $c, quantity: $q, requestId: $r) { ` + orderSeenFields + ` } }`
		send := func(requestID string, quantity int) testsupport.GQLResponse {
			return n.merchant.Do(t, redeem, map[string]any{"c": code, "q": quantity, "r": requestID})
		}
		redeemed := func(what string, resp testsupport.GQLResponse, status string, want int) {
			t.Helper()
			var out struct{ RedeemOrder orderSeen }
			resp.Decode(t, &out)
			if o := out.RedeemOrder; o.ID != order || o.Status != status || o.RedeemedQuantity != want || o.UnitsLeft != 6-want {
				t.Errorf("%s: %+v, want %s with %d of 6 units redeemed", what, o, status, want)
			}
		}

		redeemed("a first request", send("till-7_0001", 1), "PAID", 1)
		redeemed("the same request again", send("till-7_0001", 1), "PAID", 1)

		// Copies of one request racing: one unit between them, each answered the order.
		const copies = 12
		resps := make([]testsupport.GQLResponse, copies)
		var wg sync.WaitGroup
		for i := range copies {
			wg.Go(func() { resps[i] = send("till-7_0002", 1) })
		}
		wg.Wait()
		for i, resp := range resps {
			if len(resp.Errors) > 0 {
				t.Errorf("copy %d of a racing request: %+v", i, resp.Errors)
			}
		}
		if o := orderAsSeen(t, alice, order); o.RedeemedQuantity != 2 {
			t.Fatalf("after %d copies of one request: %d units redeemed, want 2", copies, o.RedeemedQuantity)
		}

		redeemed("another request", send("till-7_0003", 2), "PAID", 4)
		wantCode(t, "a requestId reused with another quantity", send("till-7_0003", 1), "BAD_USER_INPUT")
		wantCode(t, "a requestId reused with another quantity", send("till-7_0001", 2), "BAD_USER_INPUT")
		for _, bad := range []string{"", "has space", "ключ", "a/b", strings.Repeat("k", 65)} {
			wantCode(t, "requestId "+bad, send(bad, 1), "BAD_USER_INPUT")
		}
		redeemed("a requestId of 64 characters", send(strings.Repeat("k", 64), 1), "PAID", 5)

		// The request that redeems the last unit, sent again, answers the USED order; a
		// redemption without a requestId is refused as before.
		redeemed("the last unit", send("till-7_0004", 1), "USED", 6)
		redeemed("the last unit's request again", send("till-7_0004", 1), "USED", 6)
		redeemed("an earlier request again", send("till-7_0002", 1), "USED", 6)
		wantCode(t, "redeeming a used order without a requestId", n.merchant.Do(t,
			`mutation($c: String!) { redeemOrder(code: $c) { id } }`, map[string]any{"c": code}), "CONFLICT")
		wantCode(t, "a new request on a used order", send("till-7_0005", 1), "CONFLICT")

		// A key belongs to its order: another order's redemption under it redeems.
		other, amount := buy(t, alice, voucher, 2)
		n.pay(t, alice, other, amount)
		var out struct{ RedeemOrder orderSeen }
		n.merchant.Do(t, redeem, map[string]any{"c": *orderAsSeen(t, alice, other).RedemptionCode, "q": 1, "r": "till-7_0001"}).Decode(t, &out)
		if o := out.RedeemOrder; o.ID != other || o.RedeemedQuantity != 1 {
			t.Errorf("another order under a key used before: %+v", o)
		}
		// A refused request (more units than are left) keeps no key: the key is free for
		// the request that follows.
		otherCode := *orderAsSeen(t, alice, other).RedemptionCode
		wantCode(t, "2 units of the 1 left", n.merchant.Do(t, redeem, map[string]any{"c": otherCode, "q": 2, "r": "till-7_0006"}), "CONFLICT")
		n.merchant.Do(t, redeem, map[string]any{"c": otherCode, "q": 1, "r": "till-7_0006"}).Decode(t, &out)
		if o := out.RedeemOrder; o.Status != "USED" || o.RedeemedQuantity != 2 {
			t.Errorf("a key of a refused request, used for the last unit: %+v", o)
		}
	})
}
