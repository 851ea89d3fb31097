package service_test

import (
	"context"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// BenchmarkExpireUnpaidOrders: EXPIRE_BENCH_ORDERS (default 100,000) orders of one
// flash sale, claimed through the gate and written, all reach their pay deadline in the
// same minute; one expiry pass (what every ORDER_EXPIRY_INTERVAL runs) cancels them all
// and gives every unit back to the database and to the gate. It reports the pass's
// duration and orders/s, and checks that every unit is back.
func BenchmarkExpireUnpaidOrders(b *testing.B) {
	if os.Getenv(testsupport.EnvPostgres) == "" || os.Getenv(testsupport.EnvRedis) == "" {
		b.Skip("needs TEST_DATABASE_URL and TEST_REDIS_URL")
	}
	n := 100_000
	if s := os.Getenv("EXPIRE_BENCH_ORDERS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	for range b.N {
		b.StopTimer()
		_, svc := startService(b, map[string]string{
			"DATABASE_URL": testsupport.PostgresURL(b), "REDIS_URL": testsupport.RedisURL(b),
			"QUEUE": "redis", "QUEUE_NAMESPACE": "b" + testsupport.RandomSuffix(8) + ".",
			"CLAIM_RATE_PER_USER": "off", "ORDER_EXPIRY_INTERVAL": "1h", "ORDER_PAY_TIMEOUT": "1h",
		})
		ctx := context.Background()
		v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
			VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "expiry", PayValue: 990, ActualValue: 2000},
			Stock:        int64(n), BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
		})
		if err != nil {
			b.Fatal(err)
		}
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 256 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for u := next.Add(1); u <= int64(n); u = next.Add(1) {
					if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		a := drain(b, svc, v.ID)
		if a.Orders.Created != int64(n) {
			b.Fatalf("%d orders written, want %d", a.Orders.Created, n)
		}
		// Every deadline falls within the same minute, now past.
		if _, err := svc.Store.DB().ExecContext(ctx,
			"UPDATE voucher_orders SET pay_deadline = now() - (random() * interval '59 seconds') - interval '1 second' WHERE voucher_id = $1", v.ID); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		canceled, err := svc.Ops.OrderExpiry.RunOnce(ctx)
		took := time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		a = drain(b, svc, v.ID)
		if canceled != n || a.Orders.Created != 0 || a.DBStock != int64(n) || a.RedisStock != int64(n) {
			b.Fatalf("canceled %d of %d; after: %d holding, database stock %d, redis stock %d", canceled, n, a.Orders.Created, a.DBStock, a.RedisStock)
		}
		b.ReportMetric(took.Seconds(), "s/pass")
		b.ReportMetric(float64(n)/took.Seconds(), "orders/s")
	}
}
