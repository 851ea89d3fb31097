//go:build stress

package service_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestClusterMasterRestartedEmptyIsNoticed kills the Redis Cluster master that holds a
// flash sale's gate keys — not the one holding dealspot:generation — while claims keep
// coming, and starts it again empty, as a master without persistence comes back. The node
// must notice that master lost its data (a new generation, derived structures rebuilt),
// and the sale must keep its invariants: no oversell, one order per user, every accepted
// claim one order, and Redis agreeing with the database once the reconciler has run. The
// queue is the in-process one, so accepted claims do not live on the killed master. It
// runs with the sale in one bucket, and split into three buckets, where the killed master
// holds one of them: the node then loads the whole sale again from the database less the
// reservations the other buckets still hold.
func TestClusterMasterRestartedEmptyIsNoticed(t *testing.T) {
	for _, buckets := range []int{1, 3} {
		t.Run("buckets="+strconv.Itoa(buckets), func(t *testing.T) { clusterMasterRestartedEmpty(t, buckets) })
	}
}

func clusterMasterRestartedEmpty(t *testing.T, buckets int) {
	cluster := testsupport.StartRedisCluster(t)
	_, svc := startService(t, map[string]string{
		"JWT_SECRET": testSecret, "CLAIM_RATE_PER_USER": "off", "QUEUE": "memory",
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": cluster.URL(),
	})
	cc, ok := svc.Redis.Client.(*goredis.ClusterClient)
	if !ok {
		t.Fatalf("REDIS_URL=%s opened a %T", cluster.URL(), svc.Redis.Client)
	}
	ctx := context.Background()
	masterOf := func(key string) int { t.Helper(); return clusterMasterOf(t, cc, cluster, key) }
	markerMaster := masterOf("dealspot:generation")

	// A sale whose shard lives on another master than dealspot:generation. Its stock is
	// more than its users, so claims keep reaching the gate until the end, and users who
	// claimed before the restart claim again after it.
	const stock, users = 5000, 3000
	// The key on the master to kill: the sale's stock, or for a split sale its last
	// bucket's.
	victimKey := func(sale domain.Voucher) string {
		if buckets == 1 {
			return stockKeys([]string{strconv.FormatInt(sale.ID, 10)})[0]
		}
		return bucketKey(t, svc, sale.ID, buckets-1, "stock")
	}
	create := func() domain.Voucher {
		v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
			VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "master restart", PayValue: 1, ActualValue: 100},
			Stock:        stock, Buckets: &buckets, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	sale := create()
	for masterOf(victimKey(sale)) == markerMaster {
		sale = create()
	}
	victim := masterOf(victimKey(sale))
	t.Logf("sale %d on master %d; dealspot:generation on master %d", sale.ID, victim, markerMaster)

	before := svc.Regen.Generation()
	stop := make(chan struct{})
	claims := floodFor(svc, sale.ID, users, 8, 2*time.Millisecond, stop)
	time.Sleep(2 * time.Second)
	if err := cluster.Stop(victim); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	acceptedBefore := claims.acceptedCount()
	time.Sleep(faultOutage)
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	if err := cluster.Restart(rctx, victim); err != nil {
		cancel()
		t.Fatalf("restart master %d: %v", victim, err)
	}
	cancel()
	back := time.Now()
	acceptedDown := claims.acceptedCount() - acceptedBefore
	t.Logf("master %d down for %v, back empty", victim, back.Sub(killed).Round(time.Millisecond))

	// The node notices the master came back empty and rebuilds for a new generation.
	for svc.Regen.Generation() == before {
		if time.Since(back) > 30*time.Second {
			close(stop)
			claims.wait()
			t.Fatalf("30 s after master %d came back empty the node is still in generation %.8s: the lost master went unnoticed", victim, before)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("new generation %.8s noticed %v after the master came back", svc.Regen.Generation(), time.Since(back).Round(time.Millisecond))
	time.Sleep(2 * time.Second) // claims keep coming after the rebuild
	close(stop)
	claims.wait()
	acceptedAfter := claims.acceptedCount() - acceptedBefore - acceptedDown
	t.Logf("claims accepted: %d before the kill, %d while the master was away, %d after it came back",
		acceptedBefore, acceptedDown, acceptedAfter)
	if acceptedBefore == 0 || acceptedAfter == 0 {
		t.Errorf("claims accepted before the kill %d, after the restart %d: want some of both", acceptedBefore, acceptedAfter)
	}

	// Claims whose reservations the restart lost may still be in the queue; drain them,
	// then let the reconciler repair the units and holders the rebuild could not know of.
	drain(t, svc, sale.ID)
	reconcileUntilQuiet(t, svc)
	checkAfterFault(t, svc, sale, stock, claims)
	a := drain(t, svc, sale.ID)
	if !a.RedisLoaded || a.RedisStock != a.DBStock || int64(a.RedisHolders) != a.Orders.LiveUsers {
		t.Errorf("after reconciling, redis (loaded %v) has stock %d and holders %d; the database has stock %d and %d users with orders",
			a.RedisLoaded, a.RedisStock, a.RedisHolders, a.DBStock, a.Orders.LiveUsers)
	}
	t.Logf("accepted %d, refused %v, INTERNAL answers %d", len(claims.accepted), claims.refused, claims.refused[domain.CodeInternal])
}

// acceptedCount is how many claims the flood has had accepted so far.
func (r *floodResult) acceptedCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.accepted)
}

// clusterMasterOf returns the index (in cluster.Ports) of the master holding key.
func clusterMasterOf(t *testing.T, cc *goredis.ClusterClient, cluster *testsupport.RedisCluster, key string) int {
	t.Helper()
	m, err := cc.MasterForKey(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range cluster.Ports() {
		if strings.HasSuffix(m.Options().Addr, ":"+strconv.Itoa(p)) {
			return i
		}
	}
	t.Fatalf("key %s is on %s, not a master of the test cluster", key, m.Options().Addr)
	return -1
}

// reconcileUntilQuiet runs reconcile passes, as the reconciler's interval would, until
// one repairs no stock or holders and gives up on no sale (five at most).
func reconcileUntilQuiet(t *testing.T, svc *service.Node) {
	t.Helper()
	for pass := 0; pass < 5; pass++ {
		rep, err := svc.Ops.Reconciler.Reconcile(context.Background(), svc.ReconcileConfig())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("reconcile pass %d: %+v", pass, rep)
		if rep.StockRepaired == 0 && rep.HoldersRepaired == 0 && rep.Busy == 0 {
			break
		}
	}
}
