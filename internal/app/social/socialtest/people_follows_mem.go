package socialtest

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemFollowers is an in-memory people.Follows: follow relations numbered in the order
// they were made.
type MemFollowers struct {
	mu      sync.Mutex
	follows []domain.Follow
}

var _ people.Follows = (*MemFollowers)(nil)

// Follow records that userID follows targetID, unless it already does.
func (m *MemFollowers) Follow(userID, targetID int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if slices.ContainsFunc(m.follows, func(f domain.Follow) bool { return f.UserID == userID && f.FollowUserID == targetID }) {
		return
	}
	m.follows = append(m.follows, domain.Follow{ID: int64(len(m.follows) + 1), UserID: userID, FollowUserID: targetID, CreatedAt: time.Now().UTC()})
}

// page returns up to limit relations that keep holds, with id < before (0: from the
// newest), newest first.
func (m *MemFollowers) page(keep func(domain.Follow) bool, before int64, limit int) []domain.Follow {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.Follow
	for _, f := range m.follows {
		if keep(f) && (before <= 0 || f.ID < before) {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b domain.Follow) int { return cmp.Compare(b.ID, a.ID) })
	return out[:min(max(limit, 0), len(out))]
}

// Followers implements people.Follows.
func (m *MemFollowers) Followers(_ context.Context, targetID, before int64, limit int) ([]domain.Follow, error) {
	return m.page(func(f domain.Follow) bool { return f.FollowUserID == targetID }, before, limit), nil
}

// Following implements people.Follows.
func (m *MemFollowers) Following(_ context.Context, userID, before int64, limit int) ([]domain.Follow, error) {
	return m.page(func(f domain.Follow) bool { return f.UserID == userID }, before, limit), nil
}

// count counts the relations per id that side picks of each, among ids.
func (m *MemFollowers) count(ids []int64, side func(domain.Follow) int64) map[int64]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[int64]int, len(ids))
	for _, f := range m.follows {
		if id := side(f); slices.Contains(ids, id) {
			out[id]++
		}
	}
	return out
}

// FollowerCounts implements people.Follows.
func (m *MemFollowers) FollowerCounts(_ context.Context, ids []int64) (map[int64]int, error) {
	return m.count(ids, func(f domain.Follow) int64 { return f.FollowUserID }), nil
}

// FollowingCounts implements people.Follows.
func (m *MemFollowers) FollowingCounts(_ context.Context, ids []int64) (map[int64]int, error) {
	return m.count(ids, func(f domain.Follow) int64 { return f.UserID }), nil
}
