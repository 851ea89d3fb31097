package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// SaleReminder holds the schema definition for a user's request to be told shortly
// before a flash sale begins (remindMe). The table is the only copy: every node's
// sender claims due rows by setting sent_at where it is still null, in the transaction
// that writes the notification, so each reminder is sent once.
type SaleReminder struct {
	ent.Schema
}

// Fields of the SaleReminder.
func (SaleReminder) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// user_id is who asked to be reminded.
		field.Int64("user_id").
			Immutable(),
		// voucher_id is the flash sale's voucher; its begin time is read from the sale
		// when the reminder is due, so a sale moved is reminded of at its new time.
		field.Int64("voucher_id").
			Immutable(),
		// created_at is when the user asked.
		field.Time("created_at").
			Immutable(),
		// sent_at is when the reminder's notification was written (null: waiting).
		field.Time("sent_at").
			Optional().
			Nillable(),
	}
}

// Indexes of the SaleReminder.
func (SaleReminder) Indexes() []ent.Index {
	return []ent.Index{
		// A user asks once per sale; remindedByMe is read through it, and a user's
		// waiting reminders are counted against the limit.
		index.Fields("user_id", "voucher_id").
			Unique(),
		// A sale's reminders, counted for its merchant (reminderCount).
		index.Fields("voucher_id", "user_id"),
		// The reminders still to send, by sale: what the senders look through.
		index.Fields("voucher_id", "id").
			StorageKey("salereminder_waiting").
			Annotations(entsql.IndexWhere("sent_at IS NULL")),
	}
}
