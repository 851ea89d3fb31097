package service_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// gateCommands counts the Redis commands that touch a flash-sale key.
type gateCommands struct{ n atomic.Int64 }

func (c *gateCommands) count(cmd goredis.Cmder) {
	for _, a := range cmd.Args() {
		if s, ok := a.(string); ok && strings.HasPrefix(s, "seckill:") {
			c.n.Add(1)
			return
		}
	}
}

func (c *gateCommands) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (c *gateCommands) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		c.count(cmd)
		return next(ctx, cmd)
	}
}

func (c *gateCommands) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		for _, cmd := range cmds {
			c.count(cmd)
		}
		return next(ctx, cmds)
	}
}

// Looking up an order that is not written yet must cost the same number of Redis commands
// however many sales are live (it used to cost one per live sale per unknown id), and a
// pending order is still found — by its owner only.
func TestOrderLookupDoesNotGrowWithLiveSales(t *testing.T) {
	t.Parallel()
	_, svc := startService(t, map[string]string{"RECONCILE_INTERVAL": "0", "ORDER_CONSUMER": "false"})
	ctx := context.Background()
	hook := &gateCommands{}
	svc.Redis.Client.AddHook(hook)
	now := time.Now()
	newSales := func(n int) []domain.Voucher {
		out := make([]domain.Voucher, n)
		for i := range out {
			v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
				VoucherInput: seckill.VoucherInput{ShopID: 1, Title: fmt.Sprintf("sale %d", i), PayValue: 100, ActualValue: 1000},
				Stock:        10, BeginTime: now.Add(-time.Minute), EndTime: now.Add(time.Hour),
			})
			if err != nil {
				t.Fatal(err)
			}
			out[i] = v
		}
		return out
	}
	cost := func(orderID int64) int64 {
		t.Helper()
		before := hook.n.Load()
		if _, found, err := svc.App.Queries.Orders.Order(ctx, 7, orderID); err != nil || found {
			t.Fatalf("order %d: found %v, error %v", orderID, found, err)
		}
		return hook.n.Load() - before
	}
	sales := newSales(2)
	few := cost(1 << 40)
	sales = append(sales, newSales(40)...)
	many := cost(1<<40 + 1)
	if many != few {
		t.Fatalf("an unknown order id cost %d gate commands with 2 live sales and %d with 42", few, many)
	}

	claim, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 8, sales[len(sales)-1].ID)
	if err != nil {
		t.Fatal(err)
	}
	o, found, err := svc.App.Queries.Orders.Order(ctx, 8, claim.OrderID)
	if err != nil || !found || o.Status != domain.OrderPending || o.VoucherID != sales[len(sales)-1].ID || o.UserID != 8 {
		t.Fatalf("pending order: %+v found %v error %v", o, found, err)
	}
	if _, found, err := svc.App.Queries.Orders.Order(ctx, 9, claim.OrderID); err != nil || found {
		t.Fatalf("someone else's pending order: found %v error %v", found, err)
	}
}
