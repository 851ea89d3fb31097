package socialtest

import (
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/app/social/people"
)

// PeopleFollows is a people.Follows and a way to record that userID follows targetID.
type PeopleFollows struct {
	people.Follows
	Follow func(t *testing.T, userID, targetID int64)
}

// PeopleFollowsContract is what every people.Follows must do, as its doc comments say:
// followers and followings page newest first, and are counted per user with users
// without any left out. newFollows returns the follows (follows of one test may share
// their database).
func PeopleFollowsContract(t *testing.T, newFollows func(t *testing.T) PeopleFollows) {
	t.Helper()
	contracttest.RunCases(t, newFollows,
		contracttest.Case[PeopleFollows]{Name: "followers and followings page newest first and are counted", Run: peopleFollows},
	)
}

func peopleFollows(t *testing.T, s PeopleFollows) {
	ctx := t.Context()
	star, fan, loner := contracttest.NewID(), contracttest.NewID(), contracttest.NewID()
	var fans []int64
	for range 5 {
		f := contracttest.NewID()
		s.Follow(t, f, star)
		fans = append(fans, f)
	}
	s.Follow(t, fan, star)
	s.Follow(t, star, fan)
	// Newest first: the last follow of star is fan's.
	want := append([]int64{fan}, fans[4], fans[3], fans[2], fans[1], fans[0])
	var got []int64
	before := int64(0)
	for {
		page, err := s.Followers(ctx, star, before, 4)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range page {
			if f.FollowUserID != star || f.ID <= 0 {
				t.Fatalf("a follower page of %d holds %+v", star, f)
			}
			got = append(got, f.UserID)
			before = f.ID
		}
		if len(page) < 4 {
			break
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("followers of star = %v, want %v", got, want)
	}
	following, err := s.Following(ctx, fan, 0, 10)
	if err != nil || len(following) != 1 || following[0].UserID != fan || following[0].FollowUserID != star {
		t.Fatalf("following of fan = %+v, %v; want star", following, err)
	}
	if later, err := s.Following(ctx, fan, following[0].ID, 10); err != nil || len(later) != 0 {
		t.Fatalf("following of fan before its only follow = %+v, %v; want none", later, err)
	}
	followers, err := s.FollowerCounts(ctx, []int64{star, fan, loner})
	if err != nil || !maps.Equal(followers, map[int64]int{star: 6, fan: 1}) {
		t.Fatalf("follower counts = %v, %v; want star 6, fan 1, loner left out", followers, err)
	}
	followings, err := s.FollowingCounts(ctx, []int64{star, fan, fans[0], loner})
	if err != nil || !maps.Equal(followings, map[int64]int{star: 1, fan: 1, fans[0]: 1}) {
		t.Fatalf("following counts = %v, %v; want 1 each, loner left out", followings, err)
	}
}

// PeopleBlogs is a people.Blogs and a way to store a blog of a user.
type PeopleBlogs struct {
	people.Blogs
	NewBlog func(t *testing.T, userID int64)
}

// PeopleBlogsContract is what every people.Blogs must do, as its doc comment says: the
// blogs of each user counted, users without any left out. newBlogs returns the blogs
// (blogs of one test may share their database).
func PeopleBlogsContract(t *testing.T, newBlogs func(t *testing.T) PeopleBlogs) {
	t.Helper()
	contracttest.RunCases(t, newBlogs,
		contracttest.Case[PeopleBlogs]{Name: "blogs are counted per user", Run: peopleBlogCounts},
	)
}

func peopleBlogCounts(t *testing.T, s PeopleBlogs) {
	writer, once, idle := contracttest.NewID(), contracttest.NewID(), contracttest.NewID()
	for range 3 {
		s.NewBlog(t, writer)
	}
	s.NewBlog(t, once)
	counts, err := s.BlogCounts(t.Context(), []int64{writer, once, idle})
	if err != nil || !maps.Equal(counts, map[int64]int{writer: 3, once: 1}) {
		t.Fatalf("blog counts = %v, %v; want 3 and 1, the idle user left out", counts, err)
	}
}

// BlogWriter returns a PeopleBlogs.NewBlog that stores a blog of the user in blogs.
func BlogWriter(blogs notes.Blogs) func(t *testing.T, userID int64) {
	return func(t *testing.T, userID int64) { newBlogAt(t, blogs, 1, userID, "counted", time.Now()) }
}
