package simpay_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/payment/simpay"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/orders/orderstest"
)

// The simulated provider meets the PaymentProvider contract, its notifications signed,
// posted and verified by its handler on the way to the app.
func TestProviderContract(t *testing.T) {
	t.Parallel()
	orderstest.PaymentProviderContract(t, func(t *testing.T) orderstest.PaymentProvider {
		rec := &recorder{}
		p, _ := setup(t, rec)
		return orderstest.PaymentProvider{PaymentProvider: p, Declined: 1000 + simpay.FailingCents, Refunded: p.Refunded,
			Notified: func(t *testing.T, n int) []orders.Notification {
				t.Helper()
				return rec.wait(t, n)
			}}
	})
}
