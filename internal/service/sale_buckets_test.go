package service_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// bucketsGate records the bucket counts the flash sale hands the gate, by voucher id.
type bucketsGate struct {
	seckill.SaleStock
	mu       sync.Mutex
	loads    map[int64][]int
	reserves map[int64][]int
}

func (g *bucketsGate) Load(ctx context.Context, s seckill.SaleState, replace bool) (bool, error) {
	g.mu.Lock()
	g.loads[s.VoucherID] = append(g.loads[s.VoucherID], s.Buckets)
	g.mu.Unlock()
	return g.SaleStock.Load(ctx, s, replace)
}

func (g *bucketsGate) Reserve(ctx context.Context, r seckill.Reservation) (seckill.Verdict, int64, error) {
	g.mu.Lock()
	g.reserves[r.VoucherID] = append(g.reserves[r.VoucherID], r.Buckets)
	g.mu.Unlock()
	return g.SaleStock.Reserve(ctx, r)
}

// seen lists the bucket counts the gate was handed for voucher id (as a GraphQL id).
func (g *bucketsGate) seen(id string, of func(*bucketsGate) map[int64][]int) []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	for v, buckets := range of(g) {
		if strconv.FormatInt(v, 10) == id {
			return append([]int(nil), buckets...)
		}
	}
	return nil
}

// A sale's buckets are set at creation (1 by default, 1 to SECKILL_SHARDS and at most the
// stock), read back over GraphQL, handed to the gate when the sale is loaded and with
// every claim, and keep the stock from being lowered below them.
func TestFlashSaleBuckets(t *testing.T) {
	t.Parallel()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			t.Parallel()
			const adminPhone = "13900000077"
			env := map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone, "RECONCILE_INTERVAL": "0",
				"SECKILL_SHARDS": "4", "CLAIM_RATE_PER_USER": "off"}
			if db == "postgres" {
				env["DATABASE_URL"] = testsupport.PostgresURL(t)
			}
			gate := &bucketsGate{loads: map[int64][]int{}, reserves: map[int64][]int{}}
			srv, _ := startService(t, env, service.WithSaleStock(func(g seckill.SaleStock) seckill.SaleStock {
				gate.SaleStock = g
				return gate
			}))
			anon := client(srv)
			admin := client(srv)
			admin.Token = login(t, anon, adminPhone).AccessToken
			testFlashSaleBuckets(t, anon, admin, gate)
		})
	}
}

