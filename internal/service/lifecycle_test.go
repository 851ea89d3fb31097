package service_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// lifecycleEnv is a node on real PostgreSQL and Redis whose unpaid orders expire fast.
func lifecycleEnv(t *testing.T, extra map[string]string) map[string]string {
	t.Helper()
	env := map[string]string{
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t),
		"QUEUE": "redis", "QUEUE_NAMESPACE": "t" + testsupport.RandomSuffix(8) + ".",
		"CLAIM_RATE_PER_USER": "off", "ORDER_EXPIRY_INTERVAL": "100ms",
		// The provider is driven by the test (Notify), never by the simulator's own timer.
		"PAYMENT_SIM_DELAY": "1h",
	}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

func user(id int64) domain.Actor { return domain.Actor{UserID: id, Role: domain.RoleUser} }

// pay pays an order the way the provider would: payOrder, then the provider's verified
// notification of success.
func pay(ctx context.Context, svc *service.Node, userID, orderID int64) (domain.Payment, error) {
	p, err := svc.App.Commands.PayOrder.Handle(ctx, user(userID), orderID)
	if err != nil {
		return domain.Payment{}, err
	}
	if err := svc.Ops.PaymentNotifications.Notify(ctx, orders.Notification{
		PaymentID: p.ID, ProviderRef: p.ProviderRef, Succeeded: true, Amount: p.Amount, At: time.Now(),
	}); err != nil {
		return p, err
	}
	// The expiry may have won the race: the payment is then refunded.
	o, err := svc.Store.Orders().Order(ctx, orderID)
	if err != nil {
		return p, err
	}
	if o.Status != domain.OrderPaid {
		return p, domain.StatusConflict(o.Status, "order %d ended %s, its payment refunded", orderID, o.Status)
	}
	return p, nil
}

