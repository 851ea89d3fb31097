package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"
)

// TimeMixin adds creation and last-update times to an entity.
type TimeMixin struct {
	mixin.Schema
}

// Fields of the TimeMixin.
func (TimeMixin) Fields() []ent.Field {
	return []ent.Field{
		// created_at is when the row was inserted; it never changes.
		field.Time("created_at").
			Default(time.Now).
			Immutable(),
		// updated_at is refreshed on every update made through ent.
		field.Time("updated_at").
			Default(time.Now).
			UpdateDefault(time.Now),
	}
}
