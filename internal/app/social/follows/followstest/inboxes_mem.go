package followstest

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"sync"

	"github.com/dealspot/dealspot/internal/app/social/follows"
)

// MemInboxes is the in-memory follows.Inboxes of the app's tests: each user's entries
// and the mark of a filled inbox (or the token of the refill under way). It passes
// InboxesContract; Lose forgets everything, as Redis losing its data.
type MemInboxes struct {
	mu       sync.Mutex
	capacity int
	inboxes  map[int64]map[int64]int64 // user → blog → score
	marks    map[int64]string          // user → memFilled or a refill's token
	tokens   int
}

var _ follows.Inboxes = (*MemInboxes)(nil)

// memFilled marks a filled inbox; any other mark is a refill's token.
const memFilled = "filled"

// NewMemInboxes returns empty inboxes capped at capacity entries each.
func NewMemInboxes(capacity int) *MemInboxes {
	m := &MemInboxes{capacity: capacity}
	m.Lose()
	return m
}

// Lose forgets every inbox and mark, as Redis losing its data.
func (m *MemInboxes) Lose() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inboxes, m.marks = map[int64]map[int64]int64{}, map[int64]string{}
}

// Push puts e into the inbox of every user in userIDs.
func (m *MemInboxes) Push(_ context.Context, userIDs []int64, e follows.FeedEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, u := range userIDs {
		m.add(u, []follows.FeedEntry{e})
	}
	return nil
}

// Add puts entries into one user's inbox.
func (m *MemInboxes) Add(_ context.Context, userID int64, entries []follows.FeedEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.add(userID, entries)
	return nil
}

// Remove takes blogs out of one user's inbox.
func (m *MemInboxes) Remove(_ context.Context, userID int64, blogIDs []int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range blogIDs {
		delete(m.inboxes[userID], id)
	}
	return nil
}

// Page returns up to limit entries with score ≤ max (nil: no bound), newest first
// (higher blog id first on equal scores), after skipping offset of them.
func (m *MemInboxes) Page(_ context.Context, userID int64, max *int64, offset, limit int) ([]follows.FeedEntry, error) {
	if limit <= 0 {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []follows.FeedEntry
	for _, e := range m.sorted(userID) {
		if max == nil || e.Score <= *max {
			out = append(out, e)
		}
	}
	out = out[min(offset, len(out)):]
	return out[:min(limit, len(out))], nil
}

// Filled reports whether a refill marked the user's inbox since it was last lost.
func (m *MemInboxes) Filled(_ context.Context, userID int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.marks[userID] == memFilled, nil
}

// BeginRefill starts refilling the user's inbox and returns a token for Refill.
func (m *MemInboxes) BeginRefill(_ context.Context, userID int64) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tokens++
	token := "refill-" + strconv.Itoa(m.tokens)
	m.marks[userID] = token
	return token, nil
}

// Refill puts entries into the user's inbox and marks it filled if token is still the
// mark, reporting whether it did.
func (m *MemInboxes) Refill(_ context.Context, userID int64, token string, entries []follows.FeedEntry) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.add(userID, entries)
	if m.marks[userID] != token {
		return false, nil
	}
	m.marks[userID] = memFilled
	return true, nil
}

// add puts entries into the user's inbox and drops the oldest beyond the capacity;
// m.mu is held.
func (m *MemInboxes) add(userID int64, entries []follows.FeedEntry) {
	if len(entries) == 0 {
		return
	}
	inbox := m.inboxes[userID]
	if inbox == nil {
		inbox = map[int64]int64{}
		m.inboxes[userID] = inbox
	}
	for _, e := range entries {
		inbox[e.BlogID] = e.Score
	}
	if sorted := m.sorted(userID); len(sorted) > m.capacity {
		for _, e := range sorted[m.capacity:] {
			delete(inbox, e.BlogID)
		}
	}
}

// sorted returns the user's entries newest first, higher blog id first on equal scores;
// m.mu is held.
func (m *MemInboxes) sorted(userID int64) []follows.FeedEntry {
	out := make([]follows.FeedEntry, 0, len(m.inboxes[userID]))
	for id, score := range m.inboxes[userID] {
		out = append(out, follows.FeedEntry{BlogID: id, Score: score})
	}
	slices.SortFunc(out, func(a, b follows.FeedEntry) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.BlogID, a.BlogID))
	})
	return out
}