func testFlashSaleBuckets(t *testing.T, anon, admin testsupport.GraphQLClient, gate *bucketsGate) {
	const create = `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id stock buckets } }`
	now := time.Now()
	sale := func(stock int, buckets any, begin time.Time) map[string]any {
		in := map[string]any{"shopId": "1", "title": "分桶券", "payValue": 100, "actualValue": 1000, "stock": stock,
			"beginTime": begin.Format(time.RFC3339Nano), "endTime": now.Add(time.Hour).Format(time.RFC3339Nano)}
		if buckets != nil {
			in["buckets"] = buckets
		}
		return map[string]any{"in": in}
	}
	type created struct {
		CreateFlashSale struct {
			ID      string
			Stock   int
			Buckets int
		}
	}

	want := map[string]int{} // voucher id → buckets
	for _, tc := range []struct {
		name    string
		stock   int
		buckets any
		want    int
	}{
		{"buckets left out is one bucket", 5, nil, 1},
		{"buckets null is one bucket", 5, json.RawMessage("null"), 1},
		{"three buckets", 5, 3, 3},
		{"as many buckets as shards", 5, 4, 4},
		{"as many buckets as units", 3, 3, 3},
	} {
		var out created
		admin.Do(t, create, sale(tc.stock, tc.buckets, now.Add(-time.Minute))).Decode(t, &out)
		if out.CreateFlashSale.Buckets != tc.want {
			t.Errorf("%s: createFlashSale answered buckets %d, want %d", tc.name, out.CreateFlashSale.Buckets, tc.want)
		}
		want[out.CreateFlashSale.ID] = tc.want
	}

	for _, tc := range []struct {
		name    string
		stock   int
		buckets int
		message string
	}{
		{"zero buckets", 5, 0, "between 1 and 4"},
		{"negative buckets", 5, -1, "between 1 and 4"},
		{"more buckets than shards", 5, 5, "between 1 and 4"},
		{"more buckets than units", 2, 3, "must not exceed stock"},
	} {
		resp := admin.Do(t, create, sale(tc.stock, tc.buckets, now.Add(-time.Minute)))
		wantCode(t, tc.name, resp, "BAD_USER_INPUT")
		if len(resp.Errors) == 1 && !strings.Contains(resp.Errors[0].Message, tc.message) {
			t.Errorf("%s: message %q, want it to say %q", tc.name, resp.Errors[0].Message, tc.message)
		}
	}

	var list struct {
		Vouchers []struct {
			ID      string
			Kind    string
			Buckets *int
		}
	}
	admin.Do(t, `{ vouchers(shopId: "1") { id kind buckets } }`, nil).Decode(t, &list)
	read := 0
	for _, v := range list.Vouchers {
		switch b, ok := want[v.ID]; {
		case ok && (v.Buckets == nil || *v.Buckets != b):
			t.Errorf("vouchers: sale %s has buckets %v, want %d", v.ID, v.Buckets, b)
		case ok:
			read++
		case v.Kind == "NORMAL" && v.Buckets != nil:
			t.Errorf("vouchers: normal voucher %s has buckets %d, want null", v.ID, *v.Buckets)
		}
	}
	if read != len(want) {
		t.Errorf("vouchers listed %d of the %d sales created: %+v", read, len(want), list.Vouchers)
	}

	// The gate learns the count when the sale is loaded; a claim carries none (it reads no
	// voucher) and is placed by what the gate learnt.
	var three string
	for id, b := range want {
		if b == 3 {
			three = id
			break
		}
	}
	if got := gate.seen(three, func(g *bucketsGate) map[int64][]int { return g.loads }); len(got) == 0 || got[0] != 3 {
		t.Errorf("the gate loaded sale %s with buckets %v, want 3", three, got)
	}
	buyer := anon
	buyer.Token = login(t, anon, "13900000078").AccessToken
	var claim struct {
		ClaimVoucher struct{ OrderID, Status string }
	}
	buyer.Do(t, claimMutation, map[string]any{"v": three}).Decode(t, &claim)
	if got := gate.seen(three, func(g *bucketsGate) map[int64][]int { return g.reserves }); len(got) != 1 || got[0] != 0 {
		t.Errorf("the claim reached the gate with buckets %v, want [0]: once, the count left to the gate", got)
	}
	if claim.ClaimVoucher.Status != "PENDING" {
		t.Errorf("the claim on the split sale answered %+v, want PENDING", claim.ClaimVoucher)
	}

	// A sale not yet begun may change its stock, but not below its buckets.
	var later created
	admin.Do(t, create, sale(5, 3, now.Add(30*time.Minute))).Decode(t, &later)
	const update = `mutation($in: UpdateFlashSaleInput!) { updateFlashSale(input: $in) { stock buckets } }`
	wantCode(t, "stock lowered below the buckets", admin.Do(t, update,
		map[string]any{"in": map[string]any{"voucherId": later.CreateFlashSale.ID, "stock": 2}}), "BAD_USER_INPUT")
	var updated struct{ UpdateFlashSale struct{ Stock, Buckets int } }
	admin.Do(t, update, map[string]any{"in": map[string]any{"voucherId": later.CreateFlashSale.ID, "stock": 3}}).Decode(t, &updated)
	if updated.UpdateFlashSale.Stock != 3 || updated.UpdateFlashSale.Buckets != 3 {
		t.Errorf("stock lowered to the buckets: %+v, want stock 3 in 3 buckets", updated.UpdateFlashSale)
	}
}