// waitWritten waits until the order exists in the database.
func waitWritten(svc *service.Node, userID, orderID int64) (domain.VoucherOrder, error) {
	deadline := time.Now().Add(60 * time.Second)
	for {
		o, found, err := svc.App.Queries.Orders.Order(context.Background(), userID, orderID)
		if err != nil {
			return domain.VoucherOrder{}, err
		}
		if found && o.Status != domain.OrderPending {
			return o, nil
		}
		if time.Now().After(deadline) {
			return domain.VoucherOrder{}, fmt.Errorf("order %d not written within a minute", orderID)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLifecycleReturnedUnitsAreSoldAgain: 1,000 users claim a sale of 300; a third
// pay, a third cancel and a third let their orders expire, while 1,000 more users keep
// claiming the units that come back (and pay at once). Every returned unit is sold
// again, and I1–I7 hold.
func TestLifecycleReturnedUnitsAreSoldAgain(t *testing.T) {
	t.Parallel()
	const stock, firstWave, secondWave = 300, 1000, 1000
	_, svc := startService(t, lifecycleEnv(t, map[string]string{"ORDER_PAY_TIMEOUT": "3s"}))
	ctx := context.Background()
	v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
		VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "lifecycle", PayValue: 990, ActualValue: 2000},
		Stock:        stock, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	accepted, refused := flood(t, svc, v.ID, firstWave, 1)
	if len(accepted) != stock {
		t.Fatalf("first wave: accepted %d claims for a stock of %d (refusals %v)", len(accepted), stock, refused)
	}
	owners := map[int64]int64{}
	for _, id := range accepted {
		o, err := svc.Store.Orders().Order(ctx, id)
		for errors.Is(err, domain.ErrNotFound) {
			time.Sleep(10 * time.Millisecond)
			o, err = svc.Store.Orders().Order(ctx, id)
		}
		if err != nil {
			t.Fatal(err)
		}
		owners[id] = o.UserID
	}

	// The second wave keeps claiming while the first wave pays, cancels and expires.
	var (
		wg         sync.WaitGroup
		secondPaid atomic.Int64
		stop       = make(chan struct{})
		stopOnce   sync.Once
	)
	halt := func() { stopOnce.Do(func() { close(stop) }); wg.Wait() }
	defer halt() // also when the test fails early: no goroutine outlives the node
	for u := int64(firstWave + 1); u <= firstWave+secondWave; u++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Once an order of u expired, u holds the sale until the sweep that canceled
			// it has also given the unit back to the gate: ALREADY_CLAIMED meanwhile.
			var expiredAt time.Time
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID)
				if err != nil {
					c := domain.ErrorCode(err)
					released := c == domain.CodeAlreadyClaimed && !expiredAt.IsZero() && time.Since(expiredAt) < 10*time.Second
					if c != domain.CodeSoldOut && c != domain.CodeRateLimited && !released {
						t.Errorf("second wave claim: %v", err)
						return
					}
					time.Sleep(20 * time.Millisecond)
					continue
				}
				if _, err := waitWritten(svc, u, res.OrderID); err != nil {
					t.Error(err)
					return
				}
				if _, err := pay(ctx, svc, u, res.OrderID); err != nil {
					// Paid too late on a busy machine: the order expired and its unit
					// came back; claim again.
					if domain.ErrorCode(err) == domain.CodeConflict {
						expiredAt = time.Now()
						continue
					}
					t.Errorf("second wave pay: %v", err)
					return
				}
				secondPaid.Add(1)
				return
			}
		}()
	}

	// The first wave, all at once: a third pay, a third cancel, a third do nothing. On a
	// busy machine an order may expire before its buyer acts: it then counts as expired.
	var (
		fmu                      sync.Mutex
		paidFirst, canceledFirst int
		fwg                      sync.WaitGroup
	)
	i := 0
	for id, uid := range owners {
		action := i % 3
		i++
		fwg.Add(1)
		go func() {
			defer fwg.Done()
			if _, err := waitWritten(svc, uid, id); err != nil {
				t.Error(err)
				return
			}
			var err error
			switch action {
			case 0:
				_, err = pay(ctx, svc, uid, id)
			case 1:
				_, err = svc.App.Commands.CancelOrder.Handle(ctx, user(uid), id)
			default:
				return
			}
			fmu.Lock()
			defer fmu.Unlock()
			switch {
			case err == nil && action == 0:
				paidFirst++
			case err == nil:
				canceledFirst++
			case domain.ErrorCode(err) != domain.CodeConflict:
				t.Errorf("order %d: %v", id, err)
			}
		}()
	}
	fwg.Wait()
	returned := stock - paidFirst
	deadline := time.Now().Add(90 * time.Second)
	for secondPaid.Load() < int64(returned) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	halt()
	if got := secondPaid.Load(); got != int64(returned) {
		t.Fatalf("the second wave bought %d of the %d units that came back", got, returned)
	}

	// Every first-wave order that was not paid is CANCELED, by its buyer or by the
	// deadline; every unit is held by a PAID order.
	t.Logf("first wave: %d paid, %d canceled by their buyers, the rest expired", paidFirst, canceledFirst)
	reasons := map[domain.CancelReason]int{}
	for id, uid := range owners {
		o, found, err := svc.App.Queries.Orders.Order(ctx, uid, id)
		if err != nil || !found {
			t.Fatalf("order %d: found %v, %v", id, found, err)
		}
		switch o.Status {
		case domain.OrderPaid:
		case domain.OrderCanceled:
			reasons[o.CancelReason]++
		default:
			t.Errorf("first-wave order %d ended %s", id, o.Status)
		}
	}
	if reasons[domain.CancelByBuyer] != canceledFirst || reasons[domain.CancelTimeout] != stock-paidFirst-canceledFirst {
		t.Errorf("cancel reasons %v, want %d BUYER and %d TIMEOUT", reasons, canceledFirst, stock-paidFirst-canceledFirst)
	}
	a := drain(t, svc, v.ID)
	if bad := a.Check(stock); len(bad) > 0 {
		t.Errorf("invariants: %v (audit %+v)", bad, a)
	}
	if a.Orders.Created != stock || a.DBStock != 0 || !a.RedisLoaded || a.RedisStock != 0 {
		t.Errorf("after the second wave: %d orders hold units, database stock %d, redis stock %d (loaded %v); want %d, 0, 0",
			a.Orders.Created, a.DBStock, a.RedisStock, a.RedisLoaded, stock)
	}
	checkLedger(t, svc, v.ID)
}

