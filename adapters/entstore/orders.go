package entstore

import (
	"context"
	"fmt"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/ent/predicate"
	"github.com/dealspot/dealspot/ent/voucherorder"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// Orders is the order store: every voucher order row is written (claims in batches,
// purchases), moved (transitions, expiry) and read here, and mapped by toOrder alone.
// The files split it by job: orders.go reads and creates, order_batch.go writes the
// claims' orders, order_transitions.go moves them along the domain's transition table.
type Orders struct {
	client *ent.Client
	raw    *rawSQL
}

var _ orders.OrderStore = (*Orders)(nil)

// Orders returns the order store.
func (s *Store) Orders() *Orders { return &Orders{client: s.client, raw: s.raw()} }

// CreateOrder implements orders.OrderStore.
func (r *Orders) CreateOrder(ctx context.Context, o domain.VoucherOrder) (domain.VoucherOrder, error) {
	if o.ID <= 0 {
		return domain.VoucherOrder{}, domain.Errorf(domain.CodeBadUserInput, "order id must be positive")
	}
	if o.Status == "" {
		o.Status = domain.OrderCreated
	}
	err := WithTx(ctx, r.client, func(tx *ent.Tx) error {
		c := tx.VoucherOrder.Create().
			SetID(o.ID).SetUserID(o.UserID).SetVoucherID(o.VoucherID).SetShopID(o.ShopID).
			SetQuantity(max(o.Quantity, 1)).SetRedeemedQuantity(o.RedeemedQuantity).SetAmount(o.Amount).
			SetStatus(voucherorder.Status(o.Status)).
			SetNillablePayDeadline(o.PayDeadline).SetNillablePayTime(o.PayTime).
			SetNillableUseTime(o.UseTime).SetNillableRefundTime(o.RefundTime)
		if o.Kind != "" {
			c.SetKind(voucherorder.Kind(o.Kind))
		}
		if o.RedemptionCode != "" {
			c.SetRedemptionCode(o.RedemptionCode)
		}
		if !o.CreatedAt.IsZero() {
			c.SetCreatedAt(o.CreatedAt)
		}
		if err := c.Exec(ctx); err != nil {
			return translate(err, "order", domain.CodeConflict, "order already exists")
		}
		// Sold the moment it is stored: a purchase that cost nothing (paid at once).
		if o.Status == domain.OrderPaid || o.Status == domain.OrderUsed {
			return addSold(ctx, tx, r.raw, o.ShopID, o.VoucherID, int64(max(o.Quantity, 1)))
		}
		return nil
	})
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("create order %d: %w", o.ID, err)
	}
	return r.Order(ctx, o.ID)
}

// Order implements orders.OrderStore.
func (r *Orders) Order(ctx context.Context, id int64) (domain.VoucherOrder, error) {
	row, err := r.client.VoucherOrder.Get(ctx, id)
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("load order %d: %w", id, notFound(err, "order"))
	}
	return toOrder(row), nil
}

// OrderByCode implements orders.OrderStore.
func (r *Orders) OrderByCode(ctx context.Context, code string) (domain.VoucherOrder, error) {
	row, err := r.client.VoucherOrder.Query().Where(voucherorder.RedemptionCode(code)).Only(ctx)
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("load order by code: %w", notFound(err, "order"))
	}
	return toOrder(row), nil
}

// writtenOrdersChunk bounds the ids of one WrittenOrders query (bind parameters).
const writtenOrdersChunk = 500

// WrittenOrders implements orders.OrderStore.
func (r *Orders) WrittenOrders(ctx context.Context, ids []int64) ([]int64, error) {
	var out []int64
	for start := 0; start < len(ids); start += writtenOrdersChunk {
		part := ids[start:min(start+writtenOrdersChunk, len(ids))]
		found, err := r.client.VoucherOrder.Query().Where(voucherorder.IDIn(part...)).IDs(ctx)
		if err != nil {
			return nil, fmt.Errorf("look up %d orders: %w", len(part), err)
		}
		out = append(out, found...)
	}
	return out, nil
}

