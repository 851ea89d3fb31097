package likes

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// likeCache is an in-memory Likes with the versioned semantics of the Redis one.
type likeCache struct {
	mu      sync.Mutex
	cached  bool
	version int64
	likers  []int64
	loads   []int64 // versions Load was called with
}

func (c *likeCache) Apply(_ context.Context, _, userID int64, ch LikeChange) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case !c.cached:
		return false, nil
	case c.version >= ch.Version:
		return true, nil
	case c.version != ch.Version-1:
		return false, nil
	}
	c.likers = slices.DeleteFunc(c.likers, func(id int64) bool { return id == userID })
	if ch.Liked {
		c.likers = append(c.likers, userID)
	}
	c.version = ch.Version
	return true, nil
}

func (c *likeCache) Load(_ context.Context, _ int64, bl BlogLikes) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loads = append(c.loads, bl.Version)
	if c.cached && c.version >= bl.Version {
		return nil
	}
	c.cached, c.version, c.likers = true, bl.Version, nil
	for _, l := range bl.Likes {
		c.likers = append(c.likers, l.UserID)
	}
	return nil
}

func (c *likeCache) LikedBy(_ context.Context, userID int64, blogIDs []int64) ([]bool, []bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	liked, cached := make([]bool, len(blogIDs)), make([]bool, len(blogIDs))
	for i := range blogIDs {
		cached[i] = c.cached
		liked[i] = c.cached && slices.Contains(c.likers, userID)
	}
	return liked, cached, nil
}

func (c *likeCache) Likers(_ context.Context, _ int64, limit int) ([]int64, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.cached {
		return nil, false, nil
	}
	return slices.Clone(c.likers[:min(limit, len(c.likers))]), true, nil
}

func (c *likeCache) Legacy(context.Context, func(int64, []Like) error) error { return nil }

func (c *likeCache) Forget(context.Context, int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cached = false
	return nil
}

// likeStore is an in-memory LikeStore of one blog whose reads can be held.
type likeStore struct {
	mu      sync.Mutex
	version int64
	likes   []Like
	reads   int
	// hold, when set, is closed to let the next read through; started tells the read
	// has begun (with the snapshot it will answer taken).
	hold, started chan struct{}
}

func (s *likeStore) SetLike(_ context.Context, _, userID int64, like bool, at time.Time) (LikeChange, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.likes)
	if slices.ContainsFunc(s.likes, func(l Like) bool { return l.UserID == userID }) == like {
		return LikeChange{Liked: like, Count: n, Version: s.version}, nil
	}
	if like {
		s.likes = append(s.likes, Like{UserID: userID, At: at})
	} else {
		s.likes = slices.DeleteFunc(s.likes, func(l Like) bool { return l.UserID == userID })
	}
	s.version++
	return LikeChange{Changed: true, Liked: like, Count: len(s.likes), Version: s.version, At: at}, nil
}

func (s *likeStore) BlogLikes(context.Context, int64) (BlogLikes, error) {
	s.mu.Lock()
	s.reads++
	snap := BlogLikes{Version: s.version, Likes: slices.Clone(s.likes)}
	hold, started := s.hold, s.started
	s.hold, s.started = nil, nil
	s.mu.Unlock()
	if hold != nil {
		close(started)
		<-hold
	}
	return snap, nil
}

func (s *likeStore) Import(context.Context, int64, []Like) (int, error) { return 0, nil }

type oneBlog struct{ Blogs }

func (oneBlog) Blog(_ context.Context, id int64) (domain.Blog, error) {
	return domain.Blog{ID: id, ShopID: 1, UserID: 1}, nil
}

type someUsers struct{ Users }

func (someUsers) UsersByIDs(_ context.Context, ids []int64) ([]domain.User, error) {
	out := make([]domain.User, len(ids))
	for i, id := range ids {
		out[i] = domain.User{ID: id}
	}
	return out, nil
}

// notified records the events handed to the inboxes.
type notified struct {
	mu     sync.Mutex
	events []domain.NotificationEvent
}

func (n *notified) Notify(_ context.Context, e domain.NotificationEvent) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.events = append(n.events, e)
}

// likesUnderTest is the like use cases over one cache and store.
type likesUnderTest struct {
	*LikeCommands
	*LikeQueries
	*Loader
	notified *notified
}

func likesService(store *likeStore, cache *likeCache) likesUnderTest {
	loader := NewLoader(cache, store, slog.New(slog.DiscardHandler))
	n := &notified{}
	return likesUnderTest{
		LikeCommands: &LikeCommands{blogs: oneBlog{}, likes: loader, notifier: n, now: time.Now},
		LikeQueries:  &LikeQueries{likes: loader, users: someUsers{}, limits: domain.PageLimits{Default: 5, Max: 50}},
		Loader:       loader,
		notified:     n,
	}
}

