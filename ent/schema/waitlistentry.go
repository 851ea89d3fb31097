package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// WaitlistEntry holds the schema definition for one user's place in the line for a
// sold-out flash sale's returned units. Places are served in id order (ids grow with
// the time they were taken), so the line needs no position column: a place's position
// is the number of WAITING places of its sale with an id not above its own.
type WaitlistEntry struct {
	ent.Schema
}

// Mixin of the WaitlistEntry.
func (WaitlistEntry) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the WaitlistEntry.
func (WaitlistEntry) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// voucher_id is the flash sale waited for.
		field.Int64("voucher_id").
			Immutable(),
		// user_id is who waits.
		field.Int64("user_id").
			Immutable(),
		// status is WAITING in line, OFFERED while a unit is held for the user, CLAIMED
		// once the user's order took it, PASSED when the offer was declined or ran out.
		field.Enum("status").
			Values("WAITING", "OFFERED", "CLAIMED", "PASSED").
			Default("WAITING"),
	}
}

// Indexes of the WaitlistEntry.
func (WaitlistEntry) Indexes() []ent.Index {
	return []ent.Index{
		// One live place per user and sale: joining twice keeps the first place.
		index.Fields("voucher_id", "user_id").
			Unique().
			StorageKey("waitlistentry_one_live_place").
			Annotations(entsql.IndexWhere("status IN ('WAITING', 'OFFERED')")),
		// The line of a sale: its first WAITING place, and positions counted.
		index.Fields("voucher_id", "status", "id"),
		// A user's places (myWaitlist).
		index.Fields("user_id", "id"),
	}
}
