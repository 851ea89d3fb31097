package socialtest

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemComments is an in-memory notes.Comments on the blogs of a MemBlogs (its Comments),
// keeping their counts as the relational store does.
type MemComments struct{ n *memNotes }

var _ notes.Comments = (*MemComments)(nil)

// CreateComment implements notes.Comments; a zero CreatedAt means now.
func (m *MemComments) CreateComment(_ context.Context, c domain.Comment) (domain.Comment, error) {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	b, ok := m.n.blogs[c.BlogID]
	if !ok {
		return domain.Comment{}, domain.ErrNotFound
	}
	if c.ParentID > 0 {
		p, ok := m.n.comments[c.ParentID]
		if !ok || p.BlogID != c.BlogID || p.ParentID != 0 {
			return domain.Comment{}, domain.ErrNotFound
		}
		p.Replies++
		m.n.comments[p.ID] = p
	}
	b.Comments++
	m.n.blogs[b.ID] = b
	if c.CreatedAt.IsZero() {
		c.CreatedAt = time.Now()
	}
	m.n.lastNote++
	c.ID, c.Replies, c.CreatedAt = m.n.lastNote, 0, c.CreatedAt.UTC()
	m.n.comments[c.ID] = c
	return c, nil
}

// Comment implements notes.Comments.
func (m *MemComments) Comment(_ context.Context, id int64) (domain.Comment, error) {
	return memGet(&m.n.mu, m.n.comments, id, func(c domain.Comment) domain.Comment { return c })
}

// CommentsByIDs implements notes.Comments.
func (m *MemComments) CommentsByIDs(_ context.Context, ids []int64) ([]domain.Comment, error) {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	var out []domain.Comment
	for _, id := range ids {
		if c, ok := m.n.comments[id]; ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// DeleteComment implements notes.Comments.
func (m *MemComments) DeleteComment(_ context.Context, id int64) (int, error) {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	c, ok := m.n.comments[id]
	if !ok {
		return 0, nil
	}
	deleted := 0
	for cid, r := range m.n.comments {
		if cid == id || r.ParentID == id {
			delete(m.n.comments, cid)
			deleted++
		}
	}
	if b, ok := m.n.blogs[c.BlogID]; ok {
		b.Comments -= deleted
		m.n.blogs[b.ID] = b
	}
	if p, ok := m.n.comments[c.ParentID]; ok {
		p.Replies--
		m.n.comments[p.ID] = p
	}
	return deleted, nil
}

// page returns up to limit comments that keep holds, by id (descending when
// newestFirst).
func (m *MemComments) page(keep func(domain.Comment) bool, newestFirst bool, limit int) []domain.Comment {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	var out []domain.Comment
	for _, c := range m.n.comments {
		if keep(c) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b domain.Comment) int {
		if newestFirst {
			return cmp.Compare(b.ID, a.ID)
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out[:min(max(limit, 0), len(out))]
}

// Comments implements notes.Comments.
func (m *MemComments) Comments(_ context.Context, blogID, parentID int64, newestFirst bool, after int64, limit int) ([]domain.Comment, error) {
	return m.page(func(c domain.Comment) bool {
		switch {
		case c.BlogID != blogID || c.ParentID != parentID:
			return false
		case after <= 0:
			return true
		case newestFirst:
			return c.ID < after
		default:
			return c.ID > after
		}
	}, newestFirst, limit), nil
}

// FirstComments implements notes.Comments.
func (m *MemComments) FirstComments(_ context.Context, blogIDs []int64, newestFirst bool, limit int) (map[int64][]domain.Comment, error) {
	out := make(map[int64][]domain.Comment, len(blogIDs))
	for _, id := range blogIDs {
		if page := m.page(func(c domain.Comment) bool { return c.BlogID == id && c.ParentID == 0 }, newestFirst, limit); len(page) > 0 {
			out[id] = page
		}
	}
	return out, nil
}

// FirstReplies implements notes.Comments.
func (m *MemComments) FirstReplies(_ context.Context, parentIDs []int64, limit int) (map[int64][]domain.Comment, error) {
	out := make(map[int64][]domain.Comment, len(parentIDs))
	for _, id := range parentIDs {
		if page := m.page(func(c domain.Comment) bool { return c.ParentID == id }, false, limit); len(page) > 0 {
			out[id] = page
		}
	}
	return out, nil
}
