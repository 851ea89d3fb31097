package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Comment holds the schema definition for a comment on a note, or a reply to one (one
// level deep: a reply to a reply hangs under the same comment, naming the comment and the
// user it answers).
type Comment struct {
	ent.Schema
}

// Mixin of the Comment.
func (Comment) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the Comment.
func (Comment) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// blog_id is the note commented on.
		field.Int64("blog_id").
			Immutable(),
		// user_id is the author.
		field.Int64("user_id").
			Immutable(),
		// parent_id is the top-level comment a reply hangs under (0: a top-level comment).
		field.Int64("parent_id").
			Default(0).
			Immutable(),
		// reply_to_id is the comment a reply answers: its top-level comment or another
		// reply under it (0: none). It is kept when that comment is deleted.
		field.Int64("reply_to_id").
			Default(0).
			Immutable(),
		// reply_to_user_id is the author of the comment a reply answers (0: none).
		field.Int64("reply_to_user_id").
			Default(0).
			Immutable(),
		// content is the text.
		field.String("content").
			MaxLen(4000).
			NotEmpty(),
		// replies counts a top-level comment's replies, kept in the transactions that add
		// and delete them.
		field.Int("replies").
			NonNegative().
			Default(0),
	}
}

// Indexes of the Comment.
func (Comment) Indexes() []ent.Index {
	return []ent.Index{
		// A note's top-level comments (parent 0) and a comment's replies, in id order.
		index.Fields("blog_id", "parent_id", "id"),
		index.Fields("parent_id", "id"),
	}
}
