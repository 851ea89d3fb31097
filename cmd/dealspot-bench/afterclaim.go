package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

// The after-claim walk takes accepted orders through the rest of their lives over
// GraphQL, as their buyers and the shop would, and then checks I5–I7 on the sale: the
// i-th order (in user order) is
//
//	0  paid, redeemed, redeemed again (must be CONFLICT: I7), then refunded (must be CONFLICT)
//	1  paid, then refunded: its unit goes back to the sale, its money to the buyer
//	2  canceled: its unit goes back to the sale
//	3  paid twice at once: one payment, one PAID order
//	4  left unpaid (CREATED until the server's ORDER_PAY_TIMEOUT)
const afterClaimKinds = 5

// Operations the walk sends.
const (
	opOrder  = `query Order($id: ID!) { order(id: $id) { status redemptionCode } }`
	opPay    = `mutation Pay($id: ID!) { payOrder(orderId: $id) { id status } }`
	opCancel = `mutation Cancel($id: ID!) { cancelOrder(orderId: $id) { status } }`
	opRefund = `mutation Refund($id: ID!) { requestRefund(orderId: $id, reason: "dealspot-bench") { status } }`
	opRedeem = `mutation Redeem($code: String!) { redeemOrder(code: $code) { status } }`
)

// redeemer redeems a code as the shop (or an ADMIN) and returns the order's status, or
// the refusal's extensions.code (errCode) and the error.
type redeemer func(ctx context.Context, code string) (status, errCode string, err error)

// afterClaimJSON is what the walk did.
type afterClaimJSON struct {
	Note   string `json:"note,omitempty"`
	Orders int    `json:"orders"`
	// Outcomes counts the orders by what became of them: PAID, USED, REFUNDED,
	// CANCELED, CREATED (left unpaid) and EXPIRED (the deadline came first).
	Outcomes map[string]int `json:"outcomes"`
	// SecondRedeems counts second redemptions of a used code, and how many the server
	// refused with CONFLICT.
	SecondRedeems        int `json:"second_redeems"`
	SecondRedeemsRefused int `json:"second_redeems_refused"`
	// RefundsAfterUse counts refunds asked for used orders, and how many were refused.
	RefundsAfterUse        int `json:"refunds_after_use"`
	RefundsAfterUseRefused int `json:"refunds_after_use_refused"`
	// Unexpected lists answers the walk did not expect (at most 10).
	Unexpected []string `json:"unexpected"`
	Seconds    float64  `json:"seconds"`
	// SettleSeconds is how long until no payment waited for the provider and no refund
	// was on its way.
	SettleSeconds float64     `json:"settle_seconds"`
	Audit         *auditJSON  `json:"audit,omitempty"`
	Ledger        *ledgerJSON `json:"ledger,omitempty"`

	mu          sync.Mutex
	unexpectedN int
	started     time.Time
}

type ledgerJSON struct {
	Orders          int64 `json:"orders"`
	Payments        int64 `json:"payments"`
	PaymentsPending int64 `json:"payments_pending"`
	RefundsPending  int64 `json:"refunds_pending"`
}

func (a *afterClaimJSON) count(outcome string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.Outcomes[outcome]++
}

func (a *afterClaimJSON) unexpected(format string, args ...any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.unexpectedN++
	if len(a.Unexpected) < 10 {
		a.Unexpected = append(a.Unexpected, fmt.Sprintf(format, args...))
	}
}

// codeOf is an error's extensions.code ("" for none, TRANSPORT for no answer).
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	var ce *callError
	if errors.As(err, &ce) {
		if len(ce.Errors) > 0 {
			return ce.Errors[0].Extensions.Code
		}
		return "HTTP_" + strconv.Itoa(ce.Status)
	}
	return answerTransport
}

// walker runs the walk for one sale.
type walker struct {
	c      *client
	redeem redeemer // nil: no shop credentials, orders are paid but not redeemed
	out    *afterClaimJSON
	// payWait bounds the wait for the provider's notification.
	payWait time.Duration
}

// walk takes the orders (order id → the buyer's token) through their kinds, concurrency
// at a time.
func (w *walker) walk(ctx context.Context, owned []ownedOrder, concurrency int) {
	w.out.started = time.Now()
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(concurrency, len(owned))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				w.one(ctx, owned[i], i%afterClaimKinds)
			}
		}()
	}
	for i := range owned {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	w.out.Seconds = time.Since(w.out.started).Seconds()
}

