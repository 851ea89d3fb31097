package entstore_test

import (
	"fmt"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/app/search/searchtest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The search index meets its contract on every database: on PostgreSQL through the
// trigram indexes, on SQLite through the FTS5 tables and the triggers that keep them.
func TestSearchContract(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		searchtest.IndexContract(t, func(t *testing.T) searchtest.Store { return searchStore(t, open(t)) })
	})
}

var _ search.Index = (*entstore.Search)(nil)

// searchStore is s as the search contract sees it; notes are written by one user about
// one shop.
func searchStore(t *testing.T, s *entstore.Store) searchtest.Store {
	ctx := t.Context()
	types := [2]int64{mustShopType(t, s, "美食").ID, mustShopType(t, s, "KTV").ID}
	newUser := func(t *testing.T, nick string) domain.User {
		u, err := s.Users().CreateUser(ctx, domain.User{Phone: fmt.Sprintf("139%08d", contracttest.NewID()%100_000_000), NickName: nick})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	author := newUser(t, "作者")
	about, err := s.Shops().CreateShop(ctx, domain.Shop{Name: "某店", TypeID: types[1], Longitude: 120.1, Latitude: 30.2})
	if err != nil {
		t.Fatal(err)
	}
	// The author and the shop the notes are about match none of the contract's queries
	// of their kinds.
	return searchtest.Store{
		Index: entstore.NewSearch(s),
		Types: types,
		AddShop: func(t *testing.T, sh domain.Shop) domain.Shop {
			if sh.TypeID == 0 {
				sh.TypeID = types[0]
			}
			sh.Longitude, sh.Latitude = 120.15, 30.28
			created, err := s.Shops().CreateShop(ctx, sh)
			if err != nil {
				t.Fatal(err)
			}
			return created
		},
		RenameShop: func(t *testing.T, id int64, name string) {
			if _, _, err := s.Shops().UpdateShop(ctx, id, func(sh *domain.Shop) error { sh.Name = name; return nil }); err != nil {
				t.Fatal(err)
			}
		},
		DeleteShop: func(t *testing.T, id int64) {
			if err := s.Client().Shop.DeleteOneID(id).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		},
		AddNote: func(t *testing.T, title, content string) domain.Blog {
			b, err := s.Blogs().CreateBlog(ctx, domain.Blog{ShopID: about.ID, UserID: author.ID, Title: title, Content: content})
			if err != nil {
				t.Fatal(err)
			}
			return b
		},
		EditNote: func(t *testing.T, id int64, title, content string) {
			if _, err := s.Blogs().UpdateBlog(ctx, id, func(b *domain.Blog) error { b.Title, b.Content = title, content; return nil }); err != nil {
				t.Fatal(err)
			}
		},
		DeleteNote: func(t *testing.T, id int64) {
			if ok, err := s.Blogs().DeleteBlog(ctx, id); err != nil || !ok {
				t.Fatalf("delete note %d: %v, %v", id, ok, err)
			}
		},
		AddUser: newUser,
		RenameUser: func(t *testing.T, id int64, nick string) {
			u, err := s.Users().User(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			u.NickName = nick
			if _, err := s.Users().UpdateProfile(ctx, u); err != nil {
				t.Fatal(err)
			}
		},
	}
}
