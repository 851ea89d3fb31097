package auth

import (
	"context"
	"fmt"
	"time"
)

// LegacyFamily is a login session (refresh-token family) an earlier version kept only
// in Redis. That version deleted a family when it ended (logout, reuse, block), so every
// family it left is live; one that has ended is simply absent and stays ended.
type LegacyFamily struct {
	UserID   int64
	FamilyID string
	// TokenHash is the hash of the family's current refresh token.
	TokenHash string
	// Spent are the hashes of its rotated tokens: presenting one again ends the family.
	Spent []string
	// ExpiresAt is when the current token stops working.
	ExpiresAt time.Time
}

// LegacySessions finds the sessions an earlier version kept only in Redis.
type LegacySessions interface {
	// Legacy calls fn with every live family an earlier version left in Redis, unless a
	// marker says an earlier call handed them all over. A key it cannot read, or whose
	// family fn fails, is passed to skip and the scan goes on; the marker is set only
	// when no read and no fn call failed (unreadable data does not hold it back), so a
	// later call retries. Errors are failures of the scan itself.
	Legacy(ctx context.Context, fn func(LegacyFamily) error, skip func(key string, err error)) error
}

// SessionImports stores families copied from an earlier version.
type SessionImports interface {
	// ImportFamily stores f with its spent tokens unless a family with its id is stored
	// already (then it is left alone); it reports whether it stored f.
	ImportFamily(ctx context.Context, f LegacyFamily) (bool, error)
}

// ImportLegacySessions copies into the database the live sessions an earlier version
// kept only in Redis, so deploying this version logs nobody out, and returns how many
// it copied. A family that cannot be read or stored is passed to skip and the others
// are copied. Run it at start, before serving; once it has copied everything, it
// returns at once.
func ImportLegacySessions(ctx context.Context, from LegacySessions, to SessionImports, skip func(key string, err error)) (int, error) {
	var n int
	err := from.Legacy(ctx, func(f LegacyFamily) error {
		ok, err := to.ImportFamily(ctx, f)
		if err != nil {
			return fmt.Errorf("import session %s of user %d: %w", f.FamilyID, f.UserID, err)
		}
		if ok {
			n++
		}
		return nil
	}, skip)
	if err != nil {
		return n, fmt.Errorf("copy sessions only Redis holds: %w", err)
	}
	return n, nil
}