// ownedOrder is an accepted claim's order and its buyer's token.
type ownedOrder struct {
	id    int64
	token string
}

func (w *walker) call(ctx context.Context, o ownedOrder, op string, out any) error {
	return w.c.call(ctx, o.token, op, map[string]any{"id": strconv.FormatInt(o.id, 10)}, out)
}

// one takes an order through kind's steps.
func (w *walker) one(ctx context.Context, o ownedOrder, kind int) {
	expired := func(step string, err error) bool {
		if codeOf(err) == "CONFLICT" {
			w.out.count("EXPIRED") // the deadline came first (a short ORDER_PAY_TIMEOUT)
			return true
		}
		w.out.unexpected("order %d %s: %v", o.id, step, err)
		return true
	}
	switch kind {
	case 2:
		if err := w.call(ctx, o, opCancel, nil); err != nil {
			expired("cancel", err)
			return
		}
		w.out.count("CANCELED")
		return
	case 4:
		w.out.count("CREATED")
		return
	}
	if err := w.pay(ctx, o, kind == 3); err != nil {
		expired("pay", err)
		return
	}
	code, err := w.awaitPaid(ctx, o)
	if err != nil {
		w.out.unexpected("order %d: %v", o.id, err)
		return
	}
	switch {
	case kind == 1:
		if err := w.call(ctx, o, opRefund, nil); err != nil {
			w.out.unexpected("order %d refund: %v", o.id, err)
			return
		}
		w.out.count("REFUNDED")
	case kind == 0 && w.redeem != nil:
		if status, _, err := w.redeem(ctx, code); err != nil || status != "USED" {
			w.out.unexpected("order %d redeem: %s %v", o.id, status, err)
			return
		}
		w.out.count("USED")
		_, again, _ := w.redeem(ctx, code)
		w.out.mu.Lock()
		w.out.SecondRedeems++
		if again == "CONFLICT" {
			w.out.SecondRedeemsRefused++
		}
		w.out.mu.Unlock()
		err := w.call(ctx, o, opRefund, nil)
		w.out.mu.Lock()
		w.out.RefundsAfterUse++
		if codeOf(err) == "CONFLICT" {
			w.out.RefundsAfterUseRefused++
		}
		w.out.mu.Unlock()
	default:
		w.out.count("PAID")
	}
}

// pay asks for a payment (twice at once when twice is set: both answers must name one
// payment).
func (w *walker) pay(ctx context.Context, o ownedOrder, twice bool) error {
	type payment struct {
		PayOrder struct{ ID string }
	}
	if !twice {
		return w.call(ctx, o, opPay, nil)
	}
	var (
		a, b       payment
		errA, errB error
		wg         sync.WaitGroup
	)
	wg.Add(2)
	go func() { defer wg.Done(); errA = w.call(ctx, o, opPay, &a) }()
	go func() { defer wg.Done(); errB = w.call(ctx, o, opPay, &b) }()
	wg.Wait()
	if err := errors.Join(errA, errB); err != nil {
		return err
	}
	if a.PayOrder.ID != b.PayOrder.ID {
		w.out.unexpected("order %d paid twice at once: payments %s and %s", o.id, a.PayOrder.ID, b.PayOrder.ID)
	}
	return nil
}

