package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Payment holds the schema definition for one attempt to pay an order through the
// payment provider, and its refund.
type Payment struct {
	ent.Schema
}

// Mixin of the Payment.
func (Payment) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the Payment.
func (Payment) Fields() []ent.Field {
	return []ent.Field{
		// id is assigned by the application (time-ordered, unique across nodes).
		field.Int64("id").
			Positive().
			Immutable().
			Annotations(entsql.Annotation{Incremental: new(false)}),
		// order_id is the order paid for.
		field.Int64("order_id").
			Immutable(),
		// user_id is the payer.
		field.Int64("user_id").
			Immutable(),
		// amount is what is paid, in cents.
		field.Int64("amount").
			NonNegative().
			Immutable(),
		// status: PENDING (waiting for the provider), SUCCEEDED, FAILED, REFUND_PENDING
		// (money to give back, the provider not yet told), REFUNDED.
		field.Enum("status").
			Values("PENDING", "SUCCEEDED", "FAILED", "REFUND_PENDING", "REFUNDED").
			Default("PENDING"),
		// provider names the payment provider.
		field.String("provider").
			MaxLen(32).
			Default(""),
		// provider_ref is the provider's id of the payment.
		field.String("provider_ref").
			MaxLen(128).
			Default(""),
		// paid_at is when the provider reported the payment succeeded.
		field.Time("paid_at").
			Optional().
			Nillable(),
		// refunded_at is when the provider confirmed the refund.
		field.Time("refunded_at").
			Optional().
			Nillable(),
		// refund_reason says why the money went back.
		field.String("refund_reason").
			MaxLen(255).
			Default(""),
		// refund_amount is what goes back, in cents, once a refund is due: the amount, or
		// the price of the units not redeemed.
		field.Int64("refund_amount").
			NonNegative().
			Default(0),
		// fail_reason says why the provider declined a FAILED payment.
		field.String("fail_reason").
			MaxLen(255).
			Default(""),
	}
}

// Indexes of the Payment.
func (Payment) Indexes() []ent.Index {
	return []ent.Index{
		// An order's payments.
		index.Fields("order_id"),
		// At most one open payment per order: paying again returns it.
		index.Fields("order_id").
			Unique().
			StorageKey("payment_one_open_per_order").
			Annotations(entsql.IndexWhere("status = 'PENDING'")),
		// Refunds still to send to the provider.
		index.Fields("status").
			StorageKey("payment_refunds_due").
			Annotations(entsql.IndexWhere("status = 'REFUND_PENDING'")),
	}
}
