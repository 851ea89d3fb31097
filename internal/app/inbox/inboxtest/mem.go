// Package inboxtest holds in-memory fakes of the inbox's ports, for the use cases'
// tests, and the contracts every adapter of those ports meets (the fakes too).
package inboxtest

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemStore is an inbox.Store in memory.
type MemStore struct {
	mu       sync.Mutex
	rows     []domain.Notification
	actors   map[int64][]int64
	settings map[int64]domain.NotificationSettings
	nextID   int64
	// adds counts the calls of Add.
	adds int
}

var _ inbox.Store = (*MemStore)(nil)

// NewMemStore returns an empty store.
func NewMemStore() *MemStore {
	return &MemStore{actors: map[int64][]int64{}, settings: map[int64]domain.NotificationSettings{}}
}

// Adds returns how many times Add was called.
func (m *MemStore) Adds() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.adds
}

// Actors returns the actors a notification counts, in the order they joined.
func (m *MemStore) Actors(id int64) []int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.actors[id])
}

// maxSeq is the user's highest Seq.
func (m *MemStore) maxSeq(userID int64) int64 {
	var s int64
	for _, r := range m.rows {
		if r.UserID == userID {
			s = max(s, r.Seq)
		}
	}
	return s
}

// Add implements inbox.Store.
func (m *MemStore) Add(_ context.Context, a inbox.Addition) (domain.Notification, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.adds++
	i := slices.IndexFunc(m.rows, func(r domain.Notification) bool {
		return r.UserID == a.UserID && r.GroupKey == a.GroupKey && !r.Read
	})
	if i < 0 {
		m.nextID++
		var actors []int64
		for _, id := range a.Actors {
			if !slices.Contains(actors, id) {
				actors = append(actors, id)
			}
		}
		n := domain.Notification{
			ID: m.nextID, UserID: a.UserID, Kind: a.Kind, GroupKey: a.GroupKey, ActorCount: len(actors),
			BlogID: a.BlogID, CommentID: a.CommentID, OrderID: a.OrderID, VoucherID: a.VoucherID, Seq: m.maxSeq(a.UserID) + 1,
			CreatedAt: a.At, UpdatedAt: a.At,
		}
		if len(actors) > 0 {
			n.ActorID = actors[len(actors)-1]
		}
		m.rows = append(m.rows, n)
		m.actors[n.ID] = actors
		return n, true, nil
	}
	n := &m.rows[i]
	var added []int64
	for _, id := range a.Actors {
		if !slices.Contains(m.actors[n.ID], id) && !slices.Contains(added, id) {
			added = append(added, id)
		}
	}
	if len(added) == 0 {
		return *n, false, nil
	}
	m.actors[n.ID] = append(m.actors[n.ID], added...)
	n.ActorCount = len(m.actors[n.ID])
	n.ActorID = added[len(added)-1]
	n.UpdatedAt = a.At
	if a.CommentID > 0 {
		n.CommentID = a.CommentID
	}
	n.Seq = m.maxSeq(a.UserID) + 1
	return *n, true, nil
}

// newestFirst returns the user's rows that keep holds, highest Seq first.
func (m *MemStore) newestFirst(userID int64, keep func(domain.Notification) bool) []domain.Notification {
	var out []domain.Notification
	for _, r := range m.rows {
		if r.UserID == userID && keep(r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b domain.Notification) int { return cmp.Compare(b.Seq, a.Seq) })
	return out
}

// Page implements inbox.Store.
func (m *MemStore) Page(_ context.Context, userID int64, unreadOnly bool, before int64, limit int) ([]domain.Notification, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.newestFirst(userID, func(r domain.Notification) bool {
		return (!unreadOnly || !r.Read) && (before <= 0 || r.Seq < before)
	})
	return out[:min(limit, len(out))], nil
}

// Notification implements inbox.Store.
func (m *MemStore) Notification(_ context.Context, userID, id int64) (domain.Notification, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.rows {
		if r.ID == id && r.UserID == userID {
			return r, nil
		}
	}
	return domain.Notification{}, domain.ErrNotFound
}

// UnreadCount implements inbox.Store.
func (m *MemStore) UnreadCount(_ context.Context, userID int64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.newestFirst(userID, func(r domain.Notification) bool { return !r.Read })), nil
}

// MarkRead implements inbox.Store.
func (m *MemStore) MarkRead(_ context.Context, userID int64, upTo int64) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for i := range m.rows {
		r := &m.rows[i]
		if r.UserID == userID && !r.Read && (upTo == 0 || r.Seq <= upTo) {
			r.Read = true
			n++
		}
	}
	return n, nil
}

// Prune implements inbox.Store.
func (m *MemStore) Prune(_ context.Context, userID int64, keep int) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	all := m.newestFirst(userID, func(domain.Notification) bool { return true })
	if len(all) <= keep {
		return 0, nil
	}
	gone := map[int64]bool{}
	for _, r := range all[keep:] {
		gone[r.ID] = true
		delete(m.actors, r.ID)
	}
	m.rows = slices.DeleteFunc(m.rows, func(r domain.Notification) bool { return gone[r.ID] })
	return len(gone), nil
}

// Settings implements inbox.Store.
func (m *MemStore) Settings(_ context.Context, userIDs []int64) (map[int64]domain.NotificationSettings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[int64]domain.NotificationSettings, len(userIDs))
	for _, id := range userIDs {
		s, ok := m.settings[id]
		if !ok {
			s = domain.DefaultNotificationSettings()
		}
		out[id] = s
	}
	return out, nil
}

// UpdateSettings implements inbox.Store.
func (m *MemStore) UpdateSettings(_ context.Context, userID int64, update func(*domain.NotificationSettings)) (domain.NotificationSettings, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.settings[userID]
	if !ok {
		s = domain.DefaultNotificationSettings()
	}
	update(&s)
	m.settings[userID] = s
	return s, nil
}

// MemBus is an inbox.Bus within one process: every MemBus of one network hears what
// any of them publishes.
type MemBus struct {
	net *busNetwork
}

type busNetwork struct {
	mu   sync.Mutex
	subs map[int64]map[chan struct{}]struct{}
}

var _ inbox.Bus = MemBus{}

// NewMemBusNetwork returns a function that makes buses of one new network (one per
// node).
func NewMemBusNetwork() func() inbox.Bus {
	net := &busNetwork{subs: map[int64]map[chan struct{}]struct{}{}}
	return func() inbox.Bus { return MemBus{net: net} }
}

// NewMemBus returns a bus of a network of its own.
func NewMemBus() MemBus { return NewMemBusNetwork()().(MemBus) }

// Publish implements inbox.Bus.
func (b MemBus) Publish(_ context.Context, userIDs ...int64) error {
	b.net.mu.Lock()
	defer b.net.mu.Unlock()
	for _, id := range userIDs {
		for ch := range b.net.subs[id] {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
	return nil
}

// Subscribe implements inbox.Bus.
func (b MemBus) Subscribe(_ context.Context, userID int64) (<-chan struct{}, func(), error) {
	ch := make(chan struct{}, 1)
	b.net.mu.Lock()
	defer b.net.mu.Unlock()
	if b.net.subs[userID] == nil {
		b.net.subs[userID] = map[chan struct{}]struct{}{}
	}
	b.net.subs[userID][ch] = struct{}{}
	return ch, sync.OnceFunc(func() {
		b.net.mu.Lock()
		defer b.net.mu.Unlock()
		delete(b.net.subs[userID], ch)
	}), nil
}
