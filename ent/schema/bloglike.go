package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// BlogLike holds the schema definition for one user liking one blog: the source of
// truth for likes, which Redis caches per blog.
type BlogLike struct {
	ent.Schema
}

// Fields of the BlogLike.
func (BlogLike) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// blog_id is the blog liked.
		field.Int64("blog_id").
			Immutable(),
		// user_id is the user who likes it.
		field.Int64("user_id").
			Immutable(),
		// liked_at is when the user liked it; likers are listed in this order.
		field.Time("liked_at").
			Immutable(),
	}
}

// Indexes of the BlogLike.
func (BlogLike) Indexes() []ent.Index {
	return []ent.Index{
		// A user likes a blog once; the blog's likers are read and counted through it.
		index.Fields("blog_id", "user_id").
			Unique(),
	}
}
