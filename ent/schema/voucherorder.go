package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// VoucherOrder holds the schema definition for one purchase of a voucher: a flash-sale
// claim (written by the queue consumer) or a normal voucher bought directly.
//
// user_id, voucher_id and shop_id are plain columns without foreign keys: flash-sale
// orders are written in batches by the queue consumer with ON CONFLICT DO NOTHING, and
// the partial unique index below is what enforces one live flash-sale order per person
// and voucher.
type VoucherOrder struct {
	ent.Schema
}

// Mixin of the VoucherOrder.
func (VoucherOrder) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the VoucherOrder.
func (VoucherOrder) Fields() []ent.Field {
	return []ent.Field{
		// id is assigned by the application (time-ordered, unique across nodes).
		field.Int64("id").
			Positive().
			Immutable().
			Annotations(entsql.Annotation{Incremental: new(false)}),
		// user_id is the buyer.
		field.Int64("user_id").
			Immutable(),
		// voucher_id is the voucher bought.
		field.Int64("voucher_id").
			Immutable(),
		// shop_id is the voucher's shop (copied, so a shop's orders are one index scan).
		field.Int64("shop_id").
			Default(0).
			Immutable(),
		// kind is the voucher's kind: FLASH_SALE orders hold a unit of their sale's stock.
		field.Enum("kind").
			Values("NORMAL", "FLASH_SALE").
			Default("FLASH_SALE").
			Immutable(),
		// quantity is how many vouchers the order buys (always 1 for a flash sale).
		field.Int("quantity").
			Positive().
			Default(1).
			Immutable(),
		// redeemed_quantity is how many of the units the shop has redeemed: the order is
		// redeemed unit by unit and becomes USED when none is left.
		field.Int("redeemed_quantity").
			NonNegative().
			Default(0),
		// amount is what the buyer pays, in cents: the voucher's pay value × quantity.
		field.Int64("amount").
			NonNegative().
			Default(0).
			Immutable(),
		// status is where the order is in its life.
		field.Enum("status").
			Values("PENDING", "CREATED", "FAILED", "PAID", "USED", "CANCELED", "REFUNDED").
			Default("CREATED"),
		// pay_deadline is when a CREATED order that is still unpaid is canceled.
		field.Time("pay_deadline").
			Optional().
			Nillable(),
		// expiry_warned_at is when its buyer was told that the unpaid order will be
		// canceled soon (null: not yet); set once, by the one node whose conditional
		// update wins.
		field.Time("expiry_warned_at").
			Optional().
			Nillable(),
		// pay_time is when the order was paid.
		field.Time("pay_time").
			Optional().
			Nillable(),
		// use_time is when the voucher was redeemed at the shop.
		field.Time("use_time").
			Optional().
			Nillable(),
		// canceled_at is when the order was canceled.
		field.Time("canceled_at").
			Optional().
			Nillable(),
		// cancel_reason is BUYER or TIMEOUT for a canceled order.
		field.String("cancel_reason").
			MaxLen(32).
			Default(""),
		// fail_reason says why a FAILED order failed, as its status event said: LOST
		// for a claim lost with Redis before its order was written, or a description.
		field.String("fail_reason").
			MaxLen(255).
			Default(""),
		// refund_time is when the order was refunded.
		field.Time("refund_time").
			Optional().
			Nillable(),
		// refund_reason is what the buyer gave when asking for the refund.
		field.String("refund_reason").
			MaxLen(255).
			Default(""),
		// redemption_code is shown at the shop to use a PAID order; set when it is paid.
		field.String("redemption_code").
			MaxLen(32).
			Optional().
			Nillable().
			Unique(),
	}
}

// Indexes of the VoucherOrder.
func (VoucherOrder) Indexes() []ent.Index {
	return []ent.Index{
		// One live flash-sale order per person and voucher (invariant I2). A FAILED,
		// CANCELED or REFUNDED order holds no unit: the person may claim again (when the
		// gate lets them). Normal vouchers can be bought any number of times.
		index.Fields("user_id", "voucher_id").
			Unique().
			StorageKey("voucherorder_one_live_flash_order").
			Annotations(entsql.IndexWhere("kind = 'FLASH_SALE' AND status IN ('PENDING', 'CREATED', 'PAID', 'USED')")),
		// "My orders", newest or oldest first, paged by id.
		index.Fields("user_id", "id"),
		// Counting and reconciling the orders of one voucher.
		index.Fields("voucher_id"),
		// A shop's orders, newest first.
		index.Fields("shop_id", "id"),
		// Unpaid orders by deadline, for the expiry sweep.
		index.Fields("pay_deadline").
			StorageKey("voucherorder_unpaid_by_deadline").
			Annotations(entsql.IndexWhere("status = 'CREATED'")),
	}
}
