package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Follow holds the schema definition for one user following another.
type Follow struct {
	ent.Schema
}

// Mixin of the Follow.
func (Follow) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the Follow.
func (Follow) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// user_id is the follower.
		field.Int64("user_id").
			Immutable(),
		// follow_user_id is the user being followed.
		field.Int64("follow_user_id").
			Immutable(),
	}
}

// Indexes of the Follow.
func (Follow) Indexes() []ent.Index {
	return []ent.Index{
		// Following someone twice is one follow.
		index.Fields("user_id", "follow_user_id").
			Unique(),
		// A user's followers, paged by follower id, for pushing blogs to their feeds.
		index.Fields("follow_user_id", "user_id"),
		// A user's followers and followings, newest first, paged by the relation's id.
		index.Fields("follow_user_id", "id"),
		index.Fields("user_id", "id"),
	}
}
