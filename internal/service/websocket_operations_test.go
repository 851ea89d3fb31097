package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dealspot/dealspot/internal/testsupport"
)

const orderStatusSubscription = `subscription($id: ID!) { orderStatus(orderId: $id) { status } }`

// subscribe starts operation id on ws and waits for its first answer: nil codes when it
// delivered a result, the error codes of an `error` message (or of a result's errors)
// when it was refused. Messages of the socket's other operations are skipped.
func (c *wsConn) subscribe(id, query string, vars map[string]any) (codes []string, closeCode websocket.StatusCode) {
	c.t.Helper()
	c.send(map[string]any{"type": "subscribe", "id": id, "payload": map[string]any{"query": query, "variables": vars}})
	for {
		_, data, err := c.conn.Read(c.ctx)
		if err != nil {
			return nil, websocket.CloseStatus(err)
		}
		var m struct {
			Type, ID string
			Payload  json.RawMessage
		}
		_ = json.Unmarshal(data, &m)
		if m.ID != id {
			continue
		}
		switch m.Type {
		case "next":
			var r struct {
				Errors []struct{ Extensions struct{ Code string } }
			}
			_ = json.Unmarshal(m.Payload, &r)
			for _, e := range r.Errors {
				codes = append(codes, e.Extensions.Code)
			}
			return codes, -1
		case "error":
			var errs []struct{ Extensions struct{ Code string } }
			_ = json.Unmarshal(m.Payload, &errs)
			for _, e := range errs {
				codes = append(codes, e.Extensions.Code)
			}
			if len(codes) == 0 {
				codes = []string{"(no code)"}
			}
			return codes, -1
		case "complete":
			return []string{"(completed at once)"}, -1
		}
	}
}

// pendingOrder claims a sale nobody consumes, so the order stays PENDING and its
// orderStatus subscriptions stay open and quiet.
func pendingOrder(t *testing.T, srv *httptest.Server, admin testsupport.GraphQLClient, token string) string {
	t.Helper()
	vid := createFlashSale(t, admin, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	buyer := client(srv)
	buyer.Token = token
	var a claimAnswer
	buyer.Do(t, claimMutation, map[string]any{"v": vid}).Decode(t, &a)
	return a.ClaimVoucher.OrderID
}

// TestWebsocketOperationLimits: a socket holds at most WS_MAX_OPERATIONS_PER_SOCKET
// operations and a user at most WS_MAX_OPERATIONS_PER_USER over all their sockets; the
// one over is refused with an `error` message coded RATE_LIMITED, and the socket stays
// open for the others (a finished operation frees its slot).
func TestWebsocketOperationLimits(t *testing.T) {
	t.Parallel()
	const adminPhone = "13300004440"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
		"ORDER_CONSUMER": "false", "ORDER_STATUS_RECHECK": "0",
		"WS_MAX_OPERATIONS_PER_SOCKET": "3", "WS_MAX_OPERATIONS_PER_USER": "5"})
	admin := client(srv)
	admin.Token = login(t, client(srv), adminPhone).AccessToken
	alice := login(t, client(srv), "13300004441")
	bob := login(t, client(srv), "13300004442")
	order := pendingOrder(t, srv, admin, alice.AccessToken)
	vars := map[string]any{"id": order}

	subscribed := func(t *testing.T, ws *wsConn, id string) {
		t.Helper()
		if codes, code := ws.subscribe(id, orderStatusSubscription, vars); len(codes) > 0 || code != -1 {
			t.Fatalf("subscription %s: codes %v, close %d; want it running", id, codes, code)
		}
	}
	refused := func(t *testing.T, ws *wsConn, id string) {
		t.Helper()
		codes, code := ws.subscribe(id, orderStatusSubscription, vars)
		if code != -1 || len(codes) != 1 || codes[0] != "RATE_LIMITED" {
			t.Fatalf("subscription %s over the limit: codes %v, close %d; want an error RATE_LIMITED on an open socket", id, codes, code)
		}
	}

	// Per socket.
	a1 := wsOpen(t, srv, alice.AccessToken)
	for i := range 3 {
		subscribed(t, a1, fmt.Sprintf("a1-%d", i))
	}
	refused(t, a1, "a1-over")
	// The socket is still usable: ending one subscription frees its slot.
	a1.send(map[string]any{"type": "complete", "id": "a1-0"})
	deadline := time.Now().Add(20 * time.Second)
	for i := 0; ; i++ {
		codes, code := a1.subscribe(fmt.Sprintf("a1-again-%d", i), orderStatusSubscription, vars)
		if code != -1 {
			t.Fatalf("socket closed (%d) after a refused subscription", code)
		}
		if len(codes) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a completed subscription's slot was not freed: %v", codes)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Per user, across sockets: 3 on a1, 2 more on a2, then none.
	a2 := wsOpen(t, srv, alice.AccessToken)
	subscribed(t, a2, "a2-0")
	subscribed(t, a2, "a2-1")
	refused(t, a2, "a2-over")
	a3 := wsOpen(t, srv, alice.AccessToken)
	refused(t, a3, "a3-over")

	// Another user is not affected (a query counts as an operation too, while it runs).
	b := wsOpen(t, srv, bob.AccessToken)
	if codes, code := b.query("b-0", `{ me { id } }`); len(codes) > 0 || code != -1 {
		t.Fatalf("another user's query: codes %v, close %d", codes, code)
	}
}

