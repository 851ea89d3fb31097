package app

import (
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/shop"
)

// LifecycleCommands move orders on after the claim (buy, pay, cancel, refund, redeem),
// and let administrators say which merchant runs a shop.
type LifecycleCommands struct {
	BuyVoucher    *orders.BuyVoucher
	PayOrder      *orders.PayOrder
	CancelOrder   *orders.CancelOrder
	RequestRefund *orders.RequestRefund
	RedeemOrder   *orders.RedeemOrder
	SetShopOwner  *shop.SetOwner
}

// LifecycleQueries are what merchants read about their shops' orders and sales.
type LifecycleQueries struct {
	ShopOrders *orders.ShopOrders
	// OrderPayments reads the payments of orders, for their buyers and the merchants of
	// their shops.
	OrderPayments *orders.OrderPayments
	SaleStats     *orders.SaleStats
}

// LifecycleOperations are the workers of the lifecycle: the expiry of unpaid orders,
// the refunds still owed, and the payment provider's notifications.
type LifecycleOperations struct {
	OrderExpiry          *orders.Expirer
	Refunds              *orders.RefundWorker
	PaymentNotifications *orders.PaymentNotifications
}

// Lifecycle sorts the lifecycle's use cases into what a client may call and what the
// server runs itself.
func Lifecycle(s *orders.Service, setOwner *shop.SetOwner) (LifecycleCommands, LifecycleQueries, LifecycleOperations) {
	return LifecycleCommands{BuyVoucher: s.Buy, PayOrder: s.Pay, CancelOrder: s.Cancel, RequestRefund: s.Refund,
			RedeemOrder: s.Redeem, SetShopOwner: setOwner},
		LifecycleQueries{ShopOrders: s.ShopOrders, OrderPayments: s.OrderPayments, SaleStats: s.SaleStats},
		LifecycleOperations{OrderExpiry: s.Expirer, Refunds: s.Refunds, PaymentNotifications: s.Payments}
}
