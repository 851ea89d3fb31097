package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// User holds the schema definition for a person with an account.
type User struct {
	ent.Schema
}

// Mixin of the User.
func (User) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the User.
func (User) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// phone is the login name; one account per phone number.
		field.String("phone").
			MaxLen(32).
			NotEmpty().
			Unique(),
		// nick_name is shown next to the user's blogs and likes.
		field.String("nick_name").
			MaxLen(64).
			Default(""),
		// icon is the avatar image path.
		field.String("icon").
			MaxLen(255).
			Default(""),
		// role decides what the user may do: USER buys, MERCHANT also runs the shops it
		// owns (shops.owner_id), ADMIN runs everything.
		field.Enum("role").
			Values("USER", "MERCHANT", "ADMIN").
			Default("USER"),
		// blocked users cannot log in or claim vouchers.
		field.Bool("blocked").
			Default(false),
	}
}
