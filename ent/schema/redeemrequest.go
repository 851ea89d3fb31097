package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// RedeemRequest holds the schema definition for one redemption of an order's units made
// under a client's request id (redeemOrder's requestId). It is written in the
// transaction that redeems the units, so a request sent again finds its key taken and
// redeems nothing more; a redemption without a request id writes no row.
type RedeemRequest struct {
	ent.Schema
}

// Fields of the RedeemRequest.
func (RedeemRequest) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// order_id is the order redeemed (a plain column, as the order's own references
		// and its payments' are).
		field.Int64("order_id").
			Immutable(),
		// request_id is the client's key: 1–64 characters of [A-Za-z0-9_-].
		field.String("request_id").
			MaxLen(64).
			NotEmpty().
			Immutable(),
		// units is how many units the request redeemed, as it asked.
		field.Int("units").
			NonNegative().
			Immutable(),
		// created_at is when the units were redeemed.
		field.Time("created_at").
			Immutable(),
	}
}

// Indexes of the RedeemRequest.
func (RedeemRequest) Indexes() []ent.Index {
	return []ent.Index{
		// One redemption per order and request id: the key of idempotent redemptions.
		index.Fields("order_id", "request_id").
			Unique(),
	}
}
