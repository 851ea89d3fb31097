package app

// FlashSaleCommands are the shop and flash-sale use cases that change state.
type FlashSaleCommands struct{}

// FlashSaleQueries read shops, vouchers and orders.
type FlashSaleQueries struct{}

// FlashSaleOperations are the order writer, the reconciler and the sale loaders.
type FlashSaleOperations struct{}
