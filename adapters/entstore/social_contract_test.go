package entstore_test

import (
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
)

// The sign-ins and the comments meet the social contracts on every database.
func TestSocialContracts(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		t.Run("sign-ins", func(t *testing.T) {
			t.Parallel()
			socialtest.SignInStoreContract(t, func(t *testing.T) signins.SignInStore { return open(t).SignIns() })
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
