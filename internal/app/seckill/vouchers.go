package seckill

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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
	return nil
}

func (in VoucherInput) voucher() domain.Voucher {
	return domain.Voucher{
		ShopID: in.ShopID, Title: strings.TrimSpace(in.Title), SubTitle: strings.TrimSpace(in.SubTitle),
		Rules: strings.TrimSpace(in.Rules), PayValue: in.PayValue, ActualValue: in.ActualValue,
		Status: domain.VoucherOnSale,
	}
}

// CreateVoucher stores a normal voucher. Errors: BAD_USER_INPUT.
func (s *Service) CreateVoucher(ctx context.Context, in VoucherInput) (domain.Voucher, error) {
	if err := in.validate(); err != nil {
		return domain.Voucher{}, err
	}
	v := in.voucher()
	v.Kind = domain.VoucherNormal
	out, err := s.d.Vouchers.CreateVoucher(ctx, v)
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("create voucher: %w", err)
	}
	return out, nil
}

// CreateFlashSale stores a flash-sale voucher with its sale in one transaction, then
// preloads the sale's stock and window into Redis. Errors: BAD_USER_INPUT.
func (s *Service) CreateFlashSale(ctx context.Context, in FlashSaleInput) (domain.Voucher, error) {
	if err := in.validate(); err != nil {
		return domain.Voucher{}, err
	}
	switch {
	case in.Stock < 1 || in.Stock > s.cfg.MaxStock:
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "stock must be between 1 and %d", s.cfg.MaxStock)
	case !in.EndTime.After(in.BeginTime):
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "endTime must be after beginTime")
	case !in.EndTime.After(s.now()):
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "endTime must be in the future")
	}
	v := in.voucher()
	v.Kind = domain.VoucherFlashSale
	v.FlashSale = &domain.FlashSale{Stock: int(in.Stock), BeginTime: in.BeginTime, EndTime: in.EndTime}
	out, err := s.d.Vouchers.CreateVoucher(ctx, v)
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("create flash sale: %w", err)
	}
	if _, err := s.loadSale(ctx, out, true); err != nil {
		// The sale exists in the database; the claim path loads it on first use.
		s.log.Warn("cannot preload a new flash sale into redis", "voucher_id", out.ID, "error", err)
	}
	// A read of this id before it existed may have cached "not found".
	_ = s.d.VoucherCache.Invalidate(ctx, strconv.FormatInt(out.ID, 10))
	return out, nil
}

// VoucherView is a voucher as clients see it; for a flash sale, Remaining is the stock
// still to give out.
type VoucherView struct {
	domain.Voucher
	Remaining int64
}

// VouchersOfShop lists a shop's vouchers; flash sales carry their remaining stock, read
// from Redis (the gate's count) or, when Redis does not hold the sale, the database.
func (s *Service) VouchersOfShop(ctx context.Context, shopID int64) ([]VoucherView, error) {
	if shopID <= 0 {
		return nil, domain.Errorf(domain.CodeBadUserInput, "shopId must be a positive id")
	}
	vs, err := s.d.Vouchers.VouchersOfShop(ctx, shopID)
	if err != nil {
		return nil, fmt.Errorf("list vouchers: %w", err)
	}
	out := make([]VoucherView, len(vs))
	for i, v := range vs {
		out[i] = VoucherView{Voucher: v}
		if v.FlashSale == nil {
			continue
		}
		out[i].Remaining = int64(v.FlashSale.Stock)
		if n, ok, err := s.d.Gate.Stock(ctx, v.ID); err == nil && ok {
			out[i].Remaining = n
		}
	}
	return out, nil
}

// SaleChanges are edits to a flash sale; nil fields stay as they are.
type SaleChanges struct {
	Stock     *int64
	BeginTime *time.Time
	EndTime   *time.Time
}

// UpdateFlashSale edits a sale's stock and window. Once a sale has begun (or has
// orders), its stock cannot change: units already promised would no longer add up.
// Errors: NOT_FOUND; BAD_USER_INPUT; CONFLICT for a stock change of a begun sale.
func (s *Service) UpdateFlashSale(ctx context.Context, voucherID int64, ch SaleChanges) (domain.Voucher, error) {
	if voucherID <= 0 {
		return domain.Voucher{}, domain.Errorf(domain.CodeNotFound, "no such flash sale")
	}
	var stockChanged bool
	out, err := s.d.Vouchers.UpdateFlashSale(ctx, voucherID, func(v domain.Voucher, fs *domain.FlashSale) error {
		if ch.Stock != nil && int64(fs.Stock) != *ch.Stock {
			if *ch.Stock < 1 || *ch.Stock > s.cfg.MaxStock {
				return domain.Errorf(domain.CodeBadUserInput, "stock must be between 1 and %d", s.cfg.MaxStock)
			}
			if !s.now().Before(fs.BeginTime) {
				return domain.Errorf(domain.CodeConflict, "the stock of a sale that has begun cannot change")
			}
			counts, err := s.d.Orders.CountOrders(ctx, voucherID)
			if err != nil {
				return err
			}
			if counts.Created > 0 {
				return domain.Errorf(domain.CodeConflict, "the stock of a sale with orders cannot change")
			}
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
		return domain.Voucher{}, domain.Errorf(domain.CodeNotFound, "no such flash sale")
	}
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("update flash sale: %w", err)
	}
	fs := out.FlashSale
	if stockChanged {
		// Not begun and no orders: nothing in Redis to keep.
		_, err = s.loadSale(ctx, out, true)
	} else {
		err = s.d.Gate.SetWindow(ctx, voucherID, fs.BeginTime, fs.EndTime)
	}
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("update sale in redis: %w", err)
	}
	if err := s.d.VoucherCache.Invalidate(ctx, strconv.FormatInt(voucherID, 10)); err != nil {
		s.log.Warn("cannot invalidate a changed voucher", "voucher_id", voucherID, "error", err)
	}
	return out, nil
}