// TestSaleStatsEndsWhenAccessIsLost: an open saleStats subscription stops as soon as its
// viewer no longer runs the sale's shop, or is no longer a merchant: the socket is
// closed with 4403 and nothing more is pushed.
func TestSaleStatsEndsWhenAccessIsLost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, merchantPhone, otherPhone string
		take                            func(t *testing.T, admin testsupport.GraphQLClient, merchant, other string)
	}{
		{"the shop is given to someone else", "13900000161", "13900000162", func(t *testing.T, admin testsupport.GraphQLClient, _, other string) {
			var out struct{ SetShopOwner struct{ ID string } }
			admin.Do(t, `mutation($s: ID!, $u: ID!) { setShopOwner(shopId: $s, userId: $u) { id } }`,
				map[string]any{"s": "1", "u": other}).Decode(t, &out)
		}},
		{"the merchant role is taken away", "13900000163", "13900000164", func(t *testing.T, admin testsupport.GraphQLClient, merchant, _ string) {
			var out struct{ SetRole struct{ ID string } }
			admin.Do(t, `mutation($u: ID!) { setRole(userId: $u, role: USER) { id } }`,
				map[string]any{"u": merchant}).Decode(t, &out)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const adminPhone = "13900000160"
			// The session watcher would take an hour: only the check before a push can end it.
			srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
				"SALE_STATS_INTERVAL": "100ms", "WS_SESSION_CHECK_INTERVAL": "1h"})
			anon := client(srv)
			admin, merchant := client(srv), client(srv)
			admin.Token = login(t, anon, adminPhone).AccessToken
			m, o := login(t, anon, tc.merchantPhone), login(t, anon, tc.otherPhone)
			var own struct{ SetShopOwner struct{ ID string } }
			admin.Do(t, `mutation($s: ID!, $u: ID!) { setShopOwner(shopId: $s, userId: $u) { id } }`,
				map[string]any{"s": "1", "u": m.User.ID}).Decode(t, &own)
			merchant.Token = m.AccessToken
			var sale struct{ CreateFlashSale struct{ ID string } }
			merchant.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, saleInput("1", 500)).Decode(t, &sale)

			ws := wsOpen(t, srv, m.AccessToken)
			sub := fmt.Sprintf(`subscription { saleStats(voucherId: %q) { remaining at } }`, sale.CreateFlashSale.ID)
			if codes, code := ws.subscribe("s", sub, nil); len(codes) > 0 || code != -1 {
				t.Fatalf("saleStats: codes %v, close %d", codes, code)
			}
			tc.take(t, admin, m.User.ID, o.User.ID)
			lostAt := time.Now()
			pushes := 0
			for {
				typ, payload, code := ws.next()
				if typ == "" {
					if code != 4403 {
						t.Fatalf("close code %d after %d pushes, want 4403", code, pushes)
					}
					break
				}
				if typ == "next" {
					pushes++
					var r struct {
						Data struct{ SaleStats struct{ At time.Time } }
					}
					_ = json.Unmarshal(payload, &r)
					// A push read before the change may still be on its way.
					if r.Data.SaleStats.At.After(lostAt.Add(time.Second)) {
						t.Fatalf("pushed numbers read at %v, after access was lost at %v", r.Data.SaleStats.At, lostAt)
					}
				}
			}
		})
	}
}

// TestWebsocketUpgradesCountPerIP: idle websocket upgrades count against WS_MAX_PER_IP
// from the moment they are upgraded: the one over is refused with HTTP 429 before any
// upgrade, and a socket that never sends connection_init is closed after
// WS_INIT_TIMEOUT.
func TestWebsocketUpgradesCountPerIP(t *testing.T) {
	t.Parallel()
	dial := func(t *testing.T, srv *httptest.Server) (*websocket.Conn, *http.Response, error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
			&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	}
	t.Run("over the per-IP limit before connection_init", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "WS_MAX_PER_IP": "2", "WS_INIT_TIMEOUT": "1m"})
		var idle []*websocket.Conn
		for range 2 {
			conn, _, err := dial(t, srv)
			if err != nil {
				t.Fatalf("idle upgrade within the limit: %v", err)
			}
			t.Cleanup(func() { conn.CloseNow() })
			idle = append(idle, conn)
		}
		conn, resp, err := dial(t, srv)
		if err == nil {
			conn.CloseNow()
			t.Fatal("a third idle upgrade from one address was accepted, want 429")
		}
		if resp == nil || resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("third upgrade: %v (%v), want HTTP 429", err, resp)
		}
		// A closed socket frees its slot.
		idle[0].Close(websocket.StatusNormalClosure, "")
		deadline := time.Now().Add(10 * time.Second)
		for {
			conn, _, err := dial(t, srv)
			if err == nil {
				conn.CloseNow()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("a closed socket's slot was not freed: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	t.Run("closed when connection_init does not come", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "WS_INIT_TIMEOUT": "100ms"})
		conn, _, err := dial(t, srv)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.CloseNow()
		// Generous: the default before was 10 s.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _, err = conn.Read(ctx)
		if err == nil || errors.Is(err, context.DeadlineExceeded) || websocket.CloseStatus(err) == -1 {
			t.Fatalf("socket without connection_init: %v; want closed by the server", err)
		}
	})
}
