package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// FlashSale holds the schema definition for the limited, time-boxed part of a flash-sale
// voucher. It shares its primary key with the voucher (one row per voucher), so the
// stock row is found by the voucher id without another index.
type FlashSale struct {
	ent.Schema
}

// Mixin of the FlashSale.
func (FlashSale) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the FlashSale.
func (FlashSale) Fields() []ent.Field {
	return []ent.Field{
		// id is the id of the voucher on sale; set by the application, never generated.
		field.Int64("id").
			Positive().
			Immutable().
			Annotations(entsql.Annotation{Incremental: new(false)}),
		// stock is what is left to sell in the database; it never goes below zero.
		field.Int("stock").
			NonNegative(),
		// begin_time is when claims open.
		field.Time("begin_time"),
		// end_time is when claims close.
		field.Time("end_time"),
		// buckets is how many parts the sale's stock is split into in Redis, each on a
		// shard of its own. It decides where the sale's keys live, so it is set at
		// creation only; rows from before it existed get 1 (one part).
		field.Int("buckets").
			Default(1).
			Positive().
			Immutable(),
	}
}

// Edges of the FlashSale.
func (FlashSale) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("voucher", Voucher.Type).
			Ref("flash_sale").
			Unique().
			Required().
			Immutable(),
	}
}