// OrdersOfUser implements orders.OrderStore.
func (r *Orders) OrdersOfUser(ctx context.Context, userID int64, statuses []domain.OrderStatus, before int64, limit int) ([]domain.VoucherOrder, error) {
	out, err := r.page(ctx, voucherorder.UserID(userID), statuses, before, limit)
	if err != nil {
		return nil, fmt.Errorf("list orders of user %d: %w", userID, err)
	}
	return out, nil
}

// OrdersOfShop implements orders.OrderStore.
func (r *Orders) OrdersOfShop(ctx context.Context, shopID int64, statuses []domain.OrderStatus, before int64, limit int) ([]domain.VoucherOrder, error) {
	out, err := r.page(ctx, voucherorder.ShopID(shopID), statuses, before, limit)
	if err != nil {
		return nil, fmt.Errorf("list orders of shop %d: %w", shopID, err)
	}
	return out, nil
}

// page lists up to limit orders matching whose, with id < before (0: from the newest)
// and a status in statuses (empty: any), newest first.
func (r *Orders) page(ctx context.Context, whose predicate.VoucherOrder, statuses []domain.OrderStatus, before int64, limit int) ([]domain.VoucherOrder, error) {
	q := r.client.VoucherOrder.Query().Where(whose)
	if len(statuses) > 0 {
		q.Where(voucherorder.StatusIn(entStatuses(statuses)...))
	}
	if before > 0 {
		q.Where(voucherorder.IDLT(before))
	}
	rows, err := q.Order(voucherorder.ByID(entsql.OrderDesc())).Limit(limit).All(ctx)
	if err != nil {
		return nil, err
	}
	return toOrders(rows), nil
}

// LiveHolders implements orders.OrderStore.
func (r *Orders) LiveHolders(ctx context.Context, voucherID int64, withReleased bool) ([]int64, error) {
	var rows []struct {
		UserID int64 `json:"user_id"`
	}
	err := r.client.VoucherOrder.Query().
		Where(voucherorder.VoucherID(voucherID), voucherorder.StatusIn(entStatuses(holdingStatuses(withReleased))...)).
		Unique(true).
		Select(voucherorder.FieldUserID).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("list holders of voucher %d: %w", voucherID, err)
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.UserID
	}
	return ids, nil
}

// SaleStock implements orders.OrderStore.
func (r *Orders) SaleStock(ctx context.Context, voucherID int64) (int64, error) {
	fs, err := r.client.FlashSale.Get(ctx, voucherID)
	if err != nil {
		return 0, fmt.Errorf("read stock of voucher %d: %w", voucherID, notFound(err, "flash sale"))
	}
	return int64(fs.Stock), nil
}

// CountOrders implements orders.OrderStore.
func (r *Orders) CountOrders(ctx context.Context, voucherID int64) (orders.OrderCounts, error) {
	var c orders.OrderCounts
	holding, released := statusList(holdingStatuses(false)), statusList(releasedStatuses)
	err := r.raw.db.QueryRowContext(ctx, `SELECT
		COUNT(CASE WHEN status IN `+holding+` THEN 1 END),
		COUNT(CASE WHEN status = '`+string(domain.OrderFailed)+`' THEN 1 END),
		COUNT(DISTINCT CASE WHEN status IN `+holding+` THEN user_id END),
		COUNT(CASE WHEN status IN `+released+` THEN 1 END)
		FROM voucher_orders WHERE voucher_id = `+r.raw.param(1), voucherID).Scan(&c.Created, &c.Failed, &c.LiveUsers, &c.Released)
	if err != nil {
		return orders.OrderCounts{}, fmt.Errorf("count orders of voucher %d: %w", voucherID, err)
	}
	return c, nil
}

