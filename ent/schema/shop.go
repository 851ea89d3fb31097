package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Shop holds the schema definition for a place that sells deals.
type Shop struct {
	ent.Schema
}

// Mixin of the Shop.
func (Shop) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the Shop.
func (Shop) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// name is the shop's display name.
		field.String("name").
			MaxLen(128).
			NotEmpty(),
		// type_id is the shop's category.
		field.Int64("type_id"),
		// images is a comma-separated list of image paths.
		field.String("images").
			MaxLen(1024).
			Default(""),
		// area is the neighbourhood, e.g. 拱宸桥/上塘.
		field.String("area").
			MaxLen(128).
			Default(""),
		// address is the street address.
		field.String("address").
			MaxLen(255).
			Default(""),
		// longitude is in degrees (WGS-84 / GCJ-02 as the map provider gives it).
		field.Float("longitude"),
		// latitude is in degrees.
		field.Float("latitude"),
		// avg_price is the average spend per person, in cents.
		field.Int64("avg_price").
			NonNegative().
			Default(0),
		// sold counts the deals sold.
		field.Int("sold").
			NonNegative().
			Default(0),
		// comments counts the reviews.
		field.Int("comments").
			NonNegative().
			Default(0),
		// score is the rating times ten (0–50).
		field.Int("score").
			Range(0, 50).
			Default(0),
		// rating_sum and rating_count add up the ratings of the shop's notes (and, for
		// the demo shops, the reviews they came with): score is rating_sum×10 ÷
		// rating_count rounded, comments the number of reviews. Every note written,
		// edited or deleted moves them in its transaction.
		field.Int64("rating_sum").
			NonNegative().
			Default(0),
		field.Int("rating_count").
			NonNegative().
			Default(0),
		// open_hours is free text such as "10:00-22:00".
		field.String("open_hours").
			MaxLen(64).
			Default(""),
		// owner_id is the merchant who runs the shop (its vouchers, sales and
		// redemptions); unset for shops run by the operators alone.
		field.Int64("owner_id").
			Optional().
			Nillable(),
	}
}

// Edges of the Shop.
func (Shop) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("type", ShopType.Type).
			Ref("shops").
			Field("type_id").
			Unique().
			Required(),
		edge.To("vouchers", Voucher.Type),
	}
}

// Indexes of the Shop.
func (Shop) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("type_id"),
		// Paging through one category by id.
		index.Fields("type_id", "id"),
		index.Fields("name"),
		// A merchant's shops.
		index.Fields("owner_id"),
	}
}
