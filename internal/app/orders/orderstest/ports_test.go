package orderstest_test

import (
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/seckill/seckilltest"
)

// The orders ports that are the flash sale's ports cut down are held by that area's
// contracts, on its adapters and fakes: orders.Vouchers by seckilltest.VouchersContract,
// orders.Shops by seckilltest.ShopOwnersContract, orders.IDGenerator by
// seckilltest.IDGeneratorContract, orders.StatusPublisher by
// seckilltest.StatusBusContract. orders.Sales is the flash sale's use case
// (seckill.SaleUnits) over each stock gate: orderstest.SalesContract runs on it there
// (seckill's units_test.go on seckilltest.MemStockGate, adapters/redis on the Redis
// gate) and on MemSales here.
var (
	_ orders.Vouchers        = seckill.Vouchers(nil)
	_ orders.Vouchers        = (*seckilltest.MemVouchers)(nil)
	_ orders.Shops           = seckill.ShopOwners(nil)
	_ orders.Shops           = (*seckilltest.MemShopOwners)(nil)
	_ orders.IDGenerator     = seckill.IDGenerator(nil)
	_ orders.IDGenerator     = (*seckilltest.MemIDs)(nil)
	_ orders.StatusPublisher = seckill.StatusBus(nil)
	_ orders.StatusPublisher = (*seckilltest.MemStatusBus)(nil)
)
