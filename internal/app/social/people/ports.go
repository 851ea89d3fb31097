package people

import (
	"context"

	"github.com/dealspot/dealspot/internal/domain"
)

// Users reads user accounts and changes profiles.
type Users interface {
	// User returns one user, or domain.ErrNotFound.
	User(ctx context.Context, id int64) (domain.User, error)
	// UsersByIDs returns the users with those ids in the order of ids, leaving out
	// unknown ones.
	UsersByIDs(ctx context.Context, ids []int64) ([]domain.User, error)
	// UpdateProfile stores u's nickname, icon and profile and returns the user as
	// stored; domain.ErrNotFound for an unknown id.
	UpdateProfile(ctx context.Context, u domain.User) (domain.User, error)
}

// Follows reads a user's followers and followings, and counts them.
type Follows interface {
	// Followers returns up to limit relations to targetID with id < before (0: from the
	// newest), newest first; Following those from userID.
	Followers(ctx context.Context, targetID, before int64, limit int) ([]domain.Follow, error)
	Following(ctx context.Context, userID, before int64, limit int) ([]domain.Follow, error)
	// FollowerCounts and FollowingCounts count, with one query each, the followers and
	// the followings of each of ids (zero counts are left out).
	FollowerCounts(ctx context.Context, ids []int64) (map[int64]int, error)
	FollowingCounts(ctx context.Context, ids []int64) (map[int64]int, error)
}

// Blogs counts users' blogs.
type Blogs interface {
	// BlogCounts counts the blogs of each of userIDs with one query (zero counts are
	// left out).
	BlogCounts(ctx context.Context, userIDs []int64) (map[int64]int, error)
}