// A like that changes something tells the note's author (blog 3 is user 1's); a
// repeated like and an unlike tell nobody.
func TestALikeIsHandedToTheAuthorsInbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := likesService(&likeStore{}, &likeCache{})
	at := time.Now()
	s.now = func() time.Time { return at }
	for range 2 {
		if _, err := s.LikeBlog(ctx, 8, 3); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.UnlikeBlog(ctx, 8, 3); err != nil {
		t.Fatal(err)
	}
	want := []domain.NotificationEvent{{Kind: domain.NotifyBlogLiked, ActorID: 8, RecipientID: 1, BlogID: 3, At: at}}
	if !slices.Equal(s.notified.events, want) {
		t.Fatalf("events %+v, want %+v", s.notified.events, want)
	}
}

func likerIDs(users []domain.User) []int64 {
	ids := make([]int64, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	return ids
}

// A reader's load of an empty cache is under way, holding an old snapshot, when a like
// commits: the like must not wait for that load nor end up behind it.
func TestALikeDoesNotJoinALoadStartedBeforeIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := &likeStore{likes: []Like{{UserID: 7, At: time.Unix(1, 0)}}, version: 1}
	cache := &likeCache{}
	s := likesService(store, cache)
	hold, started := make(chan struct{}), make(chan struct{})
	store.hold, store.started = hold, started

	readerDone := make(chan []domain.User)
	go func() {
		users, err := s.BlogLikers(ctx, 3, 10)
		if err != nil {
			t.Error(err)
		}
		readerDone <- users
	}()
	<-started // the reader holds the snapshot of version 1

	likeDone := make(chan notes.BlogView)
	go func() {
		v, err := s.LikeBlog(ctx, 8, 3)
		if err != nil {
			t.Error(err)
		}
		likeDone <- v
	}()
	var view notes.BlogView
	select {
	case view = <-likeDone:
	case <-time.After(time.Minute):
		t.Fatal("the like waits for a load that started before it")
	}
	if !view.LikedByMe || view.Blog.Liked != 2 {
		t.Fatalf("like = liked %v, count %d; want liked, 2", view.LikedByMe, view.Blog.Liked)
	}
	close(hold)
	if got := likerIDs(<-readerDone); !slices.Equal(got, []int64{7}) {
		t.Fatalf("the reader saw %v, want its snapshot [7]", got)
	}
	// The slow load of version 1 did not undo the like.
	users, err := s.BlogLikers(ctx, 3, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := likerIDs(users); !slices.Equal(got, []int64{7, 8}) || cache.version != 2 {
		t.Fatalf("likers %v at version %d, want [7 8] at 2", got, cache.version)
	}
}

// Readers of a blog the cache lacks share one load, and later readers use the cache.
func TestReadersOfAnUncachedBlogShareOneLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := &likeStore{likes: []Like{{UserID: 7, At: time.Unix(1, 0)}, {UserID: 9, At: time.Unix(2, 0)}}, version: 5}
	cache := &likeCache{}
	s := likesService(store, cache)
	hold, started := make(chan struct{}), make(chan struct{})
	store.hold, store.started = hold, started

	const readers = 20
	var wg sync.WaitGroup
	results := make(chan []int64, readers)
	wg.Go(func() {
		users, err := s.BlogLikers(ctx, 3, 10)
		if err != nil {
			t.Error(err)
		}
		results <- likerIDs(users)
	})
	<-started
	for range readers - 1 {
		wg.Go(func() {
			liked, err := s.LikedBy(ctx, 9, []int64{3, 3})
			if err != nil {
				t.Error(err)
			}
			if !slices.Equal(liked, []bool{true, true}) {
				t.Errorf("likedBy = %v", liked)
			}
			results <- []int64{7, 9}
		})
	}
	close(hold)
	wg.Wait()
	close(results)
	for got := range results {
		if !slices.Equal(got, []int64{7, 9}) {
			t.Fatalf("a reader saw %v", got)
		}
	}
	// Readers that found the load under way joined it; any that came after it ended
	// read the cache. Either way, far fewer reads than readers.
	if store.reads >= readers/2 {
		t.Fatalf("%d readers read the store %d times", readers, store.reads)
	}
	before := store.reads
	if _, err := s.BlogLikers(ctx, 3, 10); err != nil || store.reads != before {
		t.Fatalf("a reader after the load read the store again (%d reads), %v", store.reads, err)
	}
}
