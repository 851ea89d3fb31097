package entstore_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

func TestSQLiteComments(t *testing.T) {
	t.Parallel()
	runCases(t, openSQLite, commentCases)
}

func TestPostgresComments(t *testing.T) {
	t.Parallel()
	testsupport.Require(t, testsupport.EnvPostgres)
	runCases(t, openPostgres, commentCases)
}

var commentCases = []storeCase{
	{"comments and replies page, count and delete", testCommentsPaging},
	{"concurrent comments, replies and deletes keep the counts exact", testCommentsConcurrent},
}

func commentCount(t *testing.T, s *entstore.Store, blogID int64) int {
	t.Helper()
	b, err := s.Blogs().Blog(t.Context(), blogID)
	if err != nil {
		t.Fatal(err)
	}
	return b.Comments
}

func testCommentsPaging(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	c := s.Comments()
	b1, b2 := newBlog(t, s, 1, "one", time.Now()), newBlog(t, s, 1, "two", time.Now())
	var top []domain.Comment
	for i := range 4 {
		cm, err := c.CreateComment(ctx, domain.Comment{BlogID: b1.ID, UserID: int64(i + 1), Content: "nice"})
		if err != nil {
			t.Fatal(err)
		}
		top = append(top, cm)
	}
	reply, err := c.CreateComment(ctx, domain.Comment{BlogID: b1.ID, UserID: 9, ParentID: top[0].ID, ReplyToUserID: 1, Content: "thanks"})
	if err != nil || reply.ParentID != top[0].ID || reply.ReplyToUserID != 1 {
		t.Fatalf("reply %+v, %v", reply, err)
	}
	if _, err := c.CreateComment(ctx, domain.Comment{BlogID: b2.ID, UserID: 9, ParentID: top[1].ID, Content: "wrong blog"}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a reply under another blog's comment: %v, want not found", err)
	}
	if _, err := c.CreateComment(ctx, domain.Comment{BlogID: 1 << 40, UserID: 9, Content: "no blog"}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a comment on no blog: %v, want not found", err)
	}
	if n := commentCount(t, s, b1.ID); n != 5 {
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
	if n := commentCount(t, s, b1.ID); n != 3 {
		t.Errorf("blog count %d after the delete, want 3", n)
	}
}

func testCommentsConcurrent(t *testing.T, s *entstore.Store) {
	ctx := t.Context()
	c := s.Comments()
	b := newBlog(t, s, 1, "busy", time.Now())
	parent, err := c.CreateComment(ctx, domain.Comment{BlogID: b.ID, UserID: 1, Content: "first"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
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
		}()
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
	if got, want := commentCount(t, s, b.ID), len(all)+len(replies); got != want || want != 31 {
		t.Errorf("blog counts %d comments, %d rows (want 31)", got, want)
	}
	p, err := c.Comment(ctx, parent.ID)
	if err != nil || p.Replies != len(replies) || p.Replies != 20 {
		t.Errorf("parent counts %d replies, %d rows (want 20): %v", p.Replies, len(replies), err)
	}
}
