package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// ShopType holds the schema definition for a category of shops (food, KTV, hair …).
type ShopType struct {
	ent.Schema
}

// Mixin of the ShopType.
func (ShopType) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the ShopType.
func (ShopType) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// name is the category's display name.
		field.String("name").
			MaxLen(64).
			NotEmpty(),
		// icon is the category's image path.
		field.String("icon").
			MaxLen(255).
			Default(""),
		// sort orders categories on the home page, ascending.
		field.Int("sort").
			Default(0),
	}
}

// Edges of the ShopType.
func (ShopType) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("shops", Shop.Type),
	}
}
