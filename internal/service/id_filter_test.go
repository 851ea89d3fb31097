package service_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestBloomFilterKeepsUnknownIDsOffTheDatabase floods two nodes on one PostgreSQL and
// Redis with reads of shop and voucher ids that do not exist: with the Bloom filter
// (the default) they cost no statement; without it (BLOOM_FILTER=false) each distinct id
// costs one. Shops and vouchers created on one node are found on the other.
func TestBloomFilterKeepsUnknownIDsOffTheDatabase(t *testing.T) {
	t.Parallel()
	const adminPhone = "13900000191"
	env := map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t)}
	srvA, nodeA := startService(t, env)
	srvB, nodeB := startService(t, env)
	off := map[string]string{"BLOOM_FILTER": "false"}
	for k, v := range env {
		off[k] = v
	}
	_, nodeOff := startService(t, off)

	const unknown = 300
	flood := func(name string, read func(ctx context.Context, id int64) bool) (withFilter, without int64) {
		for i, node := range []func(context.Context, int64) bool{
			func(ctx context.Context, id int64) bool { return read(context.WithValue(ctx, nodeKey{}, nodeA), id) },
			func(ctx context.Context, id int64) bool { return read(context.WithValue(ctx, nodeKey{}, nodeOff), id) },
		} {
			var n atomic.Int64
			ctx := entstore.WithStatementCounter(context.Background(), &n)
			for id := int64(1_000_000); id < 1_000_000+unknown; id++ {
				if node(ctx, id) {
					t.Fatalf("%s %d found", name, id)
				}
			}
			if i == 0 {
				withFilter = n.Load()
			} else {
				without = n.Load()
			}
		}
		t.Logf("%d unknown %s ids: %d statements with the Bloom filter, %d without", unknown, name, withFilter, without)
		return withFilter, without
	}
	shopRead := func(ctx context.Context, id int64) bool {
		node := ctx.Value(nodeKey{}).(*service.Node)
		m, err := node.App.Queries.Shops.ShopsByIDs(ctx, []int64{id})
		if err != nil {
			t.Fatal(err)
		}
		return len(m) > 0
	}
	voucherRead := func(ctx context.Context, id int64) bool {
		node := ctx.Value(nodeKey{}).(*service.Node)
		_, found, err := node.App.Queries.Vouchers.ByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return found
	}
	for name, read := range map[string]func(context.Context, int64) bool{"shop": shopRead, "voucher": voucherRead} {
		with, without := flood(name, read)
		if with != 0 || without < unknown {
			t.Errorf("%s: %d statements with the filter (want 0), %d without (want at least %d)", name, with, without, unknown)
		}
	}

	// A shop and a sale created on B are found on A.
	anon := client(srvB)
	admin := client(srvB)
	admin.Token = login(t, anon, adminPhone).AccessToken
	var shop struct{ CreateShop struct{ ID string } }
	admin.Do(t, createShop, map[string]any{"in": map[string]any{"name": "布隆店", "typeId": "1", "address": "西湖区",
		"longitude": 120.15, "latitude": 30.28}}).Decode(t, &shop)
	var sale struct{ CreateFlashSale struct{ ID string } }
	admin.Do(t, `mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, saleInput(shop.CreateShop.ID, 100)).Decode(t, &sale)
	shopID, saleID := mustID(t, shop.CreateShop.ID), mustID(t, sale.CreateFlashSale.ID)
	deadline := time.Now().Add(10 * time.Second)
	for _, node := range []*service.Node{nodeA, nodeB} {
		for {
			ctx := context.WithValue(context.Background(), nodeKey{}, node)
			if shopRead(ctx, shopID) && voucherRead(ctx, saleID) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("shop %d or sale %d created on B not found on every node within 10 s", shopID, saleID)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// And over HTTP on A.
	var out struct{ Shop *struct{ Name string } }
	client(srvA).Do(t, `query($id: ID!) { shop(id: $id) { name } }`, map[string]any{"id": fmt.Sprint(shopID)}).Decode(t, &out)
	if out.Shop == nil || out.Shop.Name != "布隆店" {
		t.Fatalf("shop %d over HTTP on A: %+v", shopID, out.Shop)
	}
}

type nodeKey struct{}