// CountByStatus implements orders.OrderStore.
func (r *Orders) CountByStatus(ctx context.Context, voucherID int64, since time.Time) (map[domain.OrderStatus]int64, int64, error) {
	a := &args{o: r.raw}
	q := "SELECT status, COUNT(*), COALESCE(SUM(CASE WHEN created_at >= " + a.p(since.UTC()) + " THEN 1 ELSE 0 END), 0)" +
		" FROM voucher_orders WHERE voucher_id = " + a.p(voucherID) + " GROUP BY status"
	rows, err := r.raw.db.QueryContext(ctx, q, a.vals...)
	if err != nil {
		return nil, 0, fmt.Errorf("count orders of voucher %d: %w", voucherID, err)
	}
	defer rows.Close()
	counts := map[domain.OrderStatus]int64{}
	var recent int64
	for rows.Next() {
		var (
			status string
			n, k   int64
		)
		if err := rows.Scan(&status, &n, &k); err != nil {
			return nil, 0, err
		}
		counts[domain.OrderStatus(status)] = n
		recent += k
	}
	return counts, recent, rows.Err()
}

// releasedStatuses are the statuses of orders that gave their unit back.
var releasedStatuses = []domain.OrderStatus{domain.OrderCanceled, domain.OrderRefunded}

// holdingStatuses are the statuses whose orders make their user a holder of the sale:
// those that hold a unit and, withReleased, those that gave it back.
func holdingStatuses(withReleased bool) []domain.OrderStatus {
	st := []domain.OrderStatus{domain.OrderPending, domain.OrderCreated, domain.OrderPaid, domain.OrderUsed}
	if withReleased {
		st = append(st, releasedStatuses...)
	}
	return st
}

// entStatuses converts order statuses to ent's.
func entStatuses(st []domain.OrderStatus) []voucherorder.Status {
	out := make([]voucherorder.Status, len(st))
	for i, s := range st {
		out[i] = voucherorder.Status(s)
	}
	return out
}

// toOrders maps order rows with toOrder.
func toOrders(rows []*ent.VoucherOrder) []domain.VoucherOrder {
	out := make([]domain.VoucherOrder, len(rows))
	for i, o := range rows {
		out[i] = toOrder(o)
	}
	return out
}

// toOrder is the one mapping of an order row to the domain's order.
func toOrder(o *ent.VoucherOrder) domain.VoucherOrder {
	out := domain.VoucherOrder{
		ID:               o.ID,
		UserID:           o.UserID,
		VoucherID:        o.VoucherID,
		ShopID:           o.ShopID,
		Kind:             domain.VoucherKind(o.Kind),
		Quantity:         o.Quantity,
		RedeemedQuantity: o.RedeemedQuantity,
		Amount:           o.Amount,
		Status:           domain.OrderStatus(o.Status),
		CreatedAt:        o.CreatedAt,
		PayDeadline:      o.PayDeadline,
		PayTime:          o.PayTime,
		UseTime:          o.UseTime,
		CanceledAt:       o.CanceledAt,
		CancelReason:     domain.CancelReason(o.CancelReason),
		RefundTime:       o.RefundTime,
		RefundReason:     o.RefundReason,
		FailReason:       o.FailReason,
	}
	if o.RedemptionCode != nil {
		out.RedemptionCode = *o.RedemptionCode
	}
	return out
}

// OrdersByIDs returns the orders with those ids, leaving out unknown ones (inbox.Orders).
func (r *Orders) OrdersByIDs(ctx context.Context, ids []int64) ([]domain.VoucherOrder, error) {
	var out []domain.VoucherOrder
	for start := 0; start < len(ids); start += writtenOrdersChunk {
		part := ids[start:min(start+writtenOrdersChunk, len(ids))]
		rows, err := r.client.VoucherOrder.Query().Where(voucherorder.IDIn(part...)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("load %d orders: %w", len(part), err)
		}
		for _, row := range rows {
			out = append(out, toOrder(row))
		}
	}
	return out, nil
}
