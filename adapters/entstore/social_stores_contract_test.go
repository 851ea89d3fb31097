package entstore_test

import (
	"fmt"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The sign-ins, the blogs, the comments, and the users, follows and blog counts as
// the people package reads them meet the social contracts on every database (the
// follows and the likes have suites of their own).
func TestSocialStoreContracts(t *testing.T) {
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
		t.Run("people's users", func(t *testing.T) {
			t.Parallel()
			socialtest.PeopleUsersContract(t, func(t *testing.T) socialtest.PeopleUsers {
				users := open(t).Users()
				return socialtest.PeopleUsers{Users: users, NewUser: func(t *testing.T, nickName string) domain.User {
					u, err := users.CreateUser(t.Context(), domain.User{Phone: fmt.Sprintf("139%08d", contracttest.NewID()%1e8), NickName: nickName})
					if err != nil {
						t.Fatal(err)
					}
					return u
				}}
			})
		})
		t.Run("people's follows", func(t *testing.T) {
			t.Parallel()
			socialtest.PeopleFollowsContract(t, func(t *testing.T) socialtest.PeopleFollows {
				follows := open(t).Follows()
				return socialtest.PeopleFollows{Follows: follows, Follow: func(t *testing.T, userID, targetID int64) {
					if created, err := follows.Follow(t.Context(), userID, targetID); err != nil || !created {
						t.Fatalf("Follow(%d, %d) = %v, %v", userID, targetID, created, err)
					}
				}}
			})
		})
		t.Run("people's blogs", func(t *testing.T) {
			t.Parallel()
			socialtest.PeopleBlogsContract(t, func(t *testing.T) socialtest.PeopleBlogs {
				blogs := open(t).Blogs()
				return socialtest.PeopleBlogs{Blogs: blogs, NewBlog: socialtest.BlogWriter(blogs)}
			})
		})
		t.Run("credits", func(t *testing.T) {
			t.Parallel()
			socialtest.CreditsContract(t, func(t *testing.T) socialtest.CreditStore {
				s := open(t)
				return socialtest.CreditStore{Credits: s.Users().Credits(), Unknown: 1 << 50,
					NewUser: func(t *testing.T) int64 {
						u, err := s.Users().CreateUser(t.Context(), domain.User{Phone: fmt.Sprintf("139%08d", contracttest.NewID()%1e8)})
						if err != nil {
							t.Fatal(err)
						}
						return u.ID
					},
					Balance: func(t *testing.T, userID int64) int {
						u, err := s.Users().User(t.Context(), userID)
						if err != nil {
							t.Fatal(err)
						}
						return u.Credits
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
