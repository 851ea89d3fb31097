package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// NotificationSetting holds the schema definition for the kinds of notification a user
// wants. A user without a row has the defaults (domain.DefaultNotificationSettings).
type NotificationSetting struct {
	ent.Schema
}

// Mixin of the NotificationSetting.
func (NotificationSetting) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the NotificationSetting.
func (NotificationSetting) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// user_id is whose settings they are.
		field.Int64("user_id").
			Immutable(),
		// likes: BLOG_LIKED; comments: BLOG_COMMENTED and COMMENT_REPLIED; follows:
		// FOLLOWED; orders: ORDER_*; followed_notes: notes of followed authors;
		// shop_sales: new sales of favourite shops.
		field.Bool("likes").
			Default(true),
		field.Bool("comments").
			Default(true),
		field.Bool("follows").
			Default(true),
		field.Bool("orders").
			Default(true),
		field.Bool("followed_notes").
			Default(false),
		// shop_sales: SHOP_NEW_SALE, flash sales of the user's favourite shops.
		field.Bool("shop_sales").
			Default(true),
	}
}

// Indexes of the NotificationSetting.
func (NotificationSetting) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("user_id").
			Unique(),
	}
}
