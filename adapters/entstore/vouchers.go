package entstore

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/voucher"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// Vouchers reads and writes vouchers and their flash sales.
type Vouchers struct {
	client  *ent.Client
	dialect string
}

var _ seckill.Vouchers = (*Vouchers)(nil)

// Vouchers returns the voucher repository.
func (s *Store) Vouchers() *Vouchers { return &Vouchers{client: s.client, dialect: s.dialect} }

// CreateVoucher stores a new voucher and returns it with its id. A voucher with a
// FlashSale is stored together with it in one transaction; its kind is then FLASH_SALE.
// An empty status means ON_SALE; a flash sale's Buckets below 1 means one bucket. An
// unknown shop is a BAD_USER_INPUT error.
func (r *Vouchers) CreateVoucher(ctx context.Context, v domain.Voucher) (domain.Voucher, error) {
	if err := v.Normalize(); err != nil {
		return domain.Voucher{}, err
	}
	var out domain.Voucher
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		var err error
		out, err = createVoucher(ctx, tx.Client(), v)
		return err
	})
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("create voucher: %w",
			translate(err, "voucher", domain.CodeBadUserInput, "unknown shop"))
	}
	return out, nil
}

// Voucher returns one voucher with its flash sale, or domain.ErrNotFound.
func (r *Vouchers) Voucher(ctx context.Context, id int64) (domain.Voucher, error) {
	row, err := r.client.Voucher.Query().
		Where(voucher.ID(id)).
		WithFlashSale().
		Only(ctx)
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("load voucher %d: %w", id, notFound(err, "voucher"))
	}
	return toVoucher(row), nil
}

// VoucherIDs lists the id of every voucher (the id filter's source).
func (r *Vouchers) VoucherIDs(ctx context.Context) ([]int64, error) {
	ids, err := r.client.Voucher.Query().IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("list voucher ids: %w", err)
	}
	return ids, nil
}

// VouchersOfShop returns the vouchers of one shop ordered by id, flash sales filled in.
func (r *Vouchers) VouchersOfShop(ctx context.Context, shopID int64) ([]domain.Voucher, error) {
	rows, err := r.client.Voucher.Query().
		Where(voucher.ShopID(shopID)).
		WithFlashSale().
		Order(voucher.ByID()).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list vouchers of shop %d: %w", shopID, err)
	}
	out := make([]domain.Voucher, len(rows))
	for i, v := range rows {
		out[i] = toVoucher(v)
	}
	return out, nil
}

// VouchersOfShops implements seckill.Vouchers.
func (r *Vouchers) VouchersOfShops(ctx context.Context, shopIDs []int64) (map[int64][]domain.Voucher, error) {
	out := map[int64][]domain.Voucher{}
	if len(shopIDs) == 0 {
		return out, nil
	}
	rows, err := r.client.Voucher.Query().
		Where(voucher.ShopIDIn(shopIDs...)).
		WithFlashSale().
		Order(voucher.ByID()).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list vouchers of %d shops: %w", len(shopIDs), err)
	}
	for _, v := range rows {
		out[v.ShopID] = append(out[v.ShopID], toVoucher(v))
	}
	return out, nil
}

// createVoucher writes a normalised voucher and its flash sale with client, which the
// caller runs inside a transaction.
func createVoucher(ctx context.Context, client *ent.Client, v domain.Voucher) (domain.Voucher, error) {
	row, err := client.Voucher.Create().
		SetShopID(v.ShopID).
		SetTitle(v.Title).
		SetSubTitle(v.SubTitle).
		SetRules(v.Rules).
		SetPayValue(v.PayValue).
		SetActualValue(v.ActualValue).
		SetKind(voucher.Kind(v.Kind)).
		SetStatus(voucher.Status(v.Status)).
		Save(ctx)
	if err != nil {
		return domain.Voucher{}, err
	}
	if v.FlashSale != nil {
		// The flash sale's primary key is the voucher's id, set through the edge.
		fs, err := client.FlashSale.Create().
			SetVoucherID(row.ID).
			SetStock(v.FlashSale.Stock).
			SetBeginTime(v.FlashSale.BeginTime).
			SetEndTime(v.FlashSale.EndTime).
			SetBuckets(max(1, v.FlashSale.Buckets)).
			Save(ctx)
		if err != nil {
			return domain.Voucher{}, err
		}
		row.Edges.FlashSale = fs
	}
	return toVoucher(row), nil
}

func toVoucher(v *ent.Voucher) domain.Voucher {
	out := domain.Voucher{
		ID:          v.ID,
		ShopID:      v.ShopID,
		Title:       v.Title,
		SubTitle:    v.SubTitle,
		Rules:       v.Rules,
		PayValue:    v.PayValue,
		ActualValue: v.ActualValue,
		Kind:        domain.VoucherKind(v.Kind),
		Status:      domain.VoucherStatus(v.Status),
		CreatedAt:   v.CreatedAt,
		UpdatedAt:   v.UpdatedAt,
	}
	if fs := v.Edges.FlashSale; fs != nil {
		out.FlashSale = &domain.FlashSale{
			VoucherID: fs.ID,
			Stock:     fs.Stock,
			BeginTime: fs.BeginTime,
			EndTime:   fs.EndTime,
			Buckets:   fs.Buckets,
		}
	}
	return out
}

// UpdateFlashSale changes a flash sale inside one transaction (the row is locked on
// PostgreSQL): update sees the sale as stored and edits it. Errors: domain.ErrNotFound;
// whatever update returns.
func (r *Vouchers) UpdateFlashSale(ctx context.Context, voucherID int64, update func(v domain.Voucher, fs *domain.FlashSale) error) (domain.Voucher, error) {
	var out domain.Voucher
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		q := tx.Voucher.Query().Where(voucher.ID(voucherID)).WithFlashSale()
		if r.dialect == dialect.Postgres {
			q.ForUpdate()
		}
		row, err := q.Only(ctx)
		if err != nil {
			return notFound(err, "voucher")
		}
		v := toVoucher(row)
		if v.FlashSale == nil {
			return &domain.Error{Code: domain.CodeNotFound, Message: "flash sale not found"}
		}
		fs := *v.FlashSale
		if err := update(v, &fs); err != nil {
			return err
		}
		saved, err := tx.FlashSale.UpdateOneID(voucherID).
			SetStock(fs.Stock).
			SetBeginTime(fs.BeginTime).
			SetEndTime(fs.EndTime).
			Save(ctx)
		if err != nil {
			return err
		}
		row.Edges.FlashSale = saved
		out = toVoucher(row)
		return nil
	})
	if err != nil {
		return domain.Voucher{}, fmt.Errorf("update flash sale %d: %w", voucherID, err)
	}
	return out, nil
}

// VouchersByIDs returns the vouchers with those ids, with their flash sales, leaving
// out unknown ones.
func (r *Vouchers) VouchersByIDs(ctx context.Context, ids []int64) ([]domain.Voucher, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := r.client.Voucher.Query().Where(voucher.IDIn(ids...)).WithFlashSale().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("load vouchers: %w", err)
	}
	out := make([]domain.Voucher, len(rows))
	for i, row := range rows {
		out[i] = toVoucher(row)
	}
	return out, nil
}
