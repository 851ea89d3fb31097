package service_test

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
)

// saleKey is the Redis key of one of a sale's gate structures ("stock", "users").
func saleKey(svc *service.Node, voucherID int64, kind string) string {
	return "seckill:" + claimwire.ShardTag(voucherID, svc.Config.Seckill.Shards) + ":" + kind + ":" + strconv.FormatInt(voucherID, 10)
}

// redisHolders lists the sale's holder set, sorted.
func redisHolders(t *testing.T, svc *service.Node, voucherID int64) []int64 {
	t.Helper()
	members, err := svc.Redis.Client.SMembers(context.Background(), saleKey(svc, voucherID, "users")).Result()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int64, 0, len(members))
	for _, m := range members {
		id, _ := strconv.ParseInt(m, 10, 64)
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// dbHolders lists the users with live orders, sorted.
func dbHolders(t *testing.T, svc *service.Node, voucherID int64) []int64 {
	t.Helper()
	hs, err := svc.Store.Orders().LiveHolders(context.Background(), voucherID, false)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(hs)
	return hs
}

// Drift put into Redis behind the gate's back — stock above and below the database's,
// a holder missing and one too many, a reservation whose order exists, one whose order
// FAILED — is repaired by one reconcile pass from the database's view.
func TestReconcileRepairsDrift(t *testing.T) {
	t.Parallel()
	env := claimFateEnv(t)
	env["ORDER_CONSUMER"] = "false"
	_, svc := startService(t, env)
	ctx := context.Background()
	const stock = 10
	v := newSale(t, svc, stock)
	orders := map[int64]int64{} // user -> order id
	for u := int64(1); u <= 5; u++ {
		res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		orders[u] = res.OrderID
	}
	claim := func(u int64) domain.Claim {
		return domain.Claim{OrderID: orders[u], UserID: u, VoucherID: v.ID, ClaimedAt: time.Now()}
	}
	// Users 1 and 2: orders written, reservations not settled. User 3: FAILED, its
	// reservation left. User 6: an order Redis never heard of. Users 4 and 5 wait.
	orders[6] = orders[5] + 1_000_000
	if _, err := svc.Store.Orders().WriteClaims(ctx, []domain.Claim{claim(1), claim(2), claim(6)}, 15*time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Store.Orders().FailClaim(ctx, claim(3), "sold out"); err != nil {
		t.Fatal(err)
	}
	rdb := svc.Redis.Client
	if err := rdb.Set(ctx, saleKey(svc, v.ID, "stock"), 9, 0).Err(); err != nil { // above: should be 7 − 2
		t.Fatal(err)
	}
	if err := rdb.SAdd(ctx, saleKey(svc, v.ID, "users"), 99).Err(); err != nil {
		t.Fatal(err)
	}

	check := func(when string, rep seckill.ReconcileReport) {
		t.Helper()
		a, err := svc.Ops.Reconciler.Audit(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if a.DBStock != 7 || a.Pending != 2 || a.RedisStock != a.DBStock-2 {
			t.Errorf("%s: %+v (report %+v); want database stock 7, 2 pending, Redis stock 5", when, a, rep)
		}
		want := []int64{1, 2, 4, 5, 6}
		if got := redisHolders(t, svc, v.ID); !slices.Equal(got, want) {
			t.Errorf("%s: holders %v, want %v", when, got, want)
		}
	}
	rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
	if err != nil {
		t.Fatal(err)
	}
	check("stock above the database", rep)
	// User 3's FAILED claim goes back through the sale's one return path (its unit offered
	// to the waitlist first), which frees its slot: the repair adds 6 and removes 99.
	if rep.StockRepaired != 1 || rep.HoldersRepaired != 2 || rep.Released != 1 {
		t.Errorf("report %+v; want one stock and two holders repaired, one reservation released", rep)
	}

	// Stock below the database's, and a holder missing.
	if err := rdb.Set(ctx, saleKey(svc, v.ID, "stock"), 1, 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.SRem(ctx, saleKey(svc, v.ID, "users"), 4).Err(); err != nil {
		t.Fatal(err)
	}
	rep, err = svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
	if err != nil {
		t.Fatal(err)
	}
	check("stock below the database", rep)

	// Nothing drifted: nothing is written.
	if rep, err = svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig()); err != nil || rep.StockRepaired != 0 || rep.HoldersRepaired != 0 {
		t.Errorf("a pass without drift: %+v, %v; want nothing repaired", rep, err)
	}
	check("a pass without drift", rep)

	// The waiting claims are written in the end; everything adds up.
	if err := svc.Ops.OrderWriter.ProcessClaims(ctx, []domain.Claim{claim(4), claim(5)}); err != nil {
		t.Fatal(err)
	}
	a := drain(t, svc, v.ID)
	if a.RedisStock != a.DBStock || a.DBStock != 5 || a.Orders.Created != 5 || a.Orders.Failed != 1 {
		t.Errorf("after writing the waiting claims: %+v", a)
	}
}

// Reconcile passes on several goroutines (as on several nodes) run throughout a flood
// of claims and order writes on a sale whose Redis stock had drifted above the
// database's: no claim is accepted that the database cannot honour, and once the queue
// drained Redis agrees with the database.
func TestReconcileRunsSafelyDuringAFlood(t *testing.T) {
	t.Parallel()
	env := claimFateEnv(t)
	env["ORDER_BATCH_WAIT"] = "2ms"
	_, svc := startService(t, env)
	ctx := context.Background()
	const stock = 300
	v := newSale(t, svc, stock)
	rdb := svc.Redis.Client
	// Drift: 40 units too many, a stranger in the holder set.
	if err := rdb.IncrBy(ctx, saleKey(svc, v.ID, "stock"), 40).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.SAdd(ctx, saleKey(svc, v.ID, "users"), 100_000).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig()); err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var (
		wg      sync.WaitGroup
		passes  atomic.Int64
		repairs atomic.Int64
	)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
				if err != nil {
					t.Errorf("reconcile: %v", err)
					return
				}
				passes.Add(1)
				repairs.Add(int64(rep.StockRepaired))
				time.Sleep(time.Millisecond)
			}
		}()
	}
	// Claims come from 8 workers, every user twice, for long enough that the passes
	// meet reservations, order writes and settles in every order.
	var (
		mu       sync.Mutex
		accepted []int64
		refused  = map[domain.Code]int{}
		next     atomic.Int64
		workers  sync.WaitGroup
	)
	const users = 1000
	for range 8 {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for {
				n := next.Add(1)
				if n > 2*users {
					return
				}
				res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, (n-1)%users+1, v.ID)
				mu.Lock()
				if err != nil {
					refused[domain.ErrorCode(err)]++
				} else {
					accepted = append(accepted, res.OrderID)
				}
				mu.Unlock()
				time.Sleep(2 * time.Millisecond)
			}
		}()
	}
	// Meanwhile Redis loses units now and then, which the passes must give back while
	// claims take units and orders are written.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 10 {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if n, _ := rdb.Get(ctx, saleKey(svc, v.ID, "stock")).Int64(); n >= 3 {
				rdb.DecrBy(ctx, saleKey(svc, v.ID, "stock"), 3)
			}
		}
	}()
	workers.Wait()
	drain(t, svc, v.ID)
	close(stop)
	wg.Wait()
	if len(accepted) > stock || refused[domain.CodeInternal] != 0 {
		t.Errorf("accepted %d claims for a stock of %d (refusals %v)", len(accepted), stock, refused)
	}
	if _, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig()); err != nil {
		t.Fatal(err)
	}
	a, _ := svc.Ops.Reconciler.Audit(ctx, v.ID)
	for _, bad := range a.Check(stock) {
		t.Error(bad)
	}
	if a.RedisStock != a.DBStock || a.Orders.Failed != 0 || a.Orders.Created != int64(len(accepted)) {
		t.Errorf("after the flood: %+v; want Redis stock = database stock, every accepted claim CREATED", a)
	}
	// Units held back at the end of the flood are claimable: new users take exactly them.
	left := a.DBStock
	extra := 0
	for u := int64(5001); u <= 5000+left+20; u++ {
		if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID); err == nil {
			extra++
		}
	}
	if int64(extra) != left {
		t.Errorf("%d units left after the flood, %d more claims accepted", left, extra)
	}
	a = drain(t, svc, v.ID)
	if bad := a.Check(stock); len(bad) > 0 || a.Orders.Created != stock || a.RedisStock != 0 {
		t.Errorf("sold out: %+v %v", a, bad)
	}
	if got, want := redisHolders(t, svc, v.ID), dbHolders(t, svc, v.ID); !slices.Equal(got, want) {
		t.Errorf("holders: %d in Redis, %d with orders", len(got), len(want))
	}
	for _, id := range accepted {
		if o, err := svc.Store.Orders().Order(ctx, id); err != nil || o.Status != domain.OrderCreated {
			t.Errorf("accepted order %d: %+v, %v", id, o, err)
		}
	}
	t.Logf("%d reconcile passes during the flood, %d stock repairs", passes.Load(), repairs.Load())
}

