package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Favorite holds the schema definition for one user's favourite: a shop or a voucher
// the user marked, so that it can be found again (myFavorites) and so that a shop knows
// its fans.
type Favorite struct {
	ent.Schema
}

// Fields of the Favorite.
func (Favorite) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// user_id is the user who marked the target.
		field.Int64("user_id").
			Immutable(),
		// kind is what target_id names.
		field.Enum("kind").
			Values("SHOP", "VOUCHER").
			Immutable(),
		// target_id is the shop's or the voucher's id.
		field.Int64("target_id").
			Immutable(),
		// created_at is when the user marked it; a user's favourites are listed newest
		// first by id, which grows with it.
		field.Time("created_at").
			Immutable(),
	}
}

// Indexes of the Favorite.
func (Favorite) Indexes() []ent.Index {
	return []ent.Index{
		// A user marks a target once; whether the caller marked a page's shops is read
		// through it.
		index.Fields("user_id", "kind", "target_id").
			Unique(),
		// A user's favourites, newest first, paged by id, and counted against the limit.
		index.Fields("user_id", "id"),
		// A target's fans, counted (favoriteCount) and listed by user id.
		index.Fields("kind", "target_id", "user_id"),
	}
}
