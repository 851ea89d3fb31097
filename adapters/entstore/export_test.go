package entstore

import "context"

// MigrateUpTo is Migrate stopping after version upTo, for tests that start from an older
// schema.
func (s *Store) MigrateUpTo(ctx context.Context, upTo string) error { return s.migrate(ctx, upTo) }
