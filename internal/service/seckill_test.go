package service_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dealspot/dealspot/internal/testsupport"
)

const claimMutation = `mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`

type claimAnswer struct {
	ClaimVoucher struct{ OrderID, Status string }
}

// createFlashSale makes a sale on shop 1 as an admin and returns its voucher id.
func createFlashSale(t testing.TB, admin testsupport.GraphQLClient, stock int, begin, end time.Time) string {
	t.Helper()
	var out struct{ CreateFlashSale struct{ ID string } }
	admin.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": "秒杀券", "subtitle": "限量", "rules": "每人一张", "payValue": 100, "actualValue": 10000,
		"stock": stock, "beginTime": begin.Format(time.RFC3339Nano), "endTime": end.Format(time.RFC3339Nano),
	}}).Decode(t, &out)
	return out.CreateFlashSale.ID
}

// waitOrder polls order(id) until it is no longer PENDING.
func waitOrder(t *testing.T, c testsupport.GraphQLClient, id string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var out struct{ Order *struct{ ID, Status string } }
		c.Do(t, `query($id: ID!) { order(id: $id) { id status } }`, map[string]any{"id": id}).Decode(t, &out)
		if out.Order == nil {
			t.Fatalf("order %s not found", id)
		}
		if out.Order.Status != "PENDING" || time.Now().After(deadline) {
			return out.Order.Status
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestClaimFlashSaleEndToEnd(t *testing.T) {
	t.Parallel()
	const adminPhone = "13900000001"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone})
	anon := client(srv)
	admin := client(srv)
	admin.Token = login(t, anon, adminPhone).AccessToken
	alice := client(srv)
	alice.Token = login(t, anon, "13900000002").AccessToken
	bob := client(srv)
	bob.Token = login(t, anon, "13900000003").AccessToken

	now := time.Now()
	live := createFlashSale(t, admin, 1, now.Add(-time.Minute), now.Add(time.Hour))
	later := createFlashSale(t, admin, 5, now.Add(time.Hour), now.Add(2*time.Hour))
	overAt := now.Add(3 * time.Second)
	over := createFlashSale(t, admin, 5, now.Add(-time.Hour), overAt)

	var a claimAnswer
	alice.Do(t, claimMutation, map[string]any{"v": live}).Decode(t, &a)
	if a.ClaimVoucher.Status != "PENDING" || a.ClaimVoucher.OrderID == "" {
		t.Fatalf("claim = %+v", a)
	}
	if got := waitOrder(t, alice, a.ClaimVoucher.OrderID); got != "CREATED" {
		t.Fatalf("order ended %s, want CREATED", got)
	}
	// Someone else's order is invisible.
	var other struct{ Order *struct{ ID string } }
	bob.Do(t, `query($id: ID!) { order(id: $id) { id } }`, map[string]any{"id": a.ClaimVoucher.OrderID}).Decode(t, &other)
	if other.Order != nil {
		t.Error("another user sees alice's order")
	}

	cases := []struct {
		name string
		c    testsupport.GraphQLClient
		vid  string
		code string
	}{
		{"second claim by the holder, sold out", alice, live, "ALREADY_CLAIMED"},
		{"claim of a sold-out sale", bob, live, "SOLD_OUT"},
		{"holder again, now that the sale is marked sold out", alice, live, "ALREADY_CLAIMED"},
		{"sale not started", bob, later, "NOT_STARTED"},
		{"sale ended", bob, over, "ENDED"},
		{"unknown voucher", bob, "999999", "NOT_FOUND"},
		{"malformed voucher id", bob, "x", "BAD_USER_INPUT"},
		{"anonymous", anon, live, "UNAUTHENTICATED"},
	}
	time.Sleep(time.Until(overAt))
	for _, tc := range cases {
		wantCode(t, tc.name, tc.c.Do(t, claimMutation, map[string]any{"v": tc.vid}), tc.code)
	}

	var vs struct {
		Vouchers []struct {
			ID    string
			Stock *int
		}
	}
	anon.Do(t, `{ vouchers(shopId: "1") { id stock } }`, nil).Decode(t, &vs)
	for _, v := range vs.Vouchers {
		if v.ID == live && (v.Stock == nil || *v.Stock != 0) {
			t.Errorf("sold-out sale shows stock %v", v.Stock)
		}
	}
	var mine struct {
		MyOrders struct {
			Edges []struct{ Node struct{ ID, Status string } }
		}
	}
	alice.Do(t, `{ myOrders(first: 10) { edges { node { id status } } } }`, nil).Decode(t, &mine)
	if len(mine.MyOrders.Edges) != 1 || mine.MyOrders.Edges[0].Node.ID != a.ClaimVoucher.OrderID {
		t.Errorf("myOrders = %+v", mine.MyOrders)
	}
	wantCode(t, "createFlashSale as a user", bob.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": "x", "payValue": 1, "actualValue": 2, "stock": 1,
		"beginTime": now.Format(time.RFC3339), "endTime": now.Add(time.Hour).Format(time.RFC3339),
	}}), "FORBIDDEN")
	wantCode(t, "flash sale ending before it begins", admin.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": "x", "payValue": 1, "actualValue": 2, "stock": 1,
		"beginTime": now.Add(time.Hour).Format(time.RFC3339), "endTime": now.Format(time.RFC3339),
	}}), "BAD_USER_INPUT")
}

