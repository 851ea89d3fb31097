package redis_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

// Units of canceled orders go back once per order, however often (and however
// concurrently) they are returned; freeing the slot lets the user claim again.
func TestGateReturnUnits(t *testing.T) {
	t.Parallel()
	redistest.Each(t, func(t *testing.T, conn *redis.Conn) {
		ctx := context.Background()
		gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: 4})
		if err != nil {
			t.Fatal(err)
		}
		v := time.Now().UnixNano()%1_000_000*100 + gateSales.Add(1)*10
		now := time.Now()
		if _, err := gate.Loader.Load(ctx, seckill.SaleState{VoucherID: v, Stock: 2, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour)}, true); err != nil {
			t.Fatal(err)
		}
		reserve := func(order, user int64) seckill.Verdict {
			verdict, _, err := gate.Gate.Reserve(ctx, seckill.Reservation{OrderID: order, UserID: user, VoucherID: v, At: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			return verdict
		}
		if reserve(1, 10) != seckill.Accepted || reserve(2, 20) != seckill.Accepted || reserve(3, 30) != seckill.SoldOut {
			t.Fatal("the sale of 2 did not sell out as expected")
		}
		if err := gate.Gate.Settle(ctx, v, []int64{1, 2}); err != nil {
			t.Fatal(err)
		}
		// Order 1 canceled (slot freed), returned from 20 goroutines at once.
		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := gate.Returns.ReturnUnits(ctx, v, []seckill.ReturnedUnit{{OrderID: 1, UserID: 10}}, true)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += n
				mu.Unlock()
			}()
		}
		wg.Wait()
		if total != 1 {
			t.Fatalf("order 1's unit came back %d times", total)
		}
		if stock, ok, err := gate.Inspector.Stock(ctx, v); err != nil || !ok || stock != 1 {
			t.Fatalf("stock %d (loaded %v, %v) after one return, want 1", stock, ok, err)
		}
		// Order 2 refunded with the slot kept: its user stays refused.
		if n, err := gate.Returns.ReturnUnits(ctx, v, []seckill.ReturnedUnit{{OrderID: 2, UserID: 20}}, false); err != nil || n != 1 {
			t.Fatalf("return order 2: %d, %v", n, err)
		}
		if got := reserve(4, 20); got != seckill.AlreadyClaimed {
			t.Errorf("user 20 (slot kept) claiming again: verdict %v, want already claimed", got)
		}
		if got := reserve(5, 10); got != seckill.Accepted {
			t.Errorf("user 10 (slot freed) claiming again: verdict %v, want accepted", got)
		}
		if got := reserve(6, 30); got != seckill.Accepted {
			t.Errorf("user 30 claiming a returned unit: verdict %v, want accepted", got)
		}
		if pending, err := gate.Inspector.Reservations(ctx, v); err != nil || len(pending) != 2 {
			t.Errorf("pending %d, %v; want the 2 new reservations", len(pending), err)
		}
		// A sale the gate does not hold is left alone.
		if n, err := gate.Returns.ReturnUnits(ctx, v+1, []seckill.ReturnedUnit{{OrderID: 9, UserID: 9}}, true); err != nil || n != 0 {
			t.Errorf("return to a sale not loaded: %d, %v", n, err)
		}
	})
}
