package domain_test

import (
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

var allStatuses = []domain.OrderStatus{domain.OrderPending, domain.OrderCreated, domain.OrderFailed, domain.OrderPaid,
	domain.OrderUsed, domain.OrderCanceled, domain.OrderRefunded}

// The state machine, state by state: for every status, the status each action leads to,
// "" where the action is refused.
func TestOrderTransitionTable(t *testing.T) {
	t.Parallel()
	const no = domain.OrderStatus("")
	want := map[domain.OrderStatus]map[domain.OrderAction]domain.OrderStatus{
		domain.OrderPending: {domain.OrderWrite: domain.OrderCreated, domain.OrderWriteFree: domain.OrderPaid,
			domain.OrderFail: domain.OrderFailed},
		domain.OrderCreated: {domain.OrderPay: domain.OrderPaid, domain.OrderCancel: domain.OrderCanceled,
			domain.OrderExpire: domain.OrderCanceled},
		domain.OrderPaid:     {domain.OrderRefund: domain.OrderRefunded, domain.OrderRedeem: domain.OrderUsed},
		domain.OrderFailed:   {},
		domain.OrderUsed:     {},
		domain.OrderCanceled: {},
		domain.OrderRefunded: {},
	}
	actions := []domain.OrderAction{domain.OrderWrite, domain.OrderWriteFree, domain.OrderFail, domain.OrderPay,
		domain.OrderCancel, domain.OrderExpire, domain.OrderRefund, domain.OrderRedeem}
	if len(domain.OrderMoves()) != len(actions) {
		t.Fatalf("the table has %d rows, the test knows %d actions", len(domain.OrderMoves()), len(actions))
	}
	for _, s := range allStatuses {
		for _, a := range actions {
			t.Run(string(s)+" "+string(a), func(t *testing.T) {
				o := domain.VoucherOrder{ID: 1, Status: s}
				got, err := o.Next(a)
				to := want[s][a]
				if to == no {
					var coded *domain.Error
					if !errors.As(err, &coded) || coded.Code != domain.CodeConflict || coded.CurrentStatus != string(s) ||
						coded.Message != "cannot "+string(a)+" an order that is "+string(s) || got != s {
						t.Fatalf("%s from %s = %s, %v; want CONFLICT naming %s, status unchanged", a, s, got, err, s)
					}
					if domain.MoveOf(a).Allows(s) {
						t.Fatalf("the %s row allows %s", a, s)
					}
					return
				}
				if err != nil || got != to {
					t.Fatalf("%s from %s = %s, %v; want %s", a, s, got, err, to)
				}
				if !domain.MoveOf(a).Allows(s) {
					t.Fatalf("the %s row does not allow %s", a, s)
				}
			})
		}
		if s.Final() != (len(want[s]) == 0) {
			t.Errorf("%s: Final %v, but %d actions lead on from it", s, s.Final(), len(want[s]))
		}
	}
}

// The named steps are the table's rows, and their refusals are the API's CONFLICT.
func TestOrderSteps(t *testing.T) {
	t.Parallel()
	created, paid := domain.VoucherOrder{Status: domain.OrderCreated}, domain.VoucherOrder{Status: domain.OrderPaid}
	for _, c := range []struct {
		name string
		step func() (domain.OrderStatus, error)
		want domain.OrderStatus
	}{
		{"pay", created.Pay, domain.OrderPaid},
		{"cancel", created.Cancel, domain.OrderCanceled},
		{"expire", created.Expire, domain.OrderCanceled},
		{"refund", paid.Refund, domain.OrderRefunded},
		{"redeem", paid.Redeem, domain.OrderUsed},
		{"fail", domain.VoucherOrder{Status: domain.OrderPending}.Fail, domain.OrderFailed},
		{"written", domain.VoucherOrder{Status: domain.OrderPending, Amount: 990}.Written, domain.OrderCreated},
		{"written free", domain.VoucherOrder{Status: domain.OrderPending}.Written, domain.OrderPaid},
	} {
		if got, err := c.step(); err != nil || got != c.want {
			t.Errorf("%s: %s, %v; want %s", c.name, got, err, c.want)
		}
	}
	used := domain.VoucherOrder{Status: domain.OrderUsed}
	_, err := used.Refund()
	if domain.ErrorCode(err) != domain.CodeConflict || err.Error() != "CONFLICT: cannot refund an order that is USED" {
		t.Errorf("refund of a USED order: %v", err)
	}
}

// Only the moves out of a written order into a status that holds no unit give one back.
func TestOrderMovesReturningUnits(t *testing.T) {
	t.Parallel()
	for _, m := range domain.OrderMoves() {
		want := m.Action == domain.OrderCancel || m.Action == domain.OrderExpire || m.Action == domain.OrderRefund
		if m.ReturnsUnit() != want {
			t.Errorf("%s returns a unit: %v, want %v", m.Action, m.ReturnsUnit(), want)
		}
	}
	if domain.WriteAction(0) != domain.OrderWriteFree || domain.WriteAction(1) != domain.OrderWrite {
		t.Errorf("write actions: free %s, priced %s", domain.WriteAction(0), domain.WriteAction(1))
	}
}