// A reservation whose order id belongs to another user's order (an id handed out twice)
// is not settled by that order: the reconciler gives the claim up, its unit and slot back.
func TestReconcileDoesNotSettleAClaimWithAnotherUsersOrder(t *testing.T) {
	t.Parallel()
	env := claimFateEnv(t)
	env["ORDER_CONSUMER"] = "false"
	env["RECONCILE_REPUBLISH_AFTER"] = "1ms"
	_, svc := startService(t, env)
	ctx := context.Background()
	v := newSale(t, svc, 5)
	res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 21, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Someone else's order already has this id.
	if _, err := svc.Store.Orders().WriteClaims(ctx, []domain.Claim{{OrderID: res.OrderID, UserID: 22, VoucherID: v.ID, ClaimedAt: time.Now()}}, 15*time.Minute); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := svc.Ops.Reconciler.Audit(ctx, v.ID)
	if a.Pending != 0 || a.DBStock != 4 || a.RedisStock != 4 || rep.Settled != 0 || rep.Failed != 1 {
		t.Errorf("after reconcile: %+v (report %+v); want the claim given up, Redis stock 4 like the database", a, rep)
	}
	if got := redisHolders(t, svc, v.ID); !slices.Equal(got, []int64{22}) {
		t.Errorf("holders %v, want [22]", got)
	}
	if o, found, _ := svc.App.Queries.Orders.Order(ctx, 21, res.OrderID); found && o.Status != domain.OrderFailed {
		t.Errorf("user 21 sees %+v", o)
	}
}
