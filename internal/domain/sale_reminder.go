package domain

import "time"

// SaleReminder is a user's request to be told shortly before a flash sale begins. A
// user asks once per sale; the reminder is sent once (SentAt set in the same
// transaction that writes the notification), however many server nodes look for due
// reminders.
type SaleReminder struct {
	ID        int64
	UserID    int64
	VoucherID int64
	CreatedAt time.Time
	// SentAt is when the reminder's notification was written; nil while it waits.
	SentAt *time.Time
}
