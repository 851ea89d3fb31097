package service_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsConn is a graphql-transport-ws client connection past connection_ack.
type wsConn struct {
	t    *testing.T
	conn *websocket.Conn
	ctx  context.Context
}

// wsOpen opens a graphql-transport-ws connection authenticated with token.
func wsOpen(t *testing.T, srv *httptest.Server, token string) *wsConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	c := &wsConn{t: t, conn: conn, ctx: ctx}
	init := map[string]any{}
	if token != "" { // "": an anonymous socket
		init["Authorization"] = "Bearer " + token
	}
	c.send(map[string]any{"type": "connection_init", "payload": init})
	if typ, _, code := c.next(); typ != "connection_ack" {
		t.Fatalf("connection_init: got %q, close %d", typ, code)
	}
	return c
}

func (c *wsConn) send(msg map[string]any) {
	c.t.Helper()
	b, _ := json.Marshal(msg)
	if err := c.conn.Write(c.ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// next returns the next message other than a ping or pong (with close code -1), or, once
// the connection is closed, an empty type and the close code (0 when none was received).
func (c *wsConn) next() (typ string, payload json.RawMessage, closeCode websocket.StatusCode) {
	for {
		_, data, err := c.conn.Read(c.ctx)
		if err != nil {
			if code := websocket.CloseStatus(err); code != -1 {
				return "", nil, code
			}
			return "", nil, 0 // no close frame: a timeout or a dropped connection
		}
		var m struct {
			Type    string
			Payload json.RawMessage
		}
		_ = json.Unmarshal(data, &m)
		if m.Type != "ping" && m.Type != "pong" && m.Type != "ka" {
			return m.Type, m.Payload, -1
		}
	}
}

// closeCode reads until the server closes the connection, and returns its close code.
func (c *wsConn) closeCode() websocket.StatusCode {
	for {
		if _, _, code := c.next(); code != -1 {
			return code
		}
	}
}

// query runs one operation on the connection and returns the codes of its errors, or
// the close code if the server closed the connection instead.
func (c *wsConn) query(id, q string) (codes []string, closeCode websocket.StatusCode) {
	c.t.Helper()
	c.send(map[string]any{"type": "subscribe", "id": id, "payload": map[string]any{"query": q}})
	for {
		typ, payload, code := c.next()
		switch typ {
		case "":
			return nil, code
		case "next":
			var r struct {
				Errors []struct{ Extensions struct{ Code string } }
			}
			_ = json.Unmarshal(payload, &r)
			for _, e := range r.Errors {
				codes = append(codes, e.Extensions.Code)
			}
		case "error":
			var errs []struct{ Extensions struct{ Code string } }
			_ = json.Unmarshal(payload, &errs)
			for _, e := range errs {
				codes = append(codes, e.Extensions.Code)
			}
			return codes, -1
		case "complete":
			return codes, -1
		}
	}
}

func TestWebsocketEndsWithItsSession(t *testing.T) {
	t.Parallel()
	t.Run("an operation after logout is refused at once", func(t *testing.T) {
		t.Parallel()
		// The watcher would take an hour: only the per-operation check can refuse.
		srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "WS_SESSION_CHECK_INTERVAL": "1h"})
		c := client(srv)
		s := login(t, c, "13300003331")
		ws := wsOpen(t, srv, s.AccessToken)
		if codes, code := ws.query("1", `{ me { id } }`); len(codes) > 0 || code != -1 {
			t.Fatalf("query before logout: errors %v, close %d", codes, code)
		}
		c.Token = s.AccessToken
		c.Do(t, `mutation { logout }`, nil).Decode(t, &struct{}{})
		codes, code := ws.query("2", `{ me { id } }`)
		if code == -1 && (len(codes) != 1 || codes[0] != "UNAUTHENTICATED") {
			t.Fatalf("query after logout: errors %v; want UNAUTHENTICATED or a closed socket", codes)
		}
		if code == -1 {
			code = ws.closeCode()
		}
		if code != 4401 {
			t.Fatalf("close code after logout %d, want 4401", code)
		}
	})
	t.Run("an idle socket is closed after logout", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "WS_SESSION_CHECK_INTERVAL": "50ms"})
		c := client(srv)
		s := login(t, c, "13300003332")
		ws := wsOpen(t, srv, s.AccessToken)
		c.Token = s.AccessToken
		c.Do(t, `mutation { logout }`, nil).Decode(t, &struct{}{})
		start := time.Now()
		if code := ws.closeCode(); code != 4401 {
			t.Fatalf("close code %d, want 4401", code)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("closed %v after logout", d)
		}
	})
	t.Run("a blocked user's socket is closed with 4403", func(t *testing.T) {
		t.Parallel()
		srv, svc := startService(t, map[string]string{"JWT_SECRET": testSecret, "WS_SESSION_CHECK_INTERVAL": "50ms"})
		const phone = "13300003333"
		s := login(t, client(srv), phone)
		ws := wsOpen(t, srv, s.AccessToken)
		if _, err := svc.Ops.BlockUser.Handle(context.Background(), phone, true); err != nil {
			t.Fatal(err)
		}
		if code := ws.closeCode(); code != 4403 {
			t.Fatalf("close code %d, want 4403", code)
		}
	})
	t.Run("a socket is closed when its token expires", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "WS_SESSION_CHECK_INTERVAL": "1h",
			"AUTH_ACCESS_TTL": "2s", "AUTH_CLOCK_LEEWAY": "1ms"})
		s := login(t, client(srv), "13300003334")
		ws := wsOpen(t, srv, s.AccessToken)
		if code := ws.closeCode(); code != 4401 {
			t.Fatalf("close code %d, want 4401", code)
		}
		if time.Now().Before(s.ExpiresAt) {
			t.Errorf("closed before the token expired at %v", s.ExpiresAt)
		}
	})
}

