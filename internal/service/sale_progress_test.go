package service_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestSaleProgressOverWebsocket: anonymous buyers' pages follow a sale over the
// websocket and see its units go, down to sold out, on the embedded stores and on
// PostgreSQL with Redis.
func TestSaleProgressOverWebsocket(t *testing.T) {
	t.Parallel()
	backends := map[string]func(t *testing.T) map[string]string{
		"embedded": func(*testing.T) map[string]string { return map[string]string{} },
		"postgres+redis": func(t *testing.T) map[string]string {
			return map[string]string{"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t)}
		},
	}
	for name, env := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			const adminPhone = "13900000161"
			vars := env(t)
			for k, v := range map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
				"SALE_PROGRESS_INTERVAL": "100ms", "CLAIM_RATE_PER_USER": "off"} {
				vars[k] = v
			}
			srv := startServer(t, vars)
			anon := client(srv)
			admin := client(srv)
			admin.Token = login(t, anon, adminPhone).AccessToken
			var sale struct{ CreateFlashSale struct{ ID string } }
			admin.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, saleInput("1", 500)).Decode(t, &sale)
			id := sale.CreateFlashSale.ID

			type progress struct {
				VoucherID string
				Remaining int
				SoldOut   bool
				Phase     string
				BeginTime time.Time
			}
			sub := fmt.Sprintf(`subscription { saleProgress(voucherId: %q) { voucherId remaining soldOut phase beginTime } }`, id)
			pages := make([]*wsConn, 3)
			for i := range pages {
				pages[i] = wsOpen(t, srv, "") // nobody logged in
				pages[i].send(map[string]any{"type": "subscribe", "id": "p", "payload": map[string]any{"query": sub}})
			}
			read := func(ws *wsConn) progress {
				t.Helper()
				typ, payload, code := ws.next()
				if typ != "next" {
					t.Fatalf("saleProgress: got %q %s (close %d)", typ, payload, code)
				}
				var r struct {
					Data   struct{ SaleProgress progress }
					Errors json.RawMessage
				}
				if err := json.Unmarshal(payload, &r); err != nil || r.Errors != nil {
					t.Fatalf("saleProgress payload %s: %v", payload, err)
				}
				return r.Data.SaleProgress
			}
			for i, ws := range pages {
				if p := read(ws); p.VoucherID != id || p.Remaining != 5 || p.SoldOut || p.Phase != "LIVE" || p.BeginTime.IsZero() {
					t.Fatalf("page %d's first push: %+v; want 5 left, LIVE", i, p)
				}
			}
			buyer := client(srv)
			for i := range 5 {
				buyer.Token = login(t, anon, fmt.Sprintf("1390000017%d", i)).AccessToken
				var claim claimAnswer
				buyer.Do(t, claimMutation, map[string]any{"v": id}).Decode(t, &claim)
			}
			for i, ws := range pages {
				last := 5
				for {
					p := read(ws)
					if p.Remaining > last {
						t.Fatalf("page %d: remaining went up %d → %d", i, last, p.Remaining)
					}
					last = p.Remaining
					if p.Remaining == 0 {
						if !p.SoldOut {
							t.Fatalf("page %d: %+v; want soldOut", i, p)
						}
						break
					}
				}
			}

			// Bad ids are refused with a code.
			ws := pages[0]
			ws.send(map[string]any{"type": "subscribe", "id": "x", "payload": map[string]any{
				"query": `subscription { saleProgress(voucherId: "999999") { remaining } }`}})
			for {
				typ, payload, code := ws.next()
				if typ == "next" && string(payload) != "" {
					var r struct {
						Errors []struct{ Extensions struct{ Code string } }
					}
					_ = json.Unmarshal(payload, &r)
					if len(r.Errors) == 0 {
						continue // a push of the first subscription
					}
					if r.Errors[0].Extensions.Code != "NOT_FOUND" {
						t.Fatalf("unknown sale: %s", payload)
					}
					break
				}
				if typ == "error" {
					if !json.Valid(payload) || !containsCode(payload, "NOT_FOUND") {
						t.Fatalf("unknown sale: %s", payload)
					}
					break
				}
				if typ == "" {
					t.Fatalf("socket closed (%d) before the refusal", code)
				}
			}
		})
	}
}

// containsCode says whether a JSON list of GraphQL errors has one with code.
func containsCode(payload json.RawMessage, code string) bool {
	var errs []struct{ Extensions struct{ Code string } }
	if json.Unmarshal(payload, &errs) != nil {
		return false
	}
	for _, e := range errs {
		if e.Extensions.Code == code {
			return true
		}
	}
	return false
}
