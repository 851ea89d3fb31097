package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Blog holds the schema definition for a note a user writes about a shop.
type Blog struct {
	ent.Schema
}

// Mixin of the Blog.
func (Blog) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the Blog.
func (Blog) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// shop_id is the shop the blog is about.
		field.Int64("shop_id"),
		// user_id is the author.
		field.Int64("user_id").
			Immutable(),
		// title is the headline.
		field.String("title").
			MaxLen(255).
			NotEmpty(),
		// images is a comma-separated list of image paths.
		field.String("images").
			MaxLen(2048).
			Default(""),
		// content is the body text.
		field.Text("content").
			Default(""),
		// liked counts the likes (rows of blog_likes), counted anew by every like or
		// unlike in the transaction that makes it.
		field.Int("liked").
			NonNegative().
			Default(0),
		// liked_seq numbers the blog's like changes: every like or unlike adds one in its
		// transaction, and the Redis cache of the likers applies changes in this order.
		field.Int64("liked_seq").
			NonNegative().
			Default(0),
		// comments counts the comments.
		field.Int("comments").
			NonNegative().
			Default(0),
		// rating is the note's 1–5 star rating of its shop; 0 when it gives none.
		field.Int("rating").
			Range(0, 5).
			Default(0),
	}
}

// Indexes of the Blog.
func (Blog) Indexes() []ent.Index {
	return []ent.Index{
		// A user's blogs, newest first, paged by id.
		index.Fields("user_id", "id"),
		// A shop's notes, newest first.
		index.Fields("shop_id", "id"),
		// Hot blogs: most liked first, ties broken by id.
		index.Fields("liked", "id"),
	}
}
