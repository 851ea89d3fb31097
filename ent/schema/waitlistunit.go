package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// WaitlistUnit holds the schema definition for a returned unit of a flash sale held
// for its waitlist: taken off the sale's stock in the transaction that held it, held
// for one user at a time (user_id, until expires_at) and moved on by conditional
// updates, until an order claims it or nobody is left and it goes back to the stock
// (invariant I8).
type WaitlistUnit struct {
	ent.Schema
}

// Mixin of the WaitlistUnit.
func (WaitlistUnit) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the WaitlistUnit.
func (WaitlistUnit) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// voucher_id is the flash sale the unit belongs to.
		field.Int64("voucher_id").
			Immutable(),
		// source_order_id is the order whose unit came back; a unit is held once per
		// source order however often its return is told.
		field.Int64("source_order_id").
			Unique().
			Immutable(),
		// source_user_id is that order's user (the gate's bucket of the unit).
		field.Int64("source_user_id").
			Immutable(),
		// status is HELD for user_id, CLAIMED by order_id, or RESTOCKED; NOT_OFFERED
		// records that the unit of a claim that failed went to the stock without an offer
		// (nobody waited), so that every node gives it back the same way.
		field.Enum("status").
			Values("HELD", "CLAIMED", "RESTOCKED", "NOT_OFFERED").
			Default("HELD"),
		// user_id is whom the unit is held for now (0 once it is not HELD).
		field.Int64("user_id").
			Default(0),
		// entry_id is that user's place in line (0 once it is not HELD).
		field.Int64("entry_id").
			Default(0),
		// offered_at is when the unit was held for user_id.
		field.Time("offered_at"),
		// expires_at is when the offer passes to the next in line unless accepted.
		field.Time("expires_at"),
		// order_id is the order that claimed the unit (0 until CLAIMED).
		field.Int64("order_id").
			Default(0),
		// announced_at is when user_id's WAITLIST_OFFER notification was written; null
		// until then, and again once the unit passes to the next in line. The sweep
		// announces the offers a stopped node held but never announced.
		field.Time("announced_at").
			Optional().
			Nillable(),
	}
}

// Indexes of the WaitlistUnit.
func (WaitlistUnit) Indexes() []ent.Index {
	return []ent.Index{
		// Offers by deadline, for the expiry sweep.
		index.Fields("expires_at").
			StorageKey("waitlistunit_held_by_deadline").
			Annotations(entsql.IndexWhere("status = 'HELD'")),
		// Offers held but not announced yet, for the sweep that announces them.
		index.Fields("offered_at").
			StorageKey("waitlistunit_unannounced").
			Annotations(entsql.IndexWhere("status = 'HELD' AND announced_at IS NULL")),
		// A user's offer on a sale, and a sale's held units counted (the audit).
		index.Fields("voucher_id", "user_id"),
	}
}