func TestOrderStatusSubscription(t *testing.T) {
	t.Parallel()
	const adminPhone = "13900000011"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone})
	anon := client(srv)
	admin := client(srv)
	admin.Token = login(t, anon, adminPhone).AccessToken
	alice := client(srv)
	alice.Token = login(t, anon, "13900000012").AccessToken
	bobToken := login(t, anon, "13900000013").AccessToken
	vid := createFlashSale(t, admin, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))

	var a claimAnswer
	alice.Do(t, claimMutation, map[string]any{"v": vid}).Decode(t, &a)
	statuses, errs := subscribeOrder(t, srv.URL, alice.Token, a.ClaimVoucher.OrderID)
	if len(errs) > 0 {
		t.Fatalf("subscription errors: %v", errs)
	}
	if len(statuses) == 0 || statuses[len(statuses)-1] != "CREATED" {
		t.Fatalf("statuses %v, want … CREATED last", statuses)
	}
	if statuses[0] != "PENDING" && statuses[0] != "CREATED" {
		t.Errorf("first status %s", statuses[0])
	}
	// Bob learns nothing of alice's order.
	statuses, errs = subscribeOrder(t, srv.URL, bobToken, a.ClaimVoucher.OrderID)
	if len(statuses) != 0 || len(errs) == 0 || !strings.Contains(strings.Join(errs, " "), "NOT_FOUND") {
		t.Errorf("another user's subscription got %v, errors %v; want only NOT_FOUND", statuses, errs)
	}
}

// subscribeOrder runs orderStatus over graphql-transport-ws until the server completes
// it or the order is written (CREATED, after which the subscription follows the order
// on), returning the statuses received and the error codes.
func subscribeOrder(t *testing.T, baseURL, token, orderID string) (statuses, errs []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(baseURL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.CloseNow()
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
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v (statuses so far %v)", err, statuses)
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
					OrderStatus struct{ OrderID, Status string }
				}
				Errors []testsupport.GQLError
			}
			_ = json.Unmarshal(m.Payload, &p)
			for _, e := range p.Errors {
				errs = append(errs, e.Code())
			}
			if p.Data != nil {
				if p.Data.OrderStatus.OrderID != orderID {
					t.Errorf("event of order %s on a subscription to %s", p.Data.OrderStatus.OrderID, orderID)
				}
				statuses = append(statuses, p.Data.OrderStatus.Status)
				if p.Data.OrderStatus.Status == "CREATED" {
					return statuses, errs
				}
			}
		case "error":
			var p []testsupport.GQLError
			_ = json.Unmarshal(m.Payload, &p)
			for _, e := range p {
				errs = append(errs, e.Code())
			}
			return statuses, errs
		case "complete":
			return statuses, errs
		}
	}
}

// metricValue returns the value of the sample named exactly series in a /metrics body.
func metricValue(t *testing.T, body, series string) float64 {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				t.Fatalf("metric %s: %q", series, line)
			}
			return v
		}
	}
	t.Fatalf("no metric %s in:\n%s", series, grepLines(body, "dealspot_"))
	return 0
}

// The claim path's shortcuts show on /metrics: remembered tokens as cache hits, and the
// sizes of the batches session checks and claims went to Redis in.
func TestClaimPathMetrics(t *testing.T) {
	t.Parallel()
	const adminPhone = "13900000011"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone})
	anon := client(srv)
	admin := client(srv)
	admin.Token = login(t, anon, adminPhone).AccessToken
	alice := client(srv)
	alice.Token = login(t, anon, "13900000012").AccessToken
	sale := createFlashSale(t, admin, 5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	for range 3 {
		if u, resp := me(t, alice, alice.Token); u == nil {
			t.Fatalf("me: %+v", resp.Errors)
		}
	}
	var a claimAnswer
	alice.Do(t, claimMutation, map[string]any{"v": sale}).Decode(t, &a)
	if a.ClaimVoucher.Status != "PENDING" {
		t.Fatalf("claim = %+v", a)
	}

	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	body := string(raw)
	// Alice's token: verified once, then found for two more me and the claim.
	if hits := metricValue(t, body, `dealspot_cache_hits_total{cache="access_tokens",layer="l1"}`); hits < 3 {
		t.Errorf("access token cache hits = %v, want at least 3", hits)
	}
	if n := metricValue(t, body, `dealspot_redis_batch_size_count{batcher="session_check"}`); n < 1 {
		t.Errorf("no session check batch observed")
	}
	if n := metricValue(t, body, `dealspot_redis_batch_size_count{batcher="gate"}`); n < 1 {
		t.Errorf("no gate batch observed")
	}
}
