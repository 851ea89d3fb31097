package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// SignIn holds the schema definition for a user's daily sign-ins in one calendar month:
// the source of truth that the Redis bitmaps cache.
type SignIn struct {
	ent.Schema
}

// Fields of the SignIn.
func (SignIn) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// user_id is the user signing in.
		field.Int64("user_id").
			Immutable(),
		// month is the calendar month as yyyymm, e.g. 203006.
		field.Int("month").
			Positive().
			Immutable(),
		// days is the month's signed days as a mask: bit d-1 set for day d. Sign-ins only
		// ever add bits (days = days | bit).
		field.Int64("days").
			NonNegative().
			Default(0),
	}
}

// Indexes of the SignIn.
func (SignIn) Indexes() []ent.Index {
	return []ent.Index{
		// One row per user per month; the upsert of a sign-in conflicts on it.
		index.Fields("user_id", "month").
			Unique(),
	}
}