// checkLedger waits until the sale's payments and refunds have settled and checks I6
// and I7 on its orders and payments.
func checkLedger(t *testing.T, svc *service.Node, voucherID int64) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		led, err := svc.Store.Payments().Ledger(context.Background(), voucherID)
		if err != nil {
			t.Fatal(err)
		}
		if led.Settled() || time.Now().After(deadline) {
			if bad := led.Check(); len(bad) > 0 || !led.Settled() {
				t.Errorf("I6/I7: %v (ledger %+v)", bad, led)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestPayVersusExpiryHasOneWinner: 100 orders are paid at their deadline while the
// expiry runs; each ends PAID or CANCELED, never both, and every payment that
// succeeded for a canceled order is refunded (I6).
func TestPayVersusExpiryHasOneWinner(t *testing.T) {
	t.Parallel()
	const n = 100
	// The deadline leaves room to start 100 payments one after another on a busy machine
	// before the first of them passes; the race under test is at the deadline itself.
	_, svc := startService(t, lifecycleEnv(t, map[string]string{"ORDER_PAY_TIMEOUT": "10s", "ORDER_EXPIRY_INTERVAL": "20ms"}))
	ctx := context.Background()
	v, err := svc.App.Commands.FlashSales.CreateFlashSale(ctx, domain.Operator, seckill.FlashSaleInput{
		VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "race", PayValue: 500, ActualValue: 1000},
		Stock:        n, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	accepted, _ := flood(t, svc, v.ID, n, 1)
	if len(accepted) != n {
		t.Fatalf("accepted %d of %d", len(accepted), n)
	}
	type started struct {
		order   domain.VoucherOrder
		payment domain.Payment
	}
	var ps []started
	for _, id := range accepted {
		o, err := svc.Store.Orders().Order(ctx, id)
		for errors.Is(err, domain.ErrNotFound) {
			time.Sleep(10 * time.Millisecond)
			o, err = svc.Store.Orders().Order(ctx, id)
		}
		if err != nil {
			t.Fatal(err)
		}
		p, err := svc.App.Commands.PayOrder.Handle(ctx, user(o.UserID), id)
		if err != nil {
			t.Fatalf("pay order %d: %v", id, err)
		}
		ps = append(ps, started{o, p})
	}
	// Notify each success right at its order's deadline, while the expiry sweeps.
	var wg sync.WaitGroup
	for _, s := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Until(*s.order.PayDeadline))
			if err := svc.Ops.PaymentNotifications.Notify(ctx, orders.Notification{
				PaymentID: s.payment.ID, ProviderRef: s.payment.ProviderRef, Succeeded: true, Amount: s.payment.Amount, At: time.Now(),
			}); err != nil {
				t.Errorf("notify: %v", err)
			}
		}()
	}
	wg.Wait()
	time.Sleep(500 * time.Millisecond) // the expiry's last sweep
	var paid, canceled int
	for _, s := range ps {
		o, err := svc.Store.Orders().Order(ctx, s.order.ID)
		if err != nil {
			t.Fatal(err)
		}
		p, err := svc.Store.Payments().Payment(ctx, s.payment.ID)
		if err != nil {
			t.Fatal(err)
		}
		switch o.Status {
		case domain.OrderPaid:
			paid++
			if p.Status != domain.PaymentSucceeded || o.PayTime == nil || o.CanceledAt != nil || o.RedemptionCode == "" {
				t.Errorf("paid order %d: payment %s, paid at %v, canceled at %v, code %q", o.ID, p.Status, o.PayTime, o.CanceledAt, o.RedemptionCode)
			}
		case domain.OrderCanceled:
			canceled++
			if p.Status != domain.PaymentRefunded && p.Status != domain.PaymentRefundPending {
				t.Errorf("canceled order %d kept a payment %s (I6)", o.ID, p.Status)
			}
			if o.PayTime != nil {
				t.Errorf("order %d is both paid and canceled (I6)", o.ID)
			}
		default:
			t.Errorf("order %d ended %s", o.ID, o.Status)
		}
	}
	t.Logf("%d paid, %d canceled at their deadline", paid, canceled)
	a := drain(t, svc, v.ID)
	if bad := a.Check(n); len(bad) > 0 {
		t.Errorf("invariants: %v", bad)
	}
	if a.Orders.Created != int64(paid) {
		t.Errorf("%d orders hold units, want the %d paid ones", a.Orders.Created, paid)
	}
	checkLedger(t, svc, v.ID)
}

