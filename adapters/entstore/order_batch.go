package entstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"

	"github.com/dealspot/dealspot/ent/flashsale"
	"github.com/dealspot/dealspot/ent/voucher"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// WriteClaims implements orders.OrderStore: one transaction inserts the batch's orders
// (INSERT … ON CONFLICT DO NOTHING RETURNING, so redelivered claims and second claims of
// one user insert nothing), takes each voucher's new orders off its database stock with
// a guard that keeps stock ≥ 0, counts the new PAID ones (free vouchers) in their
// shop's sold, and sorts every claim into Created, Duplicate, NoStock or IDTaken. A row counts as a claim's order only when its id, user and voucher all match
// the claim: a row with the claim's id but another user or voucher is someone else's
// order (an id handed out twice) and the claim is IDTaken, never Created.
func (r *Orders) WriteClaims(ctx context.Context, claims []domain.Claim, payWithin time.Duration) (orders.BatchResult, error) {
	var res orders.BatchResult
	err := r.raw.inTx(ctx, func(tx *sql.Tx) error {
		res = orders.BatchResult{Status: make(map[int64]domain.OrderStatus, len(claims))}
		// stockTaken holds the vouchers whose new orders the insert already took off
		// the stock (PostgreSQL's one statement); the others go through takeStock.
		var (
			inserted   map[int64]orderOwner
			stockTaken map[int64]bool
			err        error
		)
		if r.raw.dialect == dialect.Postgres {
			inserted, stockTaken, err = r.insertClaimsTakingStock(ctx, tx, claims, payWithin)
		} else {
			var prices map[int64]claimPrice
			if prices, err = r.prices(ctx, tx, claims); err == nil {
				inserted, err = r.insertClaims(ctx, tx, claims, domain.OrderPending, "", prices, payWithin)
			}
		}
		if err != nil {
			return err
		}
		mine := func(rows map[int64]orderOwner, c domain.Claim) bool {
			o, ok := rows[c.OrderID]
			return ok && o.userID == c.UserID && o.voucherID == c.VoucherID
		}
		// Take the new orders off each voucher's stock, never below zero. Two claims of
		// a batch with one id: only the one whose row went in is new.
		newByVoucher := map[int64][]domain.Claim{}
		counted := map[int64]bool{}
		for _, c := range claims {
			if mine(inserted, c) && !counted[c.OrderID] {
				counted[c.OrderID] = true
				newByVoucher[c.VoucherID] = append(newByVoucher[c.VoucherID], c)
			}
		}
		noStock := map[int64]bool{}
		for vid, cs := range newByVoucher {
			if stockTaken[vid] {
				continue
			}
			short, err := r.takeStock(ctx, tx, vid, cs)
			if err != nil {
				return err
			}
			for _, c := range short {
				noStock[c.OrderID] = true
			}
		}
		// Claims whose row did not go in: redelivered (their order exists), a second
		// order of the same user, or an id that another order already has.
		var others []int64
		for _, c := range claims {
			if !mine(inserted, c) {
				others = append(others, c.OrderID)
			}
		}
		existing, err := r.existingOrders(ctx, tx, others)
		if err != nil {
			return err
		}
		for _, c := range claims {
			_, taken := existing[c.OrderID]
			switch {
			case mine(inserted, c) && noStock[c.OrderID]:
				res.NoStock = append(res.NoStock, c)
			case mine(inserted, c):
				res.Created = append(res.Created, c)
				res.Status[c.OrderID] = inserted[c.OrderID].status
			case mine(existing, c) && existing[c.OrderID].status != domain.OrderFailed:
				res.Created = append(res.Created, c)
				res.Status[c.OrderID] = existing[c.OrderID].status
			case mine(existing, c):
				res.Duplicate = append(res.Duplicate, c)
			case taken, inserted[c.OrderID] != (orderOwner{}):
				res.IDTaken = append(res.IDTaken, c)
			default:
				res.Duplicate = append(res.Duplicate, c)
			}
		}
		// New orders written PAID (their vouchers cost nothing) are sold now.
		freeSold := map[int64]int64{}
		for vid, cs := range newByVoucher {
			for _, c := range cs {
				if !noStock[c.OrderID] && inserted[c.OrderID].status == domain.OrderPaid {
					freeSold[vid]++
				}
			}
		}
		for vid, n := range freeSold {
			if err := addSold(ctx, tx, r.raw, 0, vid, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return orders.BatchResult{}, fmt.Errorf("write %d claims: %w", len(claims), err)
	}
	return res, nil
}

// orderOwner is who an order row belongs to.
type orderOwner struct {
	userID, voucherID int64
	status            domain.OrderStatus
}

// claimPrice is what a flash sale's new order copies from its voucher.
type claimPrice struct{ shopID, payValue int64 }

// prices reads the shop and pay value of the claims' vouchers.
func (r *Orders) prices(ctx context.Context, tx *sql.Tx, claims []domain.Claim) (map[int64]claimPrice, error) {
	seen := map[int64]bool{}
	var ids []any
	var ph []string
	for _, c := range claims {
		if !seen[c.VoucherID] {
			seen[c.VoucherID] = true
			ids = append(ids, c.VoucherID)
			ph = append(ph, r.raw.param(len(ids)))
		}
	}
	out := make(map[int64]claimPrice, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := tx.QueryContext(ctx, "SELECT id, shop_id, pay_value FROM vouchers WHERE id IN ("+strings.Join(ph, ", ")+")", ids...)
	if err != nil {
		return nil, fmt.Errorf("read voucher prices: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var p claimPrice
		if err := rows.Scan(&id, &p.shopID, &p.payValue); err != nil {
			return nil, err
		}
		out[id] = p
	}
	return out, rows.Err()
}

// insertClaims inserts claims with status and returns the rows actually inserted by id.
// Every order records its voucher's shop and price (prices). With status PENDING the
// domain's write action decides how each is written: CREATED, due for payment payWithin
// after its claim (domain.PayDeadline; no deadline when payWithin is 0), or PAID at once,
// with a redemption code, when the voucher costs nothing.
func (r *Orders) insertClaims(ctx context.Context, tx *sql.Tx, claims []domain.Claim, status domain.OrderStatus, failReason string, prices map[int64]claimPrice, payWithin time.Duration) (map[int64]orderOwner, error) {
	inserted := make(map[int64]orderOwner, len(claims))
	now := time.Now().UTC()
	const cols = 13
	// Keep under SQLite's and PostgreSQL's bind-parameter limits.
	const perStatement = 1000
	for start := 0; start < len(claims); start += perStatement {
		part := claims[start:min(start+perStatement, len(claims))]
		var b strings.Builder
		b.WriteString("INSERT INTO voucher_orders (id, created_at, updated_at, user_id, voucher_id, status, shop_id, kind, amount, pay_deadline, pay_time, redemption_code, fail_reason) VALUES ")
		args := make([]any, 0, len(part)*cols)
		for i, c := range part {
			if i > 0 {
				b.WriteString(", ")
			}
			n := len(args)
			b.WriteByte('(')
			for k := 1; k <= cols; k++ {
				if k > 1 {
					b.WriteString(", ")
				}
				b.WriteString(r.raw.param(n + k))
			}
			b.WriteByte(')')
			created := c.ClaimedAt.UTC()
			if created.IsZero() {
				created = now
			}
			st, price := status, prices[c.VoucherID]
			var deadline, paidAt, code any
			if status == domain.OrderPending {
				st, _ = domain.VoucherOrder{Status: status, Amount: price.payValue}.Written()
				switch {
				case st == domain.OrderPaid:
					paidAt, code = now, domain.NewRedemptionCode()
				case payWithin > 0:
					deadline = domain.PayDeadline(created, payWithin)
				}
			}
			args = append(args, c.OrderID, created, now, c.UserID, c.VoucherID, string(st),
				price.shopID, string(domain.VoucherFlashSale), price.payValue, deadline, paidAt, code, failReason)
		}
		b.WriteString(" ON CONFLICT DO NOTHING RETURNING id, user_id, voucher_id, status")
		rows, err := tx.QueryContext(ctx, b.String(), args...)
		if err != nil {
			return nil, fmt.Errorf("insert orders: %w", err)
		}
		for rows.Next() {
			var id int64
			var o orderOwner
			var st string
			if err := rows.Scan(&id, &o.userID, &o.voucherID, &st); err != nil {
				rows.Close()
				return nil, err
			}
			o.status = domain.OrderStatus(st)
			inserted[id] = o
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return inserted, nil
}

// claimsTakingStockSQL inserts a batch of claims and takes their new orders off their
// sales' stock in one statement. The claims come as one array per column (unnest), so
// the statement's text and its nine parameters are the same whatever the batch size:
// cheap to encode, parse and plan, and far from the bind-parameter limit. Each order
// copies its voucher's shop and price and is written in the status the domain gives its
// price (domain.WriteAction: $8 for a voucher that costs nothing, $9 for any other); a
// PAID one records the time and the claim's redemption code, a CREATED one its pay
// deadline. ON CONFLICT DO NOTHING skips a redelivered
// claim and a second live order of one user; RETURNING names the rows that went in, and
// for each whether its voucher's stock covered every new order of the batch: the UPDATE
// is guarded (stock >= n), so when it does not, nothing is taken and takeStock sorts
// that voucher out in the same transaction.
//
// $1 order ids, $2 user ids, $3 voucher ids, $4 claim times (µs since the Unix epoch,
// exact where a timestamp array would be parsed from text), $5 redemption codes, $6 now,
// $7 how long after its claim's millisecond an order is due for payment, in µs
// (domain.PayDeadline; NULL for no deadline), $8 and $9 the statuses of a new order that
// costs nothing and of one that does.
const claimsTakingStockSQL = `WITH claim AS (
	SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[])
		WITH ORDINALITY AS c (id, user_id, voucher_id, claimed_us, code, n)
), ins AS (
	INSERT INTO voucher_orders AS o (id, created_at, updated_at, user_id, voucher_id, status,
		shop_id, kind, amount, pay_deadline, pay_time, redemption_code)
	SELECT c.id, timestamptz 'epoch' + c.claimed_us * interval '1 microsecond', $6::timestamptz, c.user_id, c.voucher_id,
		w.status, COALESCE(v.shop_id, 0), 'FLASH_SALE', COALESCE(v.pay_value, 0),
		CASE WHEN w.status = $9 THEN timestamptz 'epoch' + (c.claimed_us / 1000 * 1000 + $7::bigint) * interval '1 microsecond' END,
		CASE WHEN w.status = $8 THEN $6::timestamptz END,
		CASE WHEN w.status = $8 THEN c.code END
	FROM claim c LEFT JOIN vouchers v ON v.id = c.voucher_id,
		LATERAL (SELECT CASE WHEN COALESCE(v.pay_value, 0) = 0 THEN $8::text ELSE $9::text END AS status) w
	ORDER BY c.n
	ON CONFLICT DO NOTHING
	RETURNING o.id, o.user_id, o.voucher_id, o.status
), took AS (
	UPDATE flash_sales f SET stock = f.stock - k.n, updated_at = $6::timestamptz
	FROM (SELECT voucher_id, count(*) AS n FROM ins GROUP BY voucher_id) k
	WHERE f.id = k.voucher_id AND f.stock >= k.n
	RETURNING f.id
)
SELECT ins.id, ins.user_id, ins.voucher_id, ins.status, took.id IS NOT NULL
FROM ins LEFT JOIN took ON took.id = ins.voucher_id`

// writtenFree and writtenPriced are the statuses the domain writes a new order of a
// voucher that costs nothing and of one that does in ($8 and $9 of claimsTakingStockSQL).
var (
	writtenFree   = string(domain.MoveOf(domain.WriteAction(0)).To)
	writtenPriced = string(domain.MoveOf(domain.WriteAction(1)).To)
)

// insertClaimsTakingStock runs claimsTakingStockSQL (PostgreSQL): it returns the rows
// inserted by id, as insertClaims does, and the vouchers whose new orders it took off
// the stock.
func (r *Orders) insertClaimsTakingStock(ctx context.Context, tx *sql.Tx, claims []domain.Claim, payWithin time.Duration) (map[int64]orderOwner, map[int64]bool, error) {
	now := time.Now().UTC()
	var (
		ids      = make([]int64, len(claims))
		users    = make([]int64, len(claims))
		vouchers = make([]int64, len(claims))
		times    = make([]int64, len(claims))
		codes    = make([]string, len(claims))
		within   any
	)
	for i, c := range claims {
		ids[i], users[i], vouchers[i] = c.OrderID, c.UserID, c.VoucherID
		at := c.ClaimedAt
		if at.IsZero() {
			at = now
		}
		times[i] = at.UnixMicro()
		// Only the orders of a voucher that costs nothing keep theirs.
		codes[i] = domain.NewRedemptionCode()
	}
	if payWithin > 0 {
		within = payWithin.Microseconds()
	}
	rows, err := tx.QueryContext(ctx, claimsTakingStockSQL,
		pq.Array(ids), pq.Array(users), pq.Array(vouchers), pq.Array(times), pq.Array(codes), now, within,
		writtenFree, writtenPriced)
	if err != nil {
		return nil, nil, fmt.Errorf("insert orders: %w", err)
	}
	defer rows.Close()
	inserted := make(map[int64]orderOwner, len(claims))
	taken := map[int64]bool{}
	for rows.Next() {
		var (
			id   int64
			o    orderOwner
			st   string
			took bool
		)
		if err := rows.Scan(&id, &o.userID, &o.voucherID, &st, &took); err != nil {
			return nil, nil, err
		}
		o.status = domain.OrderStatus(st)
		inserted[id] = o
		taken[o.voucherID] = took
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("insert orders: %w", err)
	}
	return inserted, taken, nil
}

// takeStock takes len(cs) off the voucher's stock. When the stock cannot cover them all,
// the newest orders beyond it are deleted again and returned. Every decrement is guarded
// (stock >= what it takes), so batches written at once never take more than the stock
// together: a batch that finds less than it needs reads the stock again and takes what
// is left, retrying while other batches take units meanwhile.
func (r *Orders) takeStock(ctx context.Context, tx *sql.Tx, voucherID int64, cs []domain.Claim) ([]domain.Claim, error) {
	take := len(cs)
	for attempt := 0; take > 0; attempt++ {
		if attempt == 100 {
			// The stock keeps moving under us; the whole batch is retried.
			return nil, fmt.Errorf("take stock of voucher %d: it kept changing", voucherID)
		}
		res, err := tx.ExecContext(ctx,
			"UPDATE flash_sales SET stock = stock - "+r.raw.param(1)+", updated_at = "+r.raw.param(2)+" WHERE id = "+r.raw.param(3)+" AND stock >= "+r.raw.param(4),
			take, time.Now().UTC(), voucherID, take)
		if err != nil {
			return nil, fmt.Errorf("take stock of voucher %d: %w", voucherID, err)
		}
		if k, _ := res.RowsAffected(); k == 1 {
			break
		}
		var stock int
		err = tx.QueryRowContext(ctx, "SELECT stock FROM flash_sales WHERE id = "+r.raw.param(1), voucherID).Scan(&stock)
		if errors.Is(err, sql.ErrNoRows) {
			stock = 0 // not a flash sale: nothing to take from
		} else if err != nil {
			return nil, fmt.Errorf("read stock of voucher %d: %w", voucherID, err)
		}
		// Less than we asked for (another batch may have taken some since): ask for what
		// is left, guarded again.
		take = min(take, max(stock, 0))
	}
	short := cs[take:]
	for _, c := range short {
		if _, err := tx.ExecContext(ctx, "DELETE FROM voucher_orders WHERE id = "+r.raw.param(1), c.OrderID); err != nil {
			return nil, fmt.Errorf("undo order %d: %w", c.OrderID, err)
		}
	}
	return short, nil
}

// existingOrders returns the owner and status of the orders with the given ids.
func (r *Orders) existingOrders(ctx context.Context, tx *sql.Tx, ids []int64) (map[int64]orderOwner, error) {
	out := map[int64]orderOwner{}
	for start := 0; start < len(ids); start += 1000 {
		part := ids[start:min(start+1000, len(ids))]
		ph := make([]string, len(part))
		args := make([]any, len(part))
		for i, id := range part {
			ph[i], args[i] = r.raw.param(i+1), id
		}
		rows, err := tx.QueryContext(ctx, "SELECT id, user_id, voucher_id, status FROM voucher_orders WHERE id IN ("+strings.Join(ph, ", ")+")", args...)
		if err != nil {
			return nil, fmt.Errorf("look up orders: %w", err)
		}
		for rows.Next() {
			var id int64
			var o orderOwner
			var status string
			if err := rows.Scan(&id, &o.userID, &o.voucherID, &status); err != nil {
				rows.Close()
				return nil, err
			}
			o.status = domain.OrderStatus(status)
			out[id] = o
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FailClaim implements orders.OrderStore.
func (r *Orders) FailClaim(ctx context.Context, c domain.Claim, reason string) (domain.VoucherOrder, error) {
	err := r.raw.inTx(ctx, func(tx *sql.Tx) error {
		prices, err := r.prices(ctx, tx, []domain.Claim{c})
		if err != nil {
			return err
		}
		_, err = r.insertClaims(ctx, tx, []domain.Claim{c}, domain.OrderFailed, truncateRunes(reason, 255), prices, 0)
		return err
	})
	if err != nil {
		return domain.VoucherOrder{}, fmt.Errorf("record failed order %d: %w", c.OrderID, err)
	}
	return r.Order(ctx, c.OrderID)
}

// FlashSalesEndingAfter implements seckill.Vouchers.
func (r *Vouchers) FlashSalesEndingAfter(ctx context.Context, t time.Time) ([]domain.Voucher, error) {
	rows, err := r.client.Voucher.Query().
		Where(voucher.KindEQ(voucher.KindFLASH_SALE), voucher.HasFlashSaleWith(flashsale.EndTimeGT(t))).
		WithFlashSale().
		Order(voucher.ByID()).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list flash sales: %w", err)
	}
	out := make([]domain.Voucher, len(rows))
	for i, v := range rows {
		out[i] = toVoucher(v)
	}
	return out, nil
}

// truncateRunes cuts s to at most n characters (the column's bound).
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
