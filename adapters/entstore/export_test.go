package entstore

import "context"

// MigrateUpTo is Migrate stopping after version upTo, for tests that start from an older
// schema.
func (m *Migrations) MigrateUpTo(ctx context.Context, upTo string) error { return m.migrate(ctx, upTo) }
