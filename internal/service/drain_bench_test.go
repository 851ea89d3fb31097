package service_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// drainIDs hands out order and user ids unique across the benchmark's runs.
var drainIDs atomic.Int64

// BenchmarkOrderDrain compares, on one database in one run, writing orders the way the
// consumer does (ProcessClaims: insert batch with ON CONFLICT, stock guard, settle and
// status events) with a bare multi-row INSERT of the same rows. orders/s is reported.
func BenchmarkOrderDrain(b *testing.B) {
	env := map[string]string{"ORDER_CONSUMER": "false", "RECONCILE_INTERVAL": "0", "CLAIM_RATE_PER_USER": "off"}
	if os.Getenv(testsupport.EnvPostgres) != "" && os.Getenv(testsupport.EnvRedis) != "" {
		env["DATABASE_URL"] = testsupport.PostgresURL(b)
		env["REDIS_URL"] = testsupport.RedisURL(b)
	} else {
		b.Logf("TEST_DATABASE_URL / TEST_REDIS_URL unset: measuring the embedded SQLite store")
	}
	for _, batch := range []int{64, 256} {
		b.Run(fmt.Sprintf("consumer/batch=%d", batch), func(b *testing.B) {
			_, svc := startService(b, env)
			ctx := context.Background()
			v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
				VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "drain", PayValue: 1, ActualValue: 2},
				Stock:        10_000_000, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				claims := make([]domain.Claim, batch)
				for i := range claims {
					id := drainIDs.Add(1)
					claims[i] = domain.Claim{OrderID: id, UserID: id, VoucherID: v.ID, ClaimedAt: time.Now()}
				}
				if err := svc.Ops.OrderWriter.ProcessClaims(ctx, claims); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*batch)/time.Since(start).Seconds(), "orders/s")
		})
		b.Run(fmt.Sprintf("raw-insert/batch=%d", batch), func(b *testing.B) {
			_, svc := startService(b, env)
			db := svc.Store.DB()
			ph := func(i int) string {
				if svc.Store.Dialect() == "postgres" {
					return fmt.Sprintf("$%d", i)
				}
				return "?"
			}
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				var sb strings.Builder
				sb.WriteString("INSERT INTO voucher_orders (id, created_at, updated_at, user_id, voucher_id, status) VALUES ")
				args := make([]any, 0, batch*6)
				now := time.Now().UTC()
				for i := range batch {
					if i > 0 {
						sb.WriteString(", ")
					}
					n := len(args)
					fmt.Fprintf(&sb, "(%s, %s, %s, %s, %s, %s)", ph(n+1), ph(n+2), ph(n+3), ph(n+4), ph(n+5), ph(n+6))
					id := drainIDs.Add(1)
					args = append(args, id, now, now, id, int64(1), "CREATED")
				}
				if _, err := db.Exec(sb.String(), args...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*batch)/time.Since(start).Seconds(), "orders/s")
		})
	}
}
