package seckill

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dealspot/dealspot/internal/domain"
)

// VoucherInput is a new voucher; values are in cents.
type VoucherInput struct {
	ShopID      int64
	Title       string
	SubTitle    string
	Rules       string
	PayValue    int64
	ActualValue int64
}

// FlashSaleInput is a new flash-sale voucher.
type FlashSaleInput struct {
	VoucherInput
	Stock     int64
	BeginTime time.Time
	EndTime   time.Time
	// Buckets is how many parts the stock is split into in Redis, each on a shard of
	// its own (nil: one).
	Buckets *int
}

func (in VoucherInput) validate() error {
	switch {
	case in.ShopID <= 0:
		return domain.Errorf(domain.CodeBadUserInput, "shopId must be a positive id")
	case strings.TrimSpace(in.Title) == "":
		return domain.Errorf(domain.CodeBadUserInput, "title must not be empty")
	case utf8.RuneCountInString(in.Title) > 128 || utf8.RuneCountInString(in.SubTitle) > 255 || utf8.RuneCountInString(in.Rules) > 1024:
		return domain.Errorf(domain.CodeBadUserInput, "title, subtitle or rules too long (128, 255, 1024 characters)")
	case in.PayValue < 0 || in.ActualValue < 0:
		return domain.Errorf(domain.CodeBadUserInput, "payValue and actualValue must not be negative")
	case in.PayValue > in.ActualValue:
		return domain.Errorf(domain.CodeBadUserInput, "payValue must not exceed actualValue")
	}
	for _, text := range []struct {
		field, s  string
		multiLine bool
	}{{"title", in.Title, false}, {"subTitle", in.SubTitle, false}, {"rules", in.Rules, true}} {
		if err := domain.CheckText(text.field, strings.TrimSpace(text.s), text.multiLine); err != nil {
			return err
		}
	}
	return nil
}

func (in VoucherInput) voucher() domain.Voucher {
	return domain.Voucher{
		ShopID: in.ShopID, Title: strings.TrimSpace(in.Title), SubTitle: strings.TrimSpace(in.SubTitle),
		Rules: strings.TrimSpace(in.Rules), PayValue: in.PayValue, ActualValue: in.ActualValue,
		Status: domain.VoucherOnSale,
	}
}

// FlashSales creates vouchers and flash sales and edits sales: the commands of the
// merchant who runs the shop, or of an administrator.
type FlashSales struct{ c *core }

// runsShop checks that a runs the shop. Errors: BAD_USER_INPUT for an unknown shop,
// FORBIDDEN.
func (f *FlashSales) runsShop(ctx context.Context, a domain.Actor, shopID int64) error {
	if a.Role == domain.RoleAdmin {
		return nil // every shop, known or not (an unknown one is refused when stored)
	}
	owner, err := f.c.d.Shops.ShopOwner(ctx, shopID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Errorf(domain.CodeBadUserInput, "shopId: no shop %d", shopID)
	}
	if err != nil {
		return fmt.Errorf("read owner of shop %d: %w", shopID, err)
	}
	if !a.CanRunShop(owner) {
		return domain.Errorf(domain.CodeForbidden, "you do not run shop %d", shopID)
	}
	return nil
}

// CreateVoucher stores a normal voucher for a shop a runs. Errors: BAD_USER_INPUT;
// FORBIDDEN.
func (f *FlashSales) CreateVoucher(ctx context.Context, a domain.Actor, in VoucherInput) (domain.Voucher, error) {
	if err := in.validate(); err != nil {
		return domain.Voucher{}, err
	}
	if err := f.runsShop(ctx, a, in.ShopID); err != nil {
		return domain.Voucher{}, err
	}
	v := in.voucher()
	v.Kind = domain.VoucherNormal
	out, err := f.c.d.Vouchers.CreateVoucher(ctx, v)
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("create voucher: %w", err)
	}
	// A read of this id before it existed may have cached "not found"; the id filter
	// learns the new id from this announcement.
	if err := f.c.d.VoucherChanges.VoucherChanged(ctx, out.ID); err != nil {
		f.c.log.Warn("cannot announce a new voucher", "voucher_id", out.ID, "error", err)
	}
	return out, nil
}

// CreateFlashSale stores a flash-sale voucher with its sale in one transaction for a
// shop a runs, then preloads the sale's stock and window into Redis and reports the new
// sale to the inboxes of the shop's fans. Errors:
// BAD_USER_INPUT (also for buckets outside 1..MaxBuckets or above the stock);
// FORBIDDEN.
func (f *FlashSales) CreateFlashSale(ctx context.Context, a domain.Actor, in FlashSaleInput) (domain.Voucher, error) {
	if err := in.validate(); err != nil {
		return domain.Voucher{}, err
	}
	if err := f.runsShop(ctx, a, in.ShopID); err != nil {
		return domain.Voucher{}, err
	}
	buckets := 1
	if in.Buckets != nil {
		buckets = *in.Buckets
	}
	switch {
	case in.Stock < 1 || in.Stock > f.c.cfg.MaxStock:
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "stock must be between 1 and %d", f.c.cfg.MaxStock)
	case buckets < 1 || buckets > f.c.cfg.MaxBuckets:
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "buckets must be between 1 and %d", f.c.cfg.MaxBuckets)
	case int64(buckets) > in.Stock:
		// Every part starts with at least one unit.
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "buckets (%d) must not exceed stock (%d)", buckets, in.Stock)
	case !in.EndTime.After(in.BeginTime):
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "endTime must be after beginTime")
	case !in.EndTime.After(f.c.now()):
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "endTime must be in the future")
	}
	v := in.voucher()
	v.Kind = domain.VoucherFlashSale
	v.FlashSale = &domain.FlashSale{Stock: int(in.Stock), BeginTime: in.BeginTime, EndTime: in.EndTime, Buckets: buckets}
	out, err := f.c.d.Vouchers.CreateVoucher(ctx, v)
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("create flash sale: %w", err)
	}
	// A sale that begins later than SALE_WARMUP_BEFORE from now is loaded by the
	// warm-up (Warmup) when its time comes.
	if f.c.due(out, f.c.now()) {
		if _, err := f.c.loadSale(ctx, out, true); err != nil {
			// The sale exists in the database; the claim path loads it on first use.
			f.c.log.Warn("cannot preload a new flash sale into redis", "voucher_id", out.ID, "error", err)
		}
	}
	// A read of this id before it existed may have cached "not found".
	_ = f.c.d.VoucherChanges.VoucherChanged(ctx, out.ID)
	f.c.d.Notifier.Notify(ctx, domain.NotificationEvent{Kind: domain.NotifyShopNewSale, ActorID: a.UserID, ShopID: out.ShopID,
		VoucherID: out.ID, At: f.c.now()})
	return out, nil
}

