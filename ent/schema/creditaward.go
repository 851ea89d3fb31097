package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// CreditAward holds the schema definition for one award of credits to a user, keyed by
// what earned it: a repeated sign-in, note or payment finds its key taken and awards
// nothing. users.credits is the sum of a user's awards.
type CreditAward struct {
	ent.Schema
}

// Fields of the CreditAward.
func (CreditAward) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// user_id is the user awarded.
		field.Int64("user_id").
			Immutable(),
		// reason is what earned the award: SIGN_IN, NOTE or ORDER.
		field.String("reason").
			MaxLen(16).
			NotEmpty().
			Immutable(),
		// ref is what the award is for: the day signed as yyyymmdd, the note's id or the
		// order's id.
		field.Int64("ref").
			Immutable(),
		// amount is the credits awarded; 0 once taken back (the note was deleted, the
		// order refunded), and then the key stays taken so a late award adds nothing.
		field.Int("amount").
			NonNegative(),
		// created_at is when the award was made.
		field.Time("created_at").
			Immutable(),
	}
}

// Indexes of the CreditAward.
func (CreditAward) Indexes() []ent.Index {
	return []ent.Index{
		// One award per user, reason and reference: the key of idempotent awards.
		index.Fields("user_id", "reason", "ref").
			Unique(),
	}
}
