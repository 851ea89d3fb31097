package socialtest

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/social"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/app/social/people"
	"github.com/dealspot/dealspot/internal/domain"
)

// memNotes is what MemBlogs and MemComments share: the blogs and their comments, under
// one lock, as the relational store keeps them.
type memNotes struct {
	mu       sync.Mutex
	blogs    map[int64]domain.Blog
	comments map[int64]domain.Comment
	lastBlog int64
	lastNote int64
}

// MemBlogs is an in-memory social.Blogs: what notes, likes, follows and people read of
// blogs. Its Comments share its blogs.
type MemBlogs struct{ n *memNotes }

var (
	_ social.Blogs  = (*MemBlogs)(nil)
	_ notes.Blogs   = (*MemBlogs)(nil)
	_ likes.Blogs   = (*MemBlogs)(nil)
	_ follows.Blogs = (*MemBlogs)(nil)
	_ people.Blogs  = (*MemBlogs)(nil)
)

// NewMemBlogs returns a store without blogs.
func NewMemBlogs() *MemBlogs {
	return &MemBlogs{n: &memNotes{blogs: map[int64]domain.Blog{}, comments: map[int64]domain.Comment{}}}
}

// Comments returns the comments on these blogs.
func (m *MemBlogs) Comments() *MemComments { return &MemComments{n: m.n} }

// copyBlog returns b with images of its own.
func copyBlog(b domain.Blog) domain.Blog {
	b.Images = slices.Clone(b.Images)
	return b
}

// checkBlog refuses what the relational store cannot hold: no title, an image that is
// empty or holds a comma (images are one comma-separated column), a rating past 5 stars.
func checkBlog(b domain.Blog) error {
	if b.Title == "" {
		return domain.Errorf(domain.CodeBadUserInput, "a blog needs a title")
	}
	for _, img := range b.Images {
		if img == "" || strings.Contains(img, ",") {
			return domain.Errorf(domain.CodeBadUserInput, "an image path must be non-empty and hold no comma")
		}
	}
	if b.Rating < 0 || b.Rating > 5 {
		return domain.Errorf(domain.CodeBadUserInput, "rating: 1 to 5 stars, or none")
	}
	return nil
}

// CreateBlog implements notes.Blogs; a zero CreatedAt means now.
func (m *MemBlogs) CreateBlog(_ context.Context, b domain.Blog) (domain.Blog, error) {
	if err := checkBlog(b); err != nil {
		return domain.Blog{}, err
	}
	if b.CreatedAt.IsZero() {
		b.CreatedAt = time.Now()
	}
	b.CreatedAt = b.CreatedAt.UTC()
	b.UpdatedAt = b.CreatedAt
	if len(b.Images) == 0 {
		b.Images = nil
	}
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	m.n.lastBlog++
	b.ID = m.n.lastBlog
	m.n.blogs[b.ID] = copyBlog(b)
	return copyBlog(b), nil
}

// Blog implements notes.Blogs.
func (m *MemBlogs) Blog(_ context.Context, id int64) (domain.Blog, error) {
	return memGet(&m.n.mu, m.n.blogs, id, copyBlog)
}

// memGet returns what rows hold under id, through copy, or domain.ErrNotFound; mu
// guards rows.
func memGet[V any](mu *sync.Mutex, rows map[int64]V, id int64, copy func(V) V) (V, error) {
	mu.Lock()
	defer mu.Unlock()
	v, ok := rows[id]
	if !ok {
		var zero V
		return zero, domain.ErrNotFound
	}
	return copy(v), nil
}

// BlogsByIDs implements follows.Blogs: the blogs with those ids in the order of ids,
// unknown ones left out.
func (m *MemBlogs) BlogsByIDs(_ context.Context, ids []int64) ([]domain.Blog, error) {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	out := make([]domain.Blog, 0, len(ids))
	for _, id := range ids {
		if b, ok := m.n.blogs[id]; ok {
			out = append(out, copyBlog(b))
		}
	}
	return out, nil
}

// BlogStamps implements follows.Blogs: the ids and times of a user's newest limit blogs,
// newest first.
func (m *MemBlogs) BlogStamps(_ context.Context, userID int64, limit int) ([]domain.BlogStamp, error) {
	blogs := m.list(func(b domain.Blog) bool { return b.UserID == userID }, newestFirst, limit)
	stamps := make([]domain.BlogStamp, len(blogs))
	for i, b := range blogs {
		stamps[i] = domain.BlogStamp{ID: b.ID, CreatedAt: b.CreatedAt}
	}
	return stamps, nil
}