func TestWebsocketConnectionLimits(t *testing.T) {
	t.Parallel()
	refused := func(t *testing.T, srv *httptest.Server, token, what string) {
		t.Helper()
		msg, code := wsInit(t, srv, map[string]any{"Authorization": "Bearer " + token})
		if msg == "connection_ack" || code != 4429 {
			t.Fatalf("%s: got %q, close %d; want refused with 4429", what, msg, code)
		}
	}
	t.Run("per user, released when a socket closes", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "WS_MAX_PER_USER": "2"})
		a := login(t, client(srv), "13300002221")
		b := login(t, client(srv), "13300002222")
		first := wsOpen(t, srv, a.AccessToken)
		wsOpen(t, srv, a.AccessToken)
		refused(t, srv, a.AccessToken, "third socket of one user")
		wsOpen(t, srv, b.AccessToken) // another user is not affected

		first.conn.Close(websocket.StatusNormalClosure, "")
		deadline := time.Now().Add(10 * time.Second)
		for {
			msg, code := wsInit(t, srv, map[string]any{"Authorization": "Bearer " + a.AccessToken})
			if msg == "connection_ack" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("a closed socket's slot was not released: %q, close %d", msg, code)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	// Per IP and in total, connections count from their upgrade: the one over is
	// refused with 429 before it is upgraded.
	upgradeRefused := func(t *testing.T, srv *httptest.Server, what string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
			&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
		if err == nil {
			conn.CloseNow()
		}
		if resp == nil || resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("%s: %v (%v); want refused with 429", what, err, resp)
		}
	}
	t.Run("per IP", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "WS_MAX_PER_IP": "2"})
		a := login(t, client(srv), "13300002223")
		b := login(t, client(srv), "13300002224")
		wsOpen(t, srv, a.AccessToken)
		wsOpen(t, srv, b.AccessToken)
		upgradeRefused(t, srv, "third socket from one address")
	})
	t.Run("in total", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "WS_MAX_CONNECTIONS": "2", "WS_MAX_PER_IP": "0"})
		a := login(t, client(srv), "13300002225")
		b := login(t, client(srv), "13300002226")
		wsOpen(t, srv, a.AccessToken)
		wsOpen(t, srv, b.AccessToken)
		upgradeRefused(t, srv, "socket over the server's total")
	})
}

// A running subscription stops when its session ends: the socket is closed with 4401
// before the order's status could ever change (nothing consumes the claim).
func TestRunningSubscriptionStopsAtLogout(t *testing.T) {
	t.Parallel()
	const adminPhone = "13300003335"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
		"ORDER_CONSUMER": "false", "WS_SESSION_CHECK_INTERVAL": "50ms"})
	admin, alice := client(srv), client(srv)
	admin.Token = login(t, client(srv), adminPhone).AccessToken
	s := login(t, client(srv), "13300003336")
	alice.Token = s.AccessToken
	vid := createFlashSale(t, admin, 10, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	var a claimAnswer
	alice.Do(t, claimMutation, map[string]any{"v": vid}).Decode(t, &a)

	ws := wsOpen(t, srv, s.AccessToken)
	ws.send(map[string]any{"type": "subscribe", "id": "s1", "payload": map[string]any{
		"query":     `subscription($id: ID!) { orderStatus(orderId: $id) { status } }`,
		"variables": map[string]any{"id": a.ClaimVoucher.OrderID},
	}})
	if typ, payload, code := ws.next(); typ != "next" || !strings.Contains(string(payload), "PENDING") {
		t.Fatalf("subscription: got %q %s (close %d), want PENDING", typ, payload, code)
	}
	alice.Do(t, `mutation { logout }`, nil).Decode(t, &struct{}{})
	for {
		typ, payload, code := ws.next()
		if typ == "" {
			if code != 4401 {
				t.Fatalf("close code %d, want 4401", code)
			}
			return
		}
		if typ == "next" {
			t.Fatalf("subscription still delivering after logout: %s", payload)
		}
	}
}
