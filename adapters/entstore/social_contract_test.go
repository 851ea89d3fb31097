package entstore_test

import (
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/follows/followstest"
	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/app/social/likes/likestest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The follows and the likes meet the social contracts on every database.
func TestSocialContracts(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		t.Run("follows", func(t *testing.T) {
			t.Parallel()
			followstest.FollowsContract(t, func(t *testing.T) follows.Follows { return open(t).Follows() })
		})
		t.Run("feed blogs", func(t *testing.T) {
			t.Parallel()
			followstest.BlogsContract(t, func(t *testing.T) followstest.Blogs {
				s := open(t)
				return followstest.Blogs{Blogs: s.Blogs(), NewBlog: func(t *testing.T, userID int64, title string, at time.Time) domain.Blog {
					return newBlog(t, s, userID, title, at)
				}}
			})
		})
		t.Run("like store", func(t *testing.T) {
			t.Parallel()
			likestest.LikeStoreContract(t, func(t *testing.T) likestest.LikeStoreFixture { return likeStoreFixture(open(t)) })
		})
	})
}

// likeStoreFixture is the store's likes, with blogs of user 1 to like.
func likeStoreFixture(s *entstore.Store) likestest.LikeStoreFixture {
	return likestest.LikeStoreFixture{
		Store:   s.Likes(),
		NewBlog: func(t *testing.T) int64 { return newBlog(t, s, 1, "liked", time.Now()).ID },
		Count: func(t *testing.T, blogID int64) int {
			t.Helper()
			b, err := s.Blogs().Blog(t.Context(), blogID)
			if err != nil {
				t.Fatalf("blog's count: %v", err)
			}
			return b.Liked
		},
	}
}

var (
	_ follows.Follows = (*entstore.Follows)(nil)
	_ follows.Blogs   = (*entstore.Blogs)(nil)
	_ likes.LikeStore = (*entstore.Likes)(nil)
)
