package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// VoucherOrder holds the schema definition for one person's claim of one voucher.
//
// user_id and voucher_id are plain columns without foreign keys: orders are written in
// batches by the queue consumer with ON CONFLICT (user_id, voucher_id) DO NOTHING, and
// the unique index below is what enforces one order per person and voucher.
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
		// voucher_id is the voucher claimed.
		field.Int64("voucher_id").
			Immutable(),
		// status is where the order is in its life.
		field.Enum("status").
			Values("PENDING", "CREATED", "FAILED", "PAID", "USED", "CANCELED", "REFUNDED").
			Default("CREATED"),
		// pay_time is when the order was paid.
		field.Time("pay_time").
			Optional().
			Nillable(),
		// use_time is when the voucher was used at the shop.
		field.Time("use_time").
			Optional().
			Nillable(),
		// refund_time is when the order was refunded.
		field.Time("refund_time").
			Optional().
			Nillable(),
	}
}

// Indexes of the VoucherOrder.
func (VoucherOrder) Indexes() []ent.Index {
	return []ent.Index{
		// One live order per person and voucher (invariant I2). A FAILED order gave its
		// stock and the person's slot back, so it does not count: the person may claim
		// again.
		index.Fields("user_id", "voucher_id").
			Unique().
			Annotations(entsql.IndexWhere("status <> 'FAILED'")),
		// "My orders", newest or oldest first, paged by id.
		index.Fields("user_id", "id"),
		// Counting and reconciling the orders of one voucher.
		index.Fields("voucher_id"),
	}
}
