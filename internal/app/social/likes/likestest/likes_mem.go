package likestest

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemLikeStore is the in-memory likes.LikeStore of the app's tests: the blogs it knows
// (AddBlog), each with its likes, their version and the count stored with it. It passes
// LikeStoreContract.
type MemLikeStore struct {
	mu    sync.Mutex
	blogs map[int64]*memBlogLikes
}

type memBlogLikes struct {
	version int64
	likes   []likes.Like // earliest first
	count   int
}

var _ likes.LikeStore = (*MemLikeStore)(nil)

// NewMemLikeStore returns a store that knows no blog.
func NewMemLikeStore() *MemLikeStore { return &MemLikeStore{blogs: map[int64]*memBlogLikes{}} }

// AddBlog makes blogID a blog no one likes (keeping its likes if it was one).
func (m *MemLikeStore) AddBlog(blogID int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.blogs[blogID] == nil {
		m.blogs[blogID] = &memBlogLikes{}
	}
}

// Count returns the like count stored with the blog.
func (m *MemLikeStore) Count(blogID int64) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b := m.blogs[blogID]; b != nil {
		return b.count
	}
	return 0
}

// SetLike makes the user like the blog at the given time, or not; domain.ErrNotFound
// for an unknown blog.
func (m *MemLikeStore) SetLike(_ context.Context, blogID, userID int64, like bool, at time.Time) (likes.LikeChange, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.blogs[blogID]
	if b == nil {
		return likes.LikeChange{}, domain.ErrNotFound
	}
	i := slices.IndexFunc(b.likes, func(l likes.Like) bool { return l.UserID == userID })
	if (i >= 0) == like {
		return likes.LikeChange{Liked: like, Count: b.count, Version: b.version}, nil
	}
	if like {
		b.insert(likes.Like{UserID: userID, At: at})
	} else {
		b.likes = slices.Delete(b.likes, i, i+1)
	}
	b.version++
	b.count = len(b.likes)
	c := likes.LikeChange{Changed: true, Liked: like, Count: b.count, Version: b.version}
	if like {
		c.At = at
	}
	return c, nil
}

// BlogLikes returns all likes of a blog with their version; domain.ErrNotFound for an
// unknown blog.
func (m *MemLikeStore) BlogLikes(_ context.Context, blogID int64) (likes.BlogLikes, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.blogs[blogID]
	if b == nil {
		return likes.BlogLikes{}, domain.ErrNotFound
	}
	return likes.BlogLikes{Version: b.version, Likes: slices.Clone(b.likes)}, nil
}

// Import adds likes the store lacks and recounts the blog, as one change, returning how
// many it added; domain.ErrNotFound for an unknown blog.
func (m *MemLikeStore) Import(_ context.Context, blogID int64, ls []likes.Like) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.blogs[blogID]
	if b == nil {
		return 0, domain.ErrNotFound
	}
	added := 0
	for _, l := range ls {
		if !slices.ContainsFunc(b.likes, func(have likes.Like) bool { return have.UserID == l.UserID }) {
			b.insert(l)
			added++
		}
	}
	if added > 0 {
		b.version++
		b.count = len(b.likes)
	}
	return added, nil
}

// insert puts l among the likes, earliest first (after those of the same time).
func (b *memBlogLikes) insert(l likes.Like) {
	i, _ := slices.BinarySearchFunc(b.likes, l.At, func(have likes.Like, at time.Time) int {
		if have.At.After(at) {
			return 1
		}
		return -1
	})
	b.likes = slices.Insert(b.likes, i, l)
}

// MemLikes is the in-memory likes.Likes of the app's tests: each cached blog's likers in
// like order, with the version they are as of. It holds no like sets of earlier versions.
// It passes LikesContract.
type MemLikes struct {
	mu    sync.Mutex
	blogs map[int64]*memBlogLikes
}

var _ likes.Likes = (*MemLikes)(nil)

// NewMemLikes returns a cache that holds no blog.
func NewMemLikes() *MemLikes { return &MemLikes{blogs: map[int64]*memBlogLikes{}} }

// Apply records change when the cache holds the version just before it; an older change
// is taken as done.
func (m *MemLikes) Apply(_ context.Context, blogID, userID int64, change likes.LikeChange) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.blogs[blogID]
	switch {
	case b == nil || change.Version > b.version+1:
		return false, nil
	case change.Version <= b.version:
		return true, nil
	}
	b.likes = slices.DeleteFunc(b.likes, func(l likes.Like) bool { return l.UserID == userID })
	if change.Liked {
		b.insert(likes.Like{UserID: userID, At: change.At})
	}
	b.version = change.Version
	return true, nil
}

// Load caches likes unless the cache holds their version or a newer one already.
func (m *MemLikes) Load(_ context.Context, blogID int64, bl likes.BlogLikes) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b := m.blogs[blogID]; b != nil && b.version >= bl.Version {
		return nil
	}
	b := &memBlogLikes{version: bl.Version}
	for _, l := range bl.Likes {
		b.insert(l)
	}
	m.blogs[blogID] = b
	return nil
}

// LikedBy reports, for each of blogIDs, whether userID likes it and whether it is cached.
func (m *MemLikes) LikedBy(_ context.Context, userID int64, blogIDs []int64) (liked, cached []bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	liked, cached = make([]bool, len(blogIDs)), make([]bool, len(blogIDs))
	for i, id := range blogIDs {
		if b := m.blogs[id]; b != nil {
			cached[i] = true
			liked[i] = slices.ContainsFunc(b.likes, func(l likes.Like) bool { return l.UserID == userID })
		}
	}
	return liked, cached, nil
}

// Likers returns the ids of a blog's first limit likers and whether it is cached.
func (m *MemLikes) Likers(_ context.Context, blogID int64, limit int) ([]int64, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.blogs[blogID]
	if b == nil {
		return nil, false, nil
	}
	var ids []int64
	for _, l := range b.likes[:min(max(limit, 0), len(b.likes))] {
		ids = append(ids, l.UserID)
	}
	return ids, true, nil
}

// Forget drops a blog from the cache.
func (m *MemLikes) Forget(_ context.Context, blogID int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.blogs, blogID)
	return nil
}

// Legacy finds no like sets of earlier versions: the fake never holds any.
func (m *MemLikes) Legacy(context.Context, func(blogID int64, likes []likes.Like) error) error {
	return nil
}
