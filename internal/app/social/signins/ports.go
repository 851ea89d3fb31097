package signins

import (
	"context"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// SignInStore keeps each user's sign-ins, one row per user per month, in the relational
// store: the source of truth that the Redis bitmaps are rebuilt from.
type SignInStore interface {
	// Sign adds the calendar day of day (its year, month and day) to the user's month in
	// one statement and returns the month's signed days after it, as a mask: bit d-1
	// set for day d.
	Sign(ctx context.Context, userID int64, day time.Time) (uint32, error)
	// Month returns the signed days of the calendar month of month, as a mask (0 when
	// the user never signed in that month).
	Month(ctx context.Context, userID int64, month time.Time) (uint32, error)
	// Merge adds the days of mask to the user's month of month.
	Merge(ctx context.Context, userID int64, month time.Time, mask uint32) error
}

// SignIns caches one bitmap per user per month in Redis. Signed days are only ever
// added, so caching a mask merges it with what is cached (a bitwise or): writes and
// loads may land in any order.
type SignIns interface {
	// Merge adds the days of mask to the cached month of month, caching the month when it
	// was not. A month cached with no days expires after a while, so months nobody signed
	// in do not stay in Redis.
	Merge(ctx context.Context, userID int64, month time.Time, mask uint32) error
	// Month returns the cached days of the calendar month of month, and whether the
	// month is cached at all.
	Month(ctx context.Context, userID int64, month time.Time) (uint32, bool, error)
	// Legacy calls fn with every month Redis holds as a bitmap that never expires:
	// sign-ins written before the store kept them. A month fn accepted becomes a cached
	// month like any other; once fn accepted them all, later calls find none without
	// looking.
	Legacy(ctx context.Context, fn func(userID int64, month time.Time, mask uint32) error) error
}

// Credits award users the credits of their sign-ins (the relational store's credit
// awards).
type Credits interface {
	// Award stores award unless an award with its key (user, reason, reference) was
	// stored before, adding its amount to the user's credits in the same transaction; it
	// reports whether it did.
	Award(ctx context.Context, award domain.CreditAward) (bool, error)
}
