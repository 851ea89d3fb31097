package socialtest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// CommentStore is a comment store and the blogs its comments are on, whose comment
// counts it keeps.
type CommentStore struct {
	notes.Comments
	Blogs notes.Blogs
}

// CommentsContract is what every notes.Comments must do, as its doc comments say:
// comments and replies page both ways, come first per blog and per parent, are refused
// on a blog or parent that is gone, take their replies with them when deleted, and keep
// the blog's and the parent's counts exact under concurrent comments and deletes.
// newStore returns a store (stores of one test may share their database).
func CommentsContract(t *testing.T, newStore func(t *testing.T) CommentStore) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[CommentStore]{Name: "comments and replies page, count and delete", Run: commentsPaging},
		contracttest.Case[CommentStore]{Name: "concurrent comments, replies and deletes keep the counts exact", Run: commentsConcurrent},
	)
}

// newNote stores a blog of a user of its own, titled title.
func newNote(t *testing.T, blogs notes.Blogs, title string) domain.Blog {
	t.Helper()
	b, err := blogs.CreateBlog(t.Context(), domain.Blog{
		ShopID: 1, UserID: contracttest.NewID(), Title: title, Content: "content of " + title, CreatedAt: time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (s CommentStore) count(t *testing.T, blogID int64) int {
	t.Helper()
	b, err := s.Blogs.Blog(t.Context(), blogID)
	if err != nil {
		t.Fatal(err)
	}
	return b.Comments
}

func commentsPaging(t *testing.T, s CommentStore) {
	ctx := t.Context()
	c := s.Comments
	b1, b2 := newNote(t, s.Blogs, "one"), newNote(t, s.Blogs, "two")
	var top []domain.Comment
	for i := range 4 {
		cm, err := c.CreateComment(ctx, domain.Comment{BlogID: b1.ID, UserID: int64(i + 1), Content: "nice"})
		if err != nil {
			t.Fatal(err)
		}
		top = append(top, cm)
	}
	reply, err := c.CreateComment(ctx, domain.Comment{BlogID: b1.ID, UserID: 9, ParentID: top[0].ID, ReplyToID: top[0].ID, ReplyToUserID: 1, Content: "thanks"})
	if err != nil || reply.ParentID != top[0].ID || reply.ReplyToID != top[0].ID || reply.ReplyToUserID != 1 {
		t.Fatalf("reply %+v, %v", reply, err)
	}
	if got, err := c.Comment(ctx, reply.ID); err != nil || got.ReplyToID != top[0].ID || got.ReplyToUserID != 1 {
		t.Fatalf("reply read back %+v, %v", got, err)
	}
	byID, err := c.CommentsByIDs(ctx, []int64{reply.ID, top[2].ID, 1 << 40})
	if err != nil || len(byID) != 2 {
		t.Fatalf("comments by id: %+v, %v; want the two known", byID, err)
	}
	for _, got := range byID {
		if (got.ID != reply.ID || got.ReplyToID != top[0].ID) && (got.ID != top[2].ID || got.Content != "nice") {
			t.Errorf("comment by id %+v", got)
		}
	}
	if none, err := c.CommentsByIDs(ctx, nil); err != nil || len(none) != 0 {
		t.Errorf("no ids: %+v, %v", none, err)
	}
	if _, err := c.CreateComment(ctx, domain.Comment{BlogID: b2.ID, UserID: 9, ParentID: top[1].ID, Content: "wrong blog"}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a reply under another blog's comment: %v, want not found", err)
	}
	if _, err := c.CreateComment(ctx, domain.Comment{BlogID: 1 << 40, UserID: 9, Content: "no blog"}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a comment on no blog: %v, want not found", err)
	}
	if n := s.count(t, b1.ID); n != 5 {
		t.Errorf("blog count %d, want 5 (4 comments, 1 reply)", n)
	}
	page, err := c.Comments(ctx, b1.ID, 0, false, top[1].ID, 2)
	if err != nil || len(page) != 2 || page[0].ID != top[2].ID || page[1].ID != top[3].ID {
		t.Errorf("oldest first after the second: %+v, %v", page, err)
	}
	page, err = c.Comments(ctx, b1.ID, 0, true, 0, 2)
	if err != nil || len(page) != 2 || page[0].ID != top[3].ID {
		t.Errorf("newest first: %+v, %v", page, err)
	}
	page, err = c.Comments(ctx, b1.ID, 0, true, top[2].ID, 10)
	if err != nil || len(page) != 2 || page[0].ID != top[1].ID || page[1].ID != top[0].ID {
		t.Errorf("newest first before the third: %+v, %v", page, err)
	}
	firsts, err := c.FirstComments(ctx, []int64{b1.ID, b2.ID}, false, 3)
	if err != nil || len(firsts[b1.ID]) != 3 || firsts[b1.ID][0].ID != top[0].ID || len(firsts[b2.ID]) != 0 {
		t.Errorf("first comments %+v, %v", firsts, err)
	}
	if firsts[b1.ID][0].Replies != 1 {
		t.Errorf("first comment counts %d replies, want 1", firsts[b1.ID][0].Replies)
	}
	replies, err := c.FirstReplies(ctx, []int64{top[0].ID, top[1].ID}, 3)
	if err != nil || len(replies[top[0].ID]) != 1 || replies[top[0].ID][0].ID != reply.ID {
		t.Errorf("first replies %+v, %v", replies, err)
	}
	// Deleting a comment takes its replies with it.
	if n, err := c.DeleteComment(ctx, top[0].ID); err != nil || n != 2 {
		t.Errorf("delete with its reply: %d, %v", n, err)
	}
	if n, err := c.DeleteComment(ctx, top[0].ID); err != nil || n != 0 {
		t.Errorf("delete again: %d, %v", n, err)
	}
	if _, err := c.Comment(ctx, reply.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a deleted reply: %v, want not found", err)
	}
	if n := s.count(t, b1.ID); n != 3 {
		t.Errorf("blog count %d after the delete, want 3", n)
	}
}

func commentsConcurrent(t *testing.T, s CommentStore) {
	ctx := t.Context()
	c := s.Comments
	b := newNote(t, s.Blogs, "busy")
	parent, err := c.CreateComment(ctx, domain.Comment{BlogID: b.ID, UserID: 1, Content: "first"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			cm := domain.Comment{BlogID: b.ID, UserID: int64(i + 2), Content: "hi"}
			if i%2 == 1 {
				cm.ParentID = parent.ID
			}
			created, err := c.CreateComment(ctx, cm)
			if err != nil {
				t.Error(err)
				return
			}
			if i%4 == 0 {
				if _, err := c.DeleteComment(ctx, created.ID); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	all, err := c.Comments(ctx, b.ID, 0, false, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	replies, err := c.Comments(ctx, b.ID, parent.ID, false, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	// 1 parent + 20 top-level (10 deleted) + 20 replies.
	if got, want := s.count(t, b.ID), len(all)+len(replies); got != want || want != 31 {
		t.Errorf("blog counts %d comments, %d rows (want 31)", got, want)
	}
	p, err := c.Comment(ctx, parent.ID)
	if err != nil || p.Replies != len(replies) || p.Replies != 20 {
		t.Errorf("parent counts %d replies, %d rows (want 20): %v", p.Replies, len(replies), err)
	}
}
