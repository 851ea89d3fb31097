package followstest

import (
	"fmt"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/domain"
)

// Blogs is a follows.Blogs and a way to write a blog of a user at a time (in shop 1).
type Blogs struct {
	follows.Blogs
	NewBlog func(t *testing.T, userID int64, title string, at time.Time) domain.Blog
}

// BlogsContract is what every follows.Blogs must do, as its doc comments say: blogs are
// read by ids in the order of the ids, unknown ones left out; a user's stamps are their
// newest blogs, newest first. newBlogs returns a store of the case's own.
func BlogsContract(t *testing.T, newBlogs func(t *testing.T) Blogs) {
	t.Helper()
	contracttest.RunCases(t, newBlogs,
		contracttest.Case[Blogs]{Name: "blogs are read by ids in the order of the ids", Run: blogsByIDs},
		contracttest.Case[Blogs]{Name: "blog stamps are a user's newest blogs", Run: blogStamps},
	)
}

func blogsByIDs(t *testing.T, s Blogs) {
	at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	created, noImages := s.NewBlog(t, 7, "first", at), s.NewBlog(t, 7, "no images", at)
	byIDs, err := s.BlogsByIDs(t.Context(), []int64{noImages.ID, created.ID + 1000, created.ID})
	if err != nil || len(byIDs) != 2 || byIDs[0].ID != noImages.ID || byIDs[1].ID != created.ID {
		t.Fatalf("by ids = %+v, %v", byIDs, err)
	}
}

func blogStamps(t *testing.T, s Blogs) {
	at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	var newest int64
	for i := range 7 {
		newest = s.NewBlog(t, 1, fmt.Sprint("mine ", i), at.Add(time.Duration(i)*time.Minute)).ID
		s.NewBlog(t, 2, fmt.Sprint("theirs ", i), at)
	}
	stamps, err := s.BlogStamps(t.Context(), 1, 2)
	if err != nil || len(stamps) != 2 || stamps[0].ID != newest || !stamps[0].CreatedAt.Equal(at.Add(6*time.Minute)) {
		t.Fatalf("stamps = %+v, %v", stamps, err)
	}
}
