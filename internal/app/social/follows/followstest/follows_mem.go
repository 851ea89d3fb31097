package followstest

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/social"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemFollows is the in-memory follow store of the app's tests, as the relational one
// serves both sides of social.Follows: follows.Follows for the follows package and
// people.Follows (pages and counts) for the people package. Relations are numbered in
// the order they were made. It passes FollowsContract and
// socialtest.PeopleFollowsContract.
type MemFollows struct {
	mu      sync.Mutex
	nextID  int64
	follows []domain.Follow // by id
}

var (
	_ social.Follows  = (*MemFollows)(nil)
	_ follows.Follows = (*MemFollows)(nil)
	_ people.Follows  = (*MemFollows)(nil)
)

// NewMemFollows returns a store with no relations.
func NewMemFollows() *MemFollows { return &MemFollows{} }

// Follow records that userID follows targetID; false when it already held.
// domain.ErrBadInput unless they are two different users.
func (m *MemFollows) Follow(_ context.Context, userID, targetID int64) (bool, error) {
	if userID <= 0 || targetID <= 0 || userID == targetID {
		return false, domain.Errorf(domain.CodeBadUserInput, "a follow needs two different users")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.find(userID, targetID) >= 0 {
		return false, nil
	}
	m.nextID++
	m.follows = append(m.follows, domain.Follow{ID: m.nextID, UserID: userID, FollowUserID: targetID, CreatedAt: time.Now().UTC()})
	return true, nil
}

// Unfollow removes that relation; false when it did not hold.
func (m *MemFollows) Unfollow(_ context.Context, userID, targetID int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := m.find(userID, targetID)
	if i < 0 {
		return false, nil
	}
	m.follows = slices.Delete(m.follows, i, i+1)
	return true, nil
}

// FollowerIDs returns up to limit ids of targetID's followers greater than after,
// ascending.
func (m *MemFollows) FollowerIDs(_ context.Context, targetID, after int64, limit int) ([]int64, error) {
	return m.ids(func(f domain.Follow) (int64, bool) { return f.UserID, f.FollowUserID == targetID }, after, limit), nil
}

// Follows returns up to limit relations with id > after, ordered by id.
func (m *MemFollows) Follows(_ context.Context, after int64, limit int) ([]domain.Follow, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.Follow
	for _, f := range m.follows {
		if f.ID > after && len(out) < limit {
			out = append(out, f)
		}
	}
	return out, nil
}

// FollowingIDs returns up to limit ids greater than after of the users userID follows,
// ascending.
func (m *MemFollows) FollowingIDs(_ context.Context, userID, after int64, limit int) ([]int64, error) {
	return m.ids(func(f domain.Follow) (int64, bool) { return f.FollowUserID, f.UserID == userID }, after, limit), nil
}

// ids returns, ascending, up to limit of the ids greater than after that pick takes
// from the relations it matches.
func (m *MemFollows) ids(pick func(domain.Follow) (int64, bool), after int64, limit int) []int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []int64
	for _, f := range m.follows {
		if id, ok := pick(f); ok && id > after {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids[:min(limit, len(ids))]
}

// Followers implements people.Follows: up to limit relations to targetID with id <
// before (0: from the newest), newest first.
func (m *MemFollows) Followers(_ context.Context, targetID, before int64, limit int) ([]domain.Follow, error) {
	return m.page(func(f domain.Follow) bool { return f.FollowUserID == targetID }, before, limit), nil
}

// Following implements people.Follows: those from userID.
func (m *MemFollows) Following(_ context.Context, userID, before int64, limit int) ([]domain.Follow, error) {
	return m.page(func(f domain.Follow) bool { return f.UserID == userID }, before, limit), nil
}

// FollowerCounts implements people.Follows: the followers of each of ids (zero counts
// left out).
func (m *MemFollows) FollowerCounts(_ context.Context, ids []int64) (map[int64]int, error) {
	return m.count(ids, func(f domain.Follow) int64 { return f.FollowUserID }), nil
}

// FollowingCounts implements people.Follows: the followings of each of ids.
func (m *MemFollows) FollowingCounts(_ context.Context, ids []int64) (map[int64]int, error) {
	return m.count(ids, func(f domain.Follow) int64 { return f.UserID }), nil
}

// page returns up to limit relations that keep holds, with id < before (0: from the
// newest), newest first.
func (m *MemFollows) page(keep func(domain.Follow) bool, before int64, limit int) []domain.Follow {
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

// count counts the relations per id that side picks of each, among ids.
func (m *MemFollows) count(ids []int64, side func(domain.Follow) int64) map[int64]int {
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

// find returns the index of the relation, or -1; m.mu is held.
func (m *MemFollows) find(userID, targetID int64) int {
	return slices.IndexFunc(m.follows, func(f domain.Follow) bool {
		return f.UserID == userID && f.FollowUserID == targetID
	})
}

// MemFollowMirror is the in-memory follows.FollowMirror of the app's tests: a set of
// followed ids per user. It passes FollowMirrorContract.
type MemFollowMirror struct {
	mu      sync.Mutex
	follows map[int64]map[int64]bool
	loaded  bool
}

var _ follows.FollowMirror = (*MemFollowMirror)(nil)

// NewMemFollowMirror returns a mirror never filled.
func NewMemFollowMirror() *MemFollowMirror {
	return &MemFollowMirror{follows: map[int64]map[int64]bool{}}
}

// Add records that userID follows targetID.
func (m *MemFollowMirror) Add(_ context.Context, userID, targetID int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.add(userID, targetID)
	return nil
}

// Remove forgets it.
func (m *MemFollowMirror) Remove(_ context.Context, userID, targetID int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.follows[userID], targetID)
	return nil
}

// Contains reports whether userID follows targetID.
func (m *MemFollowMirror) Contains(_ context.Context, userID, targetID int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.follows[userID][targetID], nil
}

// FollowsMany reports, for each of targetIDs in order, whether userID follows it.
func (m *MemFollowMirror) FollowsMany(_ context.Context, userID int64, targetIDs []int64) ([]bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]bool, len(targetIDs))
	for i, id := range targetIDs {
		out[i] = m.follows[userID][id]
	}
	return out, nil
}

// Common returns the ids both a and b follow, ascending.
func (m *MemFollowMirror) Common(_ context.Context, a, b int64) ([]int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []int64
	for id := range m.follows[a] {
		if m.follows[b][id] {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Loaded reports whether MarkLoaded was called.
func (m *MemFollowMirror) Loaded(context.Context) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.loaded, nil
}

// AddAll records many relations.
func (m *MemFollowMirror) AddAll(_ context.Context, follows []domain.Follow) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range follows {
		m.add(f.UserID, f.FollowUserID)
	}
	return nil
}

// MarkLoaded records that the mirror now holds the database's relations.
func (m *MemFollowMirror) MarkLoaded(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.loaded = true
	return nil
}

// add records one relation; m.mu is held.
func (m *MemFollowMirror) add(userID, targetID int64) {
	if m.follows[userID] == nil {
		m.follows[userID] = map[int64]bool{}
	}
	m.follows[userID][targetID] = true
}
