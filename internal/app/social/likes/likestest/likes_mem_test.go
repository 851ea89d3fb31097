package likestest_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/social/likes"
	"github.com/dealspot/dealspot/internal/app/social/likes/likestest"
)

// The in-memory like store and cache meet the contracts the adapters meet.

func TestMemLikeStoreContract(t *testing.T) {
	t.Parallel()
	likestest.LikeStoreContract(t, func(*testing.T) likestest.LikeStoreFixture {
		s := likestest.NewMemLikeStore()
		var last int64
		return likestest.LikeStoreFixture{
			Store:   s,
			NewBlog: func(*testing.T) int64 { last++; s.AddBlog(last); return last },
			Count:   func(_ *testing.T, blogID int64) int { return s.Count(blogID) },
		}
	})
}

func TestMemLikesContract(t *testing.T) {
	t.Parallel()
	likestest.LikesContract(t, func(*testing.T) likes.Likes { return likestest.NewMemLikes() })
}
