package service_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// A small flash sale runs end to end on a 3-master Redis Cluster with the Redis Streams
// queue: claims through GraphQL pass the gate script and its XADD on the sale's shard,
// the consumer reads every shard's stream, and the orders are written. Three sales on
// consecutive voucher ids sit on three shards, so several masters take part.
func TestFlashSaleOnARedisCluster(t *testing.T) {
	redisURL := testsupport.RedisClusterURL(t)
	const adminPhone = "13900000101"
	srv, svc := startService(t, map[string]string{
		"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
		"REDIS_URL": redisURL, "QUEUE": "redis", "QUEUE_NAMESPACE": "t" + testsupport.RandomSuffix(8) + ".",
	})
	if !svc.Redis.IsCluster() {
		t.Fatalf("REDIS_URL=%s did not open a cluster client", redisURL)
	}
	anon := client(srv)
	admin := client(srv)
	admin.Token = login(t, anon, adminPhone).AccessToken

	now := time.Now()
	const stock, users = 2, 3
	var sales []string
	for range 3 {
		sales = append(sales, createFlashSale(t, admin, stock, now.Add(-time.Minute), now.Add(time.Hour)))
	}
	var accepted []struct {
		c  testsupport.GraphQLClient
		id string
	}
	for u := range users {
		c := client(srv)
		c.Token = login(t, anon, "1390000020"+strconv.Itoa(u)).AccessToken
		for _, sale := range sales {
			resp := c.Do(t, claimMutation, map[string]any{"v": sale})
			if u >= stock {
				wantCode(t, "claim beyond the stock", resp, "SOLD_OUT")
				continue
			}
			var a claimAnswer
			resp.Decode(t, &a)
			if a.ClaimVoucher.Status != "PENDING" || a.ClaimVoucher.OrderID == "" {
				t.Fatalf("claim on sale %s = %+v", sale, a)
			}
			accepted = append(accepted, struct {
				c  testsupport.GraphQLClient
				id string
			}{c, a.ClaimVoucher.OrderID})
		}
	}
	if len(accepted) != stock*len(sales) {
		t.Fatalf("%d claims accepted, want %d", len(accepted), stock*len(sales))
	}
	for _, a := range accepted {
		if got := waitOrder(t, a.c, a.id); got != "CREATED" {
			t.Fatalf("order %s ended %s, want CREATED", a.id, got)
		}
	}
	var vs struct {
		Vouchers []struct {
			ID    string
			Stock *int
		}
	}
	anon.Do(t, `{ vouchers(shopId: "1") { id stock } }`, nil).Decode(t, &vs)
	for _, v := range vs.Vouchers {
		for _, sale := range sales {
			if v.ID == sale && (v.Stock == nil || *v.Stock != 0) {
				t.Errorf("sold-out sale %s shows stock %v in the database", sale, v.Stock)
			}
		}
	}

	// The sales' keys and streams are spread over more than one master.
	cluster, ok := svc.Redis.Client.(*goredis.ClusterClient)
	if !ok {
		t.Fatalf("client is a %T", svc.Redis.Client)
	}
	masters := map[string]bool{}
	for _, key := range stockKeys(sales) {
		if n, err := cluster.Exists(context.Background(), key).Result(); err != nil || n != 1 {
			t.Fatalf("EXISTS %s = %d, %v", key, n, err)
		}
		m, err := cluster.MasterForKey(context.Background(), key)
		if err != nil {
			t.Fatal(err)
		}
		masters[m.Options().Addr] = true
	}
	if len(masters) < 2 {
		t.Errorf("the sales' keys are on %d masters, want several", len(masters))
	}
}

// stockKeys are the gate's stock keys of the sales with the default shard count,
// seckill:{s<k>}:stock:<vid>.
func stockKeys(sales []string) []string {
	var keys []string
	for _, s := range sales {
		vid, _ := strconv.ParseInt(s, 10, 64)
		keys = append(keys, "seckill:"+claimwire.ShardTag(vid, config.DefaultSeckillShards)+":stock:"+s)
	}
	return keys
}
