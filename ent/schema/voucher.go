package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Voucher holds the schema definition for a deal a shop sells. Values are in cents.
type Voucher struct {
	ent.Schema
}

// Mixin of the Voucher.
func (Voucher) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the Voucher.
func (Voucher) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// shop_id is the shop that honours the voucher.
		field.Int64("shop_id").
			Immutable(),
		// title is the headline, e.g. 100元代金券.
		field.String("title").
			MaxLen(255).
			NotEmpty(),
		// sub_title is the second line, e.g. 周一至周日均可使用.
		field.String("sub_title").
			MaxLen(255).
			Default(""),
		// rules are the terms of use.
		field.Text("rules").
			Default(""),
		// pay_value is what the buyer pays, in cents.
		field.Int64("pay_value").
			NonNegative(),
		// actual_value is what the voucher is worth at the shop, in cents.
		field.Int64("actual_value").
			NonNegative(),
		// kind tells normal vouchers from flash-sale ones.
		field.Enum("kind").
			Values("NORMAL", "FLASH_SALE").
			Default("NORMAL").
			Immutable(),
		// status is whether the voucher is on sale.
		field.Enum("status").
			Values("ON_SALE", "OFF_SALE").
			Default("ON_SALE"),
	}
}

// Edges of the Voucher.
func (Voucher) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).
			Ref("vouchers").
			Field("shop_id").
			Unique().
			Required().
			Immutable(),
		// flash_sale is set for vouchers of kind FLASH_SALE; it shares the voucher's id.
		edge.To("flash_sale", FlashSale.Type).
			Unique().
			StorageKey(edge.Column("id")),
	}
}

// Indexes of the Voucher.
func (Voucher) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("shop_id"),
	}
}
