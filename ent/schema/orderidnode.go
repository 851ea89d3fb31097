package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// OrderIDNode records one start of a process that hands out order ids. Its id, never
// reused by the database, gives the process the node part of its order ids, so two
// processes never share one — not even a process restarted within the same second.
type OrderIDNode struct {
	ent.Schema
}

// Mixin of the OrderIDNode.
func (OrderIDNode) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the OrderIDNode.
func (OrderIDNode) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// host names the machine the process ran on, for operators.
		field.String("host").
			MaxLen(255).
			Default("").
			Immutable(),
	}
}