// SaleChanges are edits to a flash sale; nil fields stay as they are.
type SaleChanges struct {
	Stock     *int64
	BeginTime *time.Time
	EndTime   *time.Time
}

// UpdateFlashSale edits a sale's stock and window and returns the sale as clients now
// see it. Once a sale has begun (or has orders), its stock and beginTime are fixed and
// its endTime may move later or sooner, an endTime already past ending the sale now:
// units promised and orders written stay true to the sale they were claimed in (a begun
// sale moved into the future would hold orders claimed before it began, one ended in
// the past orders claimed after its end). Giving a field the value it has is no change.
// Errors: NOT_FOUND; BAD_USER_INPUT; CONFLICT for a change a begun sale refuses;
// FORBIDDEN for a sale of a shop a does not run.
func (f *FlashSales) UpdateFlashSale(ctx context.Context, a domain.Actor, voucherID int64, ch SaleChanges) (VoucherView, error) {
	if voucherID <= 0 {
		return VoucherView{}, domain.Errorf(domain.CodeNotFound, "no such flash sale")
	}
	if a.Role != domain.RoleAdmin {
		v, err := f.c.d.Vouchers.Voucher(ctx, voucherID)
		if errors.Is(err, domain.ErrNotFound) {
			return VoucherView{}, domain.Errorf(domain.CodeNotFound, "no such flash sale")
		}
		if err != nil {
			return VoucherView{}, err
		}
		if err := f.runsShop(ctx, a, v.ShopID); err != nil {
			return VoucherView{}, err
		}
	}
	var stockChanged bool
	out, err := f.c.d.Vouchers.UpdateFlashSale(ctx, voucherID, func(v domain.Voucher, fs *domain.FlashSale) error {
		now := f.c.now()
		stock := ch.Stock != nil && int64(fs.Stock) != *ch.Stock
		begin := ch.BeginTime != nil && !ch.BeginTime.Equal(fs.BeginTime)
		end := ch.EndTime != nil && !ch.EndTime.Equal(fs.EndTime)
		if stock {
			if *ch.Stock < 1 || *ch.Stock > f.c.cfg.MaxStock {
				return domain.Errorf(domain.CodeBadUserInput, "stock must be between 1 and %d", f.c.cfg.MaxStock)
			}
			if b := max(1, fs.Buckets); *ch.Stock < int64(b) {
				// Every part of the sale starts with at least one unit.
				return domain.Errorf(domain.CodeBadUserInput, "stock must not be below the sale's buckets (%d)", b)
			}
		}
		if stock || begin || end {
			// What has begun: the window has opened, or orders exist (claimed in a window
			// since moved).
			since := "that has begun"
			if now.Before(fs.BeginTime) {
				counts, err := f.c.d.Orders.CountOrders(ctx, voucherID)
				if err != nil {
					return err
				}
				if counts.Created+counts.Failed+counts.Released > 0 {
					since = "with orders"
				} else {
					since = ""
				}
			}
			switch {
			case since == "":
			case stock:
				return domain.Errorf(domain.CodeConflict, "the stock of a sale %s cannot change", since)
			case begin:
				return domain.Errorf(domain.CodeConflict, "the beginTime of a sale %s cannot change", since)
			case end && !ch.EndTime.After(now):
				ended := now // not before a claim it already took
				ch.EndTime = &ended
			}
		}
		if stock {
			fs.Stock, stockChanged = int(*ch.Stock), true
		}
		if ch.BeginTime != nil {
			fs.BeginTime = *ch.BeginTime
		}
		if ch.EndTime != nil {
			fs.EndTime = *ch.EndTime
		}
		if !fs.EndTime.After(fs.BeginTime) {
			return domain.Errorf(domain.CodeBadUserInput, "endTime must be after beginTime")
		}
		return nil
	})
	if errors.Is(err, domain.ErrNotFound) {
		return VoucherView{}, domain.Errorf(domain.CodeNotFound, "no such flash sale")
	}
	if err != nil {
		return VoucherView{}, fmt.Errorf("update flash sale: %w", err)
	}
	fs := out.FlashSale
	if stockChanged {
		// Not begun and no orders: nothing in Redis to keep.
		_, err = f.c.loadSale(ctx, out, true)
	} else {
		err = f.c.d.Stock.SetWindow(ctx, voucherID, fs.BeginTime, fs.EndTime)
	}
	if err != nil {
		return VoucherView{}, fmt.Errorf("update sale in redis: %w", err)
	}
	if err := f.c.d.VoucherChanges.VoucherChanged(ctx, voucherID); err != nil {
		f.c.log.Warn("cannot invalidate a changed voucher", "voucher_id", voucherID, "error", err)
	}
	return f.c.view(ctx, out), nil
}
