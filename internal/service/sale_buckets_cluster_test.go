package service_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// bucketKeys finds the keys of one kind of a split sale's buckets on every master
// (bucket 0's stock key ends in the bare id, bucket b's in "<id>.<b>"), each with the
// address of the master holding it.
func bucketKeys(t *testing.T, svc *service.Node, voucherID int64, kind string) map[string]string {
	t.Helper()
	ctx := context.Background()
	id := strconv.FormatInt(voucherID, 10)
	out := map[string]string{}
	var mu sync.Mutex
	scan := func(ctx context.Context, c *goredis.Client) error {
		for _, pattern := range []string{"seckill:*:" + kind + ":" + id, "seckill:*:" + kind + ":" + id + ".*"} {
			keys, err := c.Keys(ctx, pattern).Result()
			if err != nil {
				return err
			}
			mu.Lock()
			for _, k := range keys {
				out[k] = c.Options().Addr
			}
			mu.Unlock()
		}
		return nil
	}
	var err error
	switch c := svc.Redis.Client.(type) {
	case *goredis.ClusterClient:
		err = c.ForEachMaster(ctx, scan)
	case *goredis.Client:
		err = scan(ctx, c)
	default:
		t.Fatalf("unexpected client %T", c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// bucketKey is the one key of kind of bucket b (b > 0).
func bucketKey(t *testing.T, svc *service.Node, voucherID int64, b int, kind string) string {
	t.Helper()
	suffix := ":" + kind + ":" + strconv.FormatInt(voucherID, 10) + "." + strconv.Itoa(b)
	for k := range bucketKeys(t, svc, voucherID, kind) {
		if strings.HasSuffix(k, suffix) {
			return k
		}
	}
	t.Fatalf("no key *%s", suffix)
	return ""
}

// One sale split into three buckets on a 3-master Redis Cluster, on PostgreSQL, with the
// queue on the cluster's streams and on RabbitMQ: a flood of every user claiming four
// times sells exactly the stock, one order per user, every accepted claim one CREATED
// order (I1–I4), the buckets live on three masters, and a reconcile pass afterwards
// finds nothing to repair.
func TestSplitSaleInvariantsOnARedisCluster(t *testing.T) {
	t.Parallel()
	redisURL := testsupport.RedisClusterURL(t)
	const (
		stock         = 100
		users         = 400
		claimsPerUser = 4
		buckets       = 3
	)
	for _, backend := range []string{"redis", "amqp"} {
		t.Run(backend, func(t *testing.T) {
			env := merge(storeEnv(t, "postgres"), queueEnv(t, backend), map[string]string{
				"REDIS_URL": redisURL, "CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "0"})
			_, svc := startService(t, env)
			ctx := context.Background()
			b := buckets
			v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
				VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "split", PayValue: 1, ActualValue: 100},
				Stock:        stock, Buckets: &b, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
			})
			if err != nil {
				t.Fatal(err)
			}
			// The buckets are on distinct shards; on this cluster (even slot ranges) most
			// sales get a master per bucket, every one at least two.
			stocks := bucketKeys(t, svc, v.ID, "stock")
			masters := map[string]bool{}
			for _, addr := range stocks {
				masters[addr] = true
			}
			if len(stocks) != buckets || len(masters) < 2 {
				t.Errorf("bucket stock keys %v: want %d on at least 2 masters", stocks, buckets)
			}
			floodSellsExactlyTheStock(t, svc, v.ID, stock, users, claimsPerUser)
			rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
			if err != nil || rep.StockRepaired != 0 || rep.HoldersRepaired != 0 || rep.TransfersCompleted != 0 {
				t.Errorf("reconcile after the flood: %+v, %v; want nothing to repair", rep, err)
			}
		})
	}
}

// A node that died between taking units out of one bucket and giving them to another
// leaves them in neither; the reconciler finishes the move once it is
// RECONCILE_TRANSFER_AFTER old, and the units are sold.
func TestReconcilerFinishesAStrandedTransfer(t *testing.T) {
	t.Parallel()
	env := claimFateEnv(t)
	env["SECKILL_SHARDS"] = "4"
	_, svc := startService(t, env)
	ctx := context.Background()
	b := 2
	v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
		VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "stranded", PayValue: 1, ActualValue: 100},
		Stock:        10, Buckets: &b, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	// What seckill_take.lua leaves when its node dies before giving: 3 units out of
	// bucket 1, recorded as a transfer to bucket 0 taken a minute ago.
	rdb := svc.Redis.Client
	meta := bucketKey(t, svc, v.ID, 1, "bucket")
	epoch, err := rdb.HGet(ctx, meta, "epoch").Result()
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute).UnixMilli()
	if err := rdb.DecrBy(ctx, bucketKey(t, svc, v.ID, 1, "stock"), 3).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.HIncrBy(ctx, meta, "out", 3).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.HSet(ctx, strings.Replace(meta, ":bucket:", ":xfer:", 1), "dead-node", "0:3:"+strconv.FormatInt(old, 10)+":"+epoch).Err(); err != nil {
		t.Fatal(err)
	}
	rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
	if err != nil || rep.TransfersCompleted != 1 || rep.StockRepaired != 0 {
		t.Fatalf("reconcile: %+v, %v; want one transfer finished and no stock repaired", rep, err)
	}
	accepted, _ := flood(t, svc, v.ID, 30, 1)
	if len(accepted) != 10 {
		t.Fatalf("%d claims accepted, want all 10 units", len(accepted))
	}
	a := drain(t, svc, v.ID)
	for _, bad := range a.Check(10) {
		t.Error(bad)
	}
}