// SetLiked sets a blog's like count, as the likes package's store does; false for an
// unknown blog.
func (m *MemBlogs) SetLiked(id int64, liked int) bool {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	b, ok := m.n.blogs[id]
	if ok {
		b.Liked = liked
		m.n.blogs[id] = b
	}
	return ok
}

// list returns up to limit blogs that keep holds, ordered by less, as copies.
func (m *MemBlogs) list(keep func(domain.Blog) bool, less func(a, b domain.Blog) int, limit int) []domain.Blog {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	var out []domain.Blog
	for _, b := range m.n.blogs {
		if keep(b) {
			out = append(out, copyBlog(b))
		}
	}
	slices.SortFunc(out, less)
	return out[:min(max(limit, 0), len(out))]
}

// newestFirst orders blogs by id, descending.
func newestFirst(a, b domain.Blog) int { return cmp.Compare(b.ID, a.ID) }

// BlogsOfUser implements notes.Blogs.
func (m *MemBlogs) BlogsOfUser(_ context.Context, userID, before int64, limit int) ([]domain.Blog, error) {
	return m.list(func(b domain.Blog) bool { return b.UserID == userID && (before <= 0 || b.ID < before) }, newestFirst, limit), nil
}

// BlogsOfShop implements notes.Blogs.
func (m *MemBlogs) BlogsOfShop(_ context.Context, shopID, before int64, limit int) ([]domain.Blog, error) {
	return m.list(func(b domain.Blog) bool { return b.ShopID == shopID && (before <= 0 || b.ID < before) }, newestFirst, limit), nil
}

// HotBlogs implements notes.Blogs.
func (m *MemBlogs) HotBlogs(_ context.Context, after *notes.HotPosition, limit int) ([]domain.Blog, error) {
	keep := func(b domain.Blog) bool {
		return after == nil || b.Liked < after.Liked || b.Liked == after.Liked && b.ID < after.ID
	}
	hot := func(a, b domain.Blog) int { return cmp.Or(cmp.Compare(b.Liked, a.Liked), cmp.Compare(b.ID, a.ID)) }
	return m.list(keep, hot, limit), nil
}

// FirstBlogs implements notes.Blogs.
func (m *MemBlogs) FirstBlogs(_ context.Context, byShop bool, ids []int64, limit int) (map[int64][]domain.Blog, error) {
	out := make(map[int64][]domain.Blog, len(ids))
	for _, id := range ids {
		of := func(b domain.Blog) bool { return b.UserID == id }
		if byShop {
			of = func(b domain.Blog) bool { return b.ShopID == id }
		}
		if page := m.list(of, newestFirst, limit); len(page) > 0 {
			out[id] = page
		}
	}
	return out, nil
}

// UpdateBlog implements notes.Blogs: title, content, images and rating change.
func (m *MemBlogs) UpdateBlog(_ context.Context, id int64, update func(*domain.Blog) error) (domain.Blog, error) {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	stored, ok := m.n.blogs[id]
	if !ok {
		return domain.Blog{}, domain.ErrNotFound
	}
	b := copyBlog(stored)
	if err := update(&b); err != nil {
		return domain.Blog{}, err
	}
	if err := checkBlog(b); err != nil {
		return domain.Blog{}, err
	}
	stored.Title, stored.Content, stored.Images, stored.Rating = b.Title, b.Content, slices.Clone(b.Images), b.Rating
	if len(stored.Images) == 0 {
		stored.Images = nil
	}
	stored.UpdatedAt = time.Now().UTC()
	m.n.blogs[id] = stored
	return copyBlog(stored), nil
}

// DeleteBlog implements notes.Blogs: the blog goes with its comments.
func (m *MemBlogs) DeleteBlog(_ context.Context, id int64) (bool, error) {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	if _, ok := m.n.blogs[id]; !ok {
		return false, nil
	}
	delete(m.n.blogs, id)
	for cid, c := range m.n.comments {
		if c.BlogID == id {
			delete(m.n.comments, cid)
		}
	}
	return true, nil
}

// BlogCounts implements people.Blogs.
func (m *MemBlogs) BlogCounts(_ context.Context, userIDs []int64) (map[int64]int, error) {
	m.n.mu.Lock()
	defer m.n.mu.Unlock()
	out := make(map[int64]int, len(userIDs))
	for _, b := range m.n.blogs {
		if slices.Contains(userIDs, b.UserID) {
			out[b.UserID]++
		}
	}
	return out, nil
}
