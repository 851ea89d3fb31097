package service_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
)

// liveSales creates n flash sales on shop 1 that are on now.
func liveSales(t *testing.T, svc *service.Node, n int) []int64 {
	t.Helper()
	now := time.Now()
	out := make([]int64, n)
	for i := range out {
		v, err := svc.App.Commands.FlashSales.CreateFlashSale(context.Background(), domain.Operator, seckill.FlashSaleInput{
			VoucherInput: seckill.VoucherInput{ShopID: 1, Title: fmt.Sprintf("sale %d", i), PayValue: 100, ActualValue: 1000},
			Stock:        100, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour),
		})
		if err != nil {
			t.Fatal(err)
		}
		out[i] = v.ID
	}
	return out
}

// rateLimited reports whether err is RATE_LIMITED with a positive retry-after.
func rateLimited(t *testing.T, err error) bool {
	t.Helper()
	var e *domain.Error
	if !errors.As(err, &e) || e.Code != domain.CodeRateLimited {
		return false
	}
	if e.RetryAfterSeconds < 1 {
		t.Errorf("RATE_LIMITED without retryAfterSeconds: %+v", e)
	}
	return true
}

// One user claiming ten sales (on ten different gate shards) is held to the per-user
// rate across all of them, not to that rate per shard.
func TestClaimRatePerUserSpansSales(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{"RECONCILE_INTERVAL": "0", "ORDER_CONSUMER": "false",
		"CLAIM_RATE_PER_USER": "5/1m", "SECKILL_SHARDS": "16"})
	sales := liveSales(t, svc, 10)
	passed, limited := 0, 0
	for round := range 2 {
		for _, v := range sales {
			_, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), 77, v)
			switch {
			case rateLimited(t, err):
				limited++
			case err == nil || errors.Is(err, domain.ErrAlreadyClaimed):
				passed++
			default:
				t.Fatalf("round %d, sale %d: %v", round, v, err)
			}
		}
	}
	if passed != 5 || limited != 15 {
		t.Fatalf("one user over 10 sales at 5/min: %d claims got through, %d were rate limited; want 5 and 15", passed, limited)
	}
	// Another user is not affected.
	if _, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), 78, sales[0]); err != nil {
		t.Fatalf("another user: %v", err)
	}
}

// The global claim bucket refuses claims past its rate with RATE_LIMITED and a
// retry-after, whoever makes them.
func TestClaimRateGlobalBucket(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{"RECONCILE_INTERVAL": "0", "ORDER_CONSUMER": "false",
		"CLAIM_RATE_GLOBAL": "3/1m"})
	sale := liveSales(t, svc, 1)[0]
	accepted, limited := 0, 0
	for u := int64(1); u <= 10; u++ {
		_, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), 1000+u, sale)
		switch {
		case err == nil:
			accepted++
		case rateLimited(t, err):
			limited++
		default:
			t.Fatalf("user %d: %v", u, err)
		}
	}
	if accepted != 3 || limited != 7 {
		t.Fatalf("global bucket 3/min: %d accepted, %d rate limited; want 3 and 7", accepted, limited)
	}
}
