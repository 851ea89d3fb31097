package app

import "github.com/dealspot/dealspot/internal/app/seckill"

// FlashSaleCommands are the flash-sale use cases that change state: claiming, and the
// administrators' creating and editing of vouchers and sales.
type FlashSaleCommands struct {
	ClaimVoucher *seckill.ClaimVoucher
	FlashSales   *seckill.FlashSales
}

// FlashSaleQueries read vouchers and orders.
type FlashSaleQueries struct {
	// Vouchers lists a shop's vouchers with their remaining stock.
	Vouchers *seckill.VouchersOfShop
	Orders   *seckill.OrderQueries
	// SaleProgress follows a sale's remaining units for buyers' pages.
	SaleProgress *seckill.SaleProgress
	// Warmup tells ADMINs when a sale is loaded into Redis.
	Warmup *seckill.Warmup
}

// FlashSaleOperations are the order writer (the queue consumer) and the reconciler,
// which also loads sales into Redis and audits them.
type FlashSaleOperations struct {
	OrderWriter *seckill.OrderWriter
	Reconciler  *seckill.Reconciler
	// Warmup loads upcoming sales into the gate SALE_WARMUP_BEFORE before they begin.
	Warmup *seckill.Warmup
	// AcceptedClaims settles this node's accepted claims when Redis comes back empty.
	AcceptedClaims *seckill.AcceptedClaims
}

// FlashSale sorts the flash sale's use cases into what a client may call and what the
// server runs itself.
func FlashSale(s *seckill.Service) (FlashSaleCommands, FlashSaleQueries, FlashSaleOperations) {
	return FlashSaleCommands{ClaimVoucher: s.ClaimVoucher, FlashSales: s.FlashSales},
		FlashSaleQueries{Vouchers: s.VouchersOfShop, Orders: s.Orders, SaleProgress: s.Progress, Warmup: s.Warmup},
		FlashSaleOperations{OrderWriter: s.OrderWriter, Reconciler: s.Reconciler, Warmup: s.Warmup, AcceptedClaims: s.AcceptedClaims}
}
