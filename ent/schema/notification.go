package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Notification holds the schema definition for one line of a user's inbox: the actions
// of one group (one note's likes) collapse into it while it is unread.
type Notification struct {
	ent.Schema
}

// Fields of the Notification.
func (Notification) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// user_id is the recipient.
		field.Int64("user_id").
			Immutable(),
		// kind is what it tells (domain.NotificationKind: BLOG_LIKED, ORDER_PAID …).
		field.String("kind").
			MaxLen(32).
			Immutable(),
		// group_key names the group whose actions join it while it is unread
		// ("blog:7:liked", "followed", "order:9:ORDER_PAID").
		field.String("group_key").
			MaxLen(128).
			Immutable(),
		// actor_id is the latest user who acted (0: the server's own doing);
		// actor_count counts the distinct users who acted (notification_actors).
		field.Int64("actor_id").
			Default(0),
		field.Int("actor_count").
			NonNegative().
			Default(0),
		// blog_id, comment_id and order_id are what it is about (0: none); comment_id is
		// the latest comment of the group.
		field.Int64("blog_id").
			Default(0).
			Immutable(),
		field.Int64("comment_id").
			Default(0),
		field.Int64("order_id").
			Default(0).
			Immutable(),
		// voucher_id is the voucher it is about (0: none): the flash sale of a
		// SALE_REMINDER.
		field.Int64("voucher_id").
			Default(0).
			Immutable(),
		// seq orders the user's inbox: every change that adds to a notification gives it
		// the user's next number.
		field.Int64("seq").
			Positive(),
		// read_at is when the user marked it read (null: unread).
		field.Time("read_at").
			Optional().
			Nillable(),
		// created_at is when it was created; updated_at when its latest actor acted.
		field.Time("created_at").
			Immutable(),
		field.Time("updated_at"),
	}
}

// Indexes of the Notification.
func (Notification) Indexes() []ent.Index {
	return []ent.Index{
		// The inbox in order, newest first; a user's seqs are unique, so writers that
		// raced for the same next number do not both commit.
		index.Fields("user_id", "seq").
			Unique(),
		// One unread notification per group: the one new actions join.
		index.Fields("user_id", "group_key").
			Unique().
			Annotations(entsql.IndexWhere("read_at IS NULL")),
	}
}
