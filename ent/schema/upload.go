package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Upload holds the schema definition for an image a user uploaded: who may delete it.
// The image itself is in the media store, served at url.
type Upload struct {
	ent.Schema
}

// Mixin of the Upload.
func (Upload) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}}
}

// Fields of the Upload.
func (Upload) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id").
			Positive().
			Immutable(),
		// user_id is who uploaded the image.
		field.Int64("user_id").
			Immutable(),
		// url is where the media store serves the image (a /media/… path).
		field.String("url").
			MaxLen(255).
			NotEmpty().
			Immutable().
			Unique(),
		// content_type is the type found in the file (image/jpeg, image/png, …).
		field.String("content_type").
			MaxLen(32).
			Immutable(),
		// width and height are the image's size in pixels as displayed.
		field.Int("width").
			NonNegative().
			Immutable(),
		field.Int("height").
			NonNegative().
			Immutable(),
	}
}

// Indexes of the Upload.
func (Upload) Indexes() []ent.Index {
	return []ent.Index{
		// A user's uploads.
		index.Fields("user_id", "id"),
	}
}