// awaitPaid polls the order until the provider's notification made it PAID, and
// returns its redemption code.
func (w *walker) awaitPaid(ctx context.Context, o ownedOrder) (string, error) {
	deadline := time.Now().Add(w.payWait)
	for {
		var out struct {
			Order struct {
				Status         string
				RedemptionCode *string
			}
		}
		if err := w.call(ctx, o, opOrder, &out); err != nil {
			return "", fmt.Errorf("read while paying: %w", err)
		}
		switch out.Order.Status {
		case "PAID":
			if out.Order.RedemptionCode == nil || *out.Order.RedemptionCode == "" {
				return "", errors.New("PAID without a redemption code")
			}
			return *out.Order.RedemptionCode, nil
		case "CREATED":
		default:
			return "", fmt.Errorf("paying: the order became %s", out.Order.Status)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return "", fmt.Errorf("not PAID %s after paying", w.payWait)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// settle waits until the sale's ledger is settled (no payment waiting for the provider,
// no refund on its way) and its claims are all written, then checks I5–I7.
func (w *walker) settle(ctx context.Context, audit func(context.Context, int64) (seckill.Audit, error),
	ledger func(context.Context, int64) (orders.Ledger, error), voucherID, initialStock int64, timeout time.Duration) ([]check, error) {
	t0 := time.Now()
	deadline := t0.Add(timeout)
	var (
		led orders.Ledger
		a   seckill.Audit
		err error
	)
	for {
		if led, err = ledger(ctx, voucherID); err != nil {
			return nil, err
		}
		if a, err = audit(ctx, voucherID); err != nil {
			return nil, err
		}
		if (led.Settled() && a.Pending == 0) || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	w.out.SettleSeconds = time.Since(t0).Seconds()
	w.out.Audit = toAuditJSON(a)
	w.out.Ledger = &ledgerJSON{Orders: led.Orders, Payments: led.Payments, PaymentsPending: led.PaymentsPending, RefundsPending: led.RefundsPending}
	return afterClaimChecks(w.out, a, led, initialStock), nil
}

// afterClaimChecks are the checks of the walked sale.
func afterClaimChecks(out *afterClaimJSON, a seckill.Audit, led orders.Ledger, initialStock int64) []check {
	var i5, i6, i7 []string
	for _, v := range a.Check(initialStock) {
		if strings.HasPrefix(v, "I3") || strings.HasPrefix(v, "I4") || strings.HasPrefix(v, "I5") {
			i5 = append(i5, v)
		}
	}
	if !led.Settled() {
		i6 = append(i6, fmt.Sprintf("not settled: %d payments await the provider, %d refunds on their way", led.PaymentsPending, led.RefundsPending))
	}
	for _, v := range led.Check() {
		if strings.HasPrefix(v, "I6") {
			i6 = append(i6, v)
		} else {
			i7 = append(i7, v)
		}
	}
	if out.SecondRedeems != out.SecondRedeemsRefused {
		i7 = append(i7, fmt.Sprintf("I7 %d of %d second redemptions not refused with CONFLICT",
			out.SecondRedeems-out.SecondRedeemsRefused, out.SecondRedeems))
	}
	mk := func(name, detail string, bad []string) check {
		if len(bad) > 0 {
			return check{Name: name, OK: false, Detail: strings.Join(bad, "; ")}
		}
		return check{Name: name, OK: true, Detail: detail}
	}
	var steps []string
	if out.unexpectedN > 0 {
		steps = append(steps, fmt.Sprintf("%d unexpected answers: %s", out.unexpectedN, strings.Join(out.Unexpected, "; ")))
	}
	if out.RefundsAfterUse != out.RefundsAfterUseRefused {
		steps = append(steps, fmt.Sprintf("%d of %d refunds of used orders not refused", out.RefundsAfterUse-out.RefundsAfterUseRefused, out.RefundsAfterUse))
	}
	redeemed := fmt.Sprintf("%d second redemptions all CONFLICT", out.SecondRedeems)
	if out.SecondRedeems == 0 {
		redeemed = "no code redeemed (" + out.Note + "); codes unique"
	}
	redis := "redis stock not loaded"
	if a.RedisLoaded {
		redis = fmt.Sprintf("redis stock %d", a.RedisStock)
	}
	return []check{
		mk("after the claim: each step as expected", outcomesLine(out), steps),
		mk("I5 units add up after the claim", fmt.Sprintf("%s, database stock %d, %d orders hold units; initial %d",
			redis, a.DBStock, a.Orders.Created, initialStock), i5),
		mk("I6 no money kept for nothing", fmt.Sprintf("%d payments on %d orders, none paid and canceled", led.Payments, led.Orders), i6),
		mk("I7 a code redeems once", redeemed, i7),
	}
}

func outcomesLine(out *afterClaimJSON) string {
	keys := make([]string, 0, len(out.Outcomes))
	for k := range out.Outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, out.Outcomes[k])
	}
	return fmt.Sprintf("%d orders: %s; %d refunds of used orders refused", out.Orders, strings.Join(parts, ", "), out.RefundsAfterUseRefused)
}
