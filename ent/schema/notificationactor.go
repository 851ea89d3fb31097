package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// NotificationActor holds the schema definition for one user counted by a grouped
// notification, so that a user who acts again (likes after unliking) is counted once.
type NotificationActor struct {
	ent.Schema
}

// Fields of the NotificationActor.
func (NotificationActor) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// notification_id is the notification counting the user; its rows go with it.
		field.Int64("notification_id").
			Immutable(),
		// user_id is the user who acted.
		field.Int64("user_id").
			Immutable(),
	}
}

// Indexes of the NotificationActor.
func (NotificationActor) Indexes() []ent.Index {
	return []ent.Index{
		// A user is counted once per notification.
		index.Fields("notification_id", "user_id").
			Unique(),
	}
}
