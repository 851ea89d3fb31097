package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
)

// The sign-ins, the blogs and the comments meet the social contracts on every database.
func TestSocialContracts(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		t.Run("sign-ins", func(t *testing.T) {
			t.Parallel()
			socialtest.SignInStoreContract(t, func(t *testing.T) signins.SignInStore { return open(t).SignIns() })
		})
		t.Run("blogs", func(t *testing.T) {
			t.Parallel()
			socialtest.BlogsContract(t, func(t *testing.T) socialtest.BlogStore {
				blogs := open(t).Blogs()
				return socialtest.BlogStore{Blogs: blogs, Like: func(t *testing.T, id int64, liked int) {
					if ok, err := blogs.SetLiked(t.Context(), id, liked, 1); err != nil || !ok {
						t.Fatalf("SetLiked = %v, %v", ok, err)
					}
				}}
			})
		})
		t.Run("comments", func(t *testing.T) {
			t.Parallel()
			socialtest.CommentsContract(t, func(t *testing.T) socialtest.CommentStore {
				s := open(t)
				return socialtest.CommentStore{Comments: s.Comments(), Blogs: s.Blogs()}
			})
		})
	})
}
