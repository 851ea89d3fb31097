package domain

import "time"

// VoucherKind tells a normal voucher from a flash-sale one.
type VoucherKind string

// Voucher kinds.
const (
	VoucherNormal    VoucherKind = "NORMAL"
	VoucherFlashSale VoucherKind = "FLASH_SALE"
)

// VoucherStatus is whether a voucher is on sale.
type VoucherStatus string

// Voucher statuses.
const (
	VoucherOnSale  VoucherStatus = "ON_SALE"
	VoucherOffSale VoucherStatus = "OFF_SALE"
)

// Voucher is a deal a shop sells; values are in cents.
type Voucher struct {
	ID          int64
	ShopID      int64
	Title       string
	SubTitle    string
	Rules       string
	PayValue    int64
	ActualValue int64
	Kind        VoucherKind
	Status      VoucherStatus
	// FlashSale is set for flash-sale vouchers.
	FlashSale *FlashSale
	CreatedAt time.Time
	UpdatedAt time.Time
}

// FlashSale is the limited, time-boxed part of a flash-sale voucher.
type FlashSale struct {
	VoucherID int64
	Stock     int
	BeginTime time.Time
	EndTime   time.Time
	// Buckets is how many parts the sale's stock is split into in Redis, each on a
	// shard of its own (0 or 1: one part, on the voucher's shard). Set at creation.
	Buckets int
}

// Normalize fills a new voucher's defaults (its kind from FlashSale, ON_SALE) and
// refuses a kind that disagrees with FlashSale or an unknown kind or status
// (BAD_USER_INPUT): what every store checks before it writes one.
func (v *Voucher) Normalize() error {
	switch {
	case v.Kind == "" && v.FlashSale != nil:
		v.Kind = VoucherFlashSale
	case v.Kind == "":
		v.Kind = VoucherNormal
	case v.Kind == VoucherFlashSale && v.FlashSale == nil:
		return Errorf(CodeBadUserInput, "a flash-sale voucher needs its stock and time window")
	case v.Kind == VoucherNormal && v.FlashSale != nil:
		return Errorf(CodeBadUserInput, "a normal voucher has no flash sale")
	case v.Kind != VoucherNormal && v.Kind != VoucherFlashSale:
		return Errorf(CodeBadUserInput, "unknown voucher kind %q", v.Kind)
	}
	switch v.Status {
	case "":
		v.Status = VoucherOnSale
	case VoucherOnSale, VoucherOffSale:
	default:
		return Errorf(CodeBadUserInput, "unknown voucher status %q", v.Status)
	}
	return nil
}
