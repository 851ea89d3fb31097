package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Session holds the schema definition for a login session: a refresh-token family. The
// database is the sessions' source of truth; Redis caches whether each is live.
type Session struct {
	ent.Schema
}

// Mixin of the Session.
func (Session) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the Session.
func (Session) Fields() []ent.Field {
	return []ent.Field{
		// id is the family id named by the session's tokens (32 hex characters).
		field.String("id").
			MaxLen(64).
			NotEmpty().
			Immutable(),
		// user_id is the account the session belongs to.
		field.Int64("user_id").
			Immutable(),
		// token_hash is the SHA-256 (hex) of the family's current refresh token.
		field.String("token_hash").
			MaxLen(64).
			NotEmpty(),
		// expires_at is when the current refresh token stops working; each rotation moves
		// it. Expired sessions are deleted by a periodic sweep.
		field.Time("expires_at"),
		// revoked_at is when the session was ended (logout, reuse, block); nil while live.
		field.Time("revoked_at").
			Optional().
			Nillable(),
	}
}

// Indexes of the Session.
func (Session) Indexes() []ent.Index {
	return []ent.Index{
		// A user's sessions, to end them all.
		index.Fields("user_id"),
		// The sweep of expired sessions.
		index.Fields("expires_at"),
	}
}

// SessionToken holds the schema definition for a spent refresh token: one that was a
// session's current token and has been rotated. Presenting it again means it was copied,
// and ends the session.
type SessionToken struct {
	ent.Schema
}

// Fields of the SessionToken.
func (SessionToken) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// session_id is the family the token belonged to; deleted with it.
		field.String("session_id").
			MaxLen(64).
			NotEmpty().
			Immutable(),
		// token_hash is the SHA-256 (hex) of the spent token.
		field.String("token_hash").
			MaxLen(64).
			NotEmpty().
			Immutable(),
	}
}

// Indexes of the SessionToken.
func (SessionToken) Indexes() []ent.Index {
	return []ent.Index{
		// Reuse detection looks a presented token up in its family.
		index.Fields("session_id", "token_hash").
			Unique(),
	}
}
