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
		// The public profile. Nicknames need not be unique: users are told apart by id.
		field.String("city").
			MaxLen(64).
			Default(""),
		field.String("introduction").
			MaxLen(1024).
			Default(""),
		// gender is UNKNOWN until the user says.
		field.Enum("gender").
			Values("UNKNOWN", "FEMALE", "MALE", "OTHER").
			Default("UNKNOWN"),
		// birthday is shown to its owner only.
		field.Time("birthday").
			Optional().
			Nillable(),
		// credits are the sum of the user's credit awards (credit_awards), moved in the
		// transaction that stores or takes back an award; the level follows from them.
		field.Int("credits").
			NonNegative().
			Default(0),
		// password_hash is the user's password as an argon2id PHC string
		// ($argon2id$v=19$m=…,t=…,p=…$salt$key), or empty when the user logs in with
		// codes only. Sensitive: ent never prints it.
		field.String("password_hash").
			MaxLen(255).
			Default("").
			Sensitive(),
	}
}