// TestPaymentCallbackOverHTTP: the simulated provider calls POST /payments/notify with
// a signed body; the order becomes PAID once however often it is told, and a forged
// notification changes nothing.
func TestPaymentCallbackOverHTTP(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	env := lifecycleEnv(t, map[string]string{
		"PAYMENT_SIM_DELAY": "50ms", "PAYMENT_NOTIFY_URL": "http://" + ln.Addr().String() + "/payments/notify",
		"DEALSPOT_DATA_DIR": t.TempDir(),
	})
	testsupport.DevModeOnPurpose(env)
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: svc.Handler}}
	srv.Start()
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })

	ctx := context.Background()
	vo, err := svc.App.Commands.FlashSales.CreateVoucher(ctx, domain.Operator, seckill.VoucherInput{ShopID: 1, Title: "normal", PayValue: 1200, ActualValue: 1500})
	if err != nil {
		t.Fatal(err)
	}
	o, err := svc.App.Commands.BuyVoucher.Handle(ctx, user(7), vo.ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != domain.OrderCreated || o.Amount != 2400 || o.PayDeadline == nil {
		t.Fatalf("bought %+v", o)
	}
	p, err := svc.App.Commands.PayOrder.Handle(ctx, user(7), o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Amount != 2400 || p.Status != domain.PaymentPending {
		t.Fatalf("payment %+v", p)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, _, err := svc.App.Queries.Orders.Order(ctx, 7, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status == domain.OrderPaid {
			if len(got.RedemptionCode) != domain.RedemptionCodeLen {
				t.Errorf("paid order has code %q", got.RedemptionCode)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("order still %s 30s after paying", got.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Refunded: the order is REFUNDED and its payment's money went back.
	ref, err := svc.App.Commands.RequestRefund.Handle(ctx, user(7), o.ID, "plans changed")
	if err != nil || ref.Status != domain.OrderRefunded || ref.RefundTime == nil || ref.RefundReason != "plans changed" {
		t.Fatalf("refund: %+v, %v", ref, err)
	}
	if paid, err := svc.Store.Payments().Payment(ctx, p.ID); err != nil || paid.Status != domain.PaymentRefunded || paid.RefundedAt == nil {
		t.Errorf("payment after the refund: %+v, %v", paid, err)
	}
	if _, err := svc.App.Commands.RequestRefund.Handle(ctx, user(7), o.ID, ""); domain.ErrorCode(err) != domain.CodeConflict {
		t.Errorf("second refund: %v, want CONFLICT", err)
	}
	// A forged notification is refused.
	resp, err := http.Post(srv.URL+"/payments/notify", "application/json",
		strings.NewReader(`{"paymentId":"`+strconv.FormatInt(p.ID, 10)+`","status":"SUCCEEDED","amount":2400}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("forged notification answered %d, want 401", resp.StatusCode)
	}
}
