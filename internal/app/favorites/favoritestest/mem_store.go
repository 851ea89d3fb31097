package favoritestest

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/dealspot/dealspot/internal/app/favorites"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemStore is an in-memory favorites.Store.
type MemStore struct {
	mu   sync.Mutex
	next int64
	rows []domain.Favorite
}

var _ favorites.Store = (*MemStore)(nil)

// NewMemStore returns an empty store.
func NewMemStore() *MemStore { return &MemStore{} }

func (m *MemStore) find(userID int64, t domain.FavoriteTarget) int {
	return slices.IndexFunc(m.rows, func(f domain.Favorite) bool { return f.UserID == userID && f.Target == t })
}

// Add implements favorites.Store.
func (m *MemStore) Add(_ context.Context, f domain.Favorite, allow func(held int) error) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.find(f.UserID, f.Target) >= 0 {
		return false, nil
	}
	held := 0
	for _, r := range m.rows {
		if r.UserID == f.UserID {
			held++
		}
	}
	if err := allow(held); err != nil {
		return false, err
	}
	m.next++
	f.ID = m.next
	m.rows = append(m.rows, f)
	return true, nil
}

// Remove implements favorites.Store.
func (m *MemStore) Remove(_ context.Context, userID int64, t domain.FavoriteTarget) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := m.find(userID, t)
	if i < 0 {
		return false, nil
	}
	m.rows = slices.Delete(m.rows, i, i+1)
	return true, nil
}

// OfUser implements favorites.Store.
func (m *MemStore) OfUser(_ context.Context, userID, before int64, limit int) ([]domain.Favorite, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.Favorite
	for _, f := range slices.Backward(m.rows) {
		if f.UserID == userID && (before == 0 || f.ID < before) && len(out) < limit {
			out = append(out, f)
		}
	}
	return out, nil
}

// Marked implements favorites.Store.
func (m *MemStore) Marked(_ context.Context, userID int64, kind domain.FavoriteKind, ids []int64) (map[int64]bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[int64]bool{}
	for _, id := range ids {
		if m.find(userID, domain.FavoriteTarget{Kind: kind, ID: id}) >= 0 {
			out[id] = true
		}
	}
	return out, nil
}

// Counts implements favorites.Store.
func (m *MemStore) Counts(_ context.Context, kind domain.FavoriteKind, ids []int64) (map[int64]int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[int64]int{}
	for _, f := range m.rows {
		if f.Target.Kind == kind && slices.Contains(ids, f.Target.ID) {
			out[f.Target.ID]++
		}
	}
	return out, nil
}

// Fans implements favorites.Store.
func (m *MemStore) Fans(_ context.Context, t domain.FavoriteTarget, after int64, limit int) ([]int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []int64
	for _, f := range m.rows {
		if f.Target == t && f.UserID > after {
			out = append(out, f.UserID)
		}
	}
	slices.SortFunc(out, cmp.Compare)
	return out[:min(len(out), limit)], nil
}
