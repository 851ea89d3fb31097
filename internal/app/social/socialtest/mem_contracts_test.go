package socialtest_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/follows/followstest"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/app/social/socialtest"
	"github.com/dealspot/dealspot/internal/app/social/visitors"
	"github.com/dealspot/dealspot/internal/domain"
)

// The fakes the social tests run on meet the contracts of the adapters they stand for.
func TestMemSignInStoreContract(t *testing.T) {
	t.Parallel()
	socialtest.SignInStoreContract(t, func(*testing.T) signins.SignInStore { return socialtest.NewMemSignInStore() })
}

func TestMemSignInCacheContract(t *testing.T) {
	t.Parallel()
	socialtest.SignInCacheContract(t, func(*testing.T) signins.SignIns { return socialtest.NewMemSignIns() })
}

func TestMemSignInLegacyContract(t *testing.T) {
	t.Parallel()
	socialtest.SignInLegacyContract(t, func(*testing.T) socialtest.LegacySignIns {
		m := socialtest.NewMemSignIns()
		return socialtest.LegacySignIns{SignIns: m, Leave: func(_ *testing.T, userID int64, month time.Time, mask uint32) {
			m.Leave(userID, month, mask)
		}}
	})
}

func TestMemVisitorsContract(t *testing.T) {
	t.Parallel()
	socialtest.VisitorsContract(t, func(*testing.T) visitors.Visitors { return socialtest.NewMemVisitors() })
}

func TestMemCommentsContract(t *testing.T) {
	t.Parallel()
	socialtest.CommentsContract(t, func(*testing.T) socialtest.CommentStore {
		blogs := socialtest.NewMemBlogs()
		return socialtest.CommentStore{Comments: blogs.Comments(), Blogs: blogs}
	})
}

func TestMemBlogsContract(t *testing.T) {
	t.Parallel()
	socialtest.BlogsContract(t, func(*testing.T) socialtest.BlogStore {
		blogs := socialtest.NewMemBlogs()
		return socialtest.BlogStore{Blogs: blogs, Like: func(t *testing.T, id int64, liked int) {
			if !blogs.SetLiked(id, liked) {
				t.Fatalf("no blog %d to like", id)
			}
		}}
	})
}

func TestMemProfilesContract(t *testing.T) {
	t.Parallel()
	socialtest.PeopleUsersContract(t, func(*testing.T) socialtest.PeopleUsers {
		m := socialtest.NewMemProfiles()
		return socialtest.PeopleUsers{Users: m, NewUser: func(_ *testing.T, nickName string) domain.User {
			return m.Add(domain.User{Phone: "138" + strconv.FormatInt(contracttest.NewID()%1e8, 10), NickName: nickName, Role: domain.RoleUser})
		}}
	})
}

// The follows package's in-memory store serves the people package's side too, as the
// relational one does.
func TestMemFollowsPeopleContract(t *testing.T) {
	t.Parallel()
	socialtest.PeopleFollowsContract(t, func(*testing.T) socialtest.PeopleFollows {
		m := followstest.NewMemFollows()
		return socialtest.PeopleFollows{Follows: m, Follow: func(t *testing.T, userID, targetID int64) {
			if created, err := m.Follow(t.Context(), userID, targetID); err != nil || !created {
				t.Fatalf("Follow(%d, %d) = %v, %v", userID, targetID, created, err)
			}
		}}
	})
}

// MemBlogs serves the follows package's reads too.
func TestMemFeedBlogsContract(t *testing.T) {
	t.Parallel()
	followstest.BlogsContract(t, func(*testing.T) followstest.Blogs {
		m := socialtest.NewMemBlogs()
		return followstest.Blogs{Blogs: m, NewBlog: func(t *testing.T, userID int64, title string, at time.Time) domain.Blog {
			b, err := m.CreateBlog(t.Context(), domain.Blog{ShopID: 1, UserID: userID, Title: title, Content: "content of " + title, CreatedAt: at})
			if err != nil {
				t.Fatal(err)
			}
			return b
		}}
	})
}

func TestMemBlogCountsContract(t *testing.T) {
	t.Parallel()
	socialtest.PeopleBlogsContract(t, func(*testing.T) socialtest.PeopleBlogs {
		m := socialtest.NewMemBlogs()
		return socialtest.PeopleBlogs{Blogs: m, NewBlog: socialtest.BlogWriter(m)}
	})
}

func TestMemCreditsContract(t *testing.T) {
	t.Parallel()
	socialtest.CreditsContract(t, func(*testing.T) socialtest.CreditStore {
		m := socialtest.NewMemCredits()
		return socialtest.CreditStore{Credits: m, NewUser: func(*testing.T) int64 { return contracttest.NewID() },
			Balance: func(_ *testing.T, userID int64) int { return m.Balance(userID) }}
	})
}
