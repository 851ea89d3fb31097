package service_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestServerKilledMidExpiryLosesAndDoublesNothing: 300 unpaid orders reach their
// deadline together while the server sweeps them one per transaction, and the server is
// killed (SIGKILL) mid-sweep, twice. Afterwards every order is CANCELED (TIMEOUT) and
// exactly the 300 units are back — in the database and in Redis — none lost, none twice.
func TestServerKilledMidExpiryLosesAndDoublesNothing(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"QUEUE_NAMESPACE":   "t" + testsupport.RandomSuffix(8) + ".",
		"ORDER_PAY_TIMEOUT": "3s", "ORDER_EXPIRY_INTERVAL": "20ms", "ORDER_EXPIRY_BATCH": "1",
	}
	p, c, admin := startKillable(t, env, "13700000100")
	const stock = 300
	vid := createFlashSale(t, admin, stock, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	var (
		mu       sync.Mutex
		accepted []string
		wg       sync.WaitGroup
	)
	claimed := time.Now()
	for i := range stock {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := c
			u.Token = login(t, c, fmt.Sprintf("135%08d", i)).AccessToken
			var a claimAnswer
			u.Do(t, claimMutation, map[string]any{"v": vid}).Decode(t, &a)
			mu.Lock()
			accepted = append(accepted, a.ClaimVoucher.OrderID)
			mu.Unlock()
		}()
	}
	wg.Wait()
	// Kill the server while it sweeps (the deadlines fall ~3s after the claims).
	for k := range 2 {
		time.Sleep(time.Until(claimed.Add(3*time.Second)) + time.Duration(k*300+rand.IntN(300))*time.Millisecond)
		p.kill(syscall.SIGKILL)
		p.start()
	}
	p.kill(syscall.SIGTERM)

	// An in-process node on the same stores finishes the sweep and reconciles.
	_, svc := startService(t, env)
	var vID int64
	fmt.Sscan(vid, &vID)
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	for {
		a := drain(t, svc, vID)
		if a.Orders.Created == 0 && a.DBStock == stock && a.RedisStock == stock {
			if bad := a.Check(stock); len(bad) > 0 {
				t.Errorf("invariants: %v", bad)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a minute after the kills: %d orders still hold units, database stock %d, redis stock %d (want 0, %d, %d)",
				a.Orders.Created, a.DBStock, a.RedisStock, stock, stock)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, id := range accepted {
		var oid int64
		fmt.Sscan(id, &oid)
		o, err := svc.Store.Orders().Order(ctx, oid)
		if err != nil || o.Status != domain.OrderCanceled || o.CancelReason != domain.CancelTimeout {
			t.Errorf("order %s after the kills: %+v %v", id, o, err)
		}
	}
	// Nothing came back twice: the stocks are exactly the sale's, checked above, and
	// stay so once the reconciler has run again.
	time.Sleep(time.Second)
	if a := drain(t, svc, vID); a.DBStock != stock || a.RedisStock != stock {
		t.Errorf("later: database stock %d, redis stock %d, want %d", a.DBStock, a.RedisStock, stock)
	}
}
