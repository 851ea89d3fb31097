package searchtest_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/app/search/searchtest"
	"github.com/dealspot/dealspot/internal/domain"
)

// The fake meets the contract it stands for.
func TestMemIndexContract(t *testing.T) {
	t.Parallel()
	searchtest.IndexContract(t, func(t *testing.T) searchtest.Store {
		x := searchtest.NewMemIndex()
		var last int64
		shops := map[int64]domain.Shop{}
		notes := map[int64]domain.Blog{}
		users := map[int64]domain.User{}
		return searchtest.Store{
			Index: x,
			Types: [2]int64{1, 2},
			AddShop: func(_ *testing.T, s domain.Shop) domain.Shop {
				last++
				s.ID = last
				if s.TypeID == 0 {
					s.TypeID = 1
				}
				shops[s.ID] = s
				x.PutShop(s)
				return s
			},
			RenameShop: func(_ *testing.T, id int64, name string) {
				s := shops[id]
				s.Name = name
				shops[id] = s
				x.PutShop(s)
			},
			DeleteShop: func(_ *testing.T, id int64) { x.DeleteShop(id) },
			AddNote: func(_ *testing.T, title, content string) domain.Blog {
				last++
				b := domain.Blog{ID: last, Title: title, Content: content}
				notes[b.ID] = b
				x.PutNote(b)
				return b
			},
			EditNote: func(_ *testing.T, id int64, title, content string) {
				b := notes[id]
				b.Title, b.Content = title, content
				notes[id] = b
				x.PutNote(b)
			},
			DeleteNote: func(_ *testing.T, id int64) { x.DeleteNote(id) },
			AddUser: func(_ *testing.T, nick string) domain.User {
				last++
				u := domain.User{ID: last, NickName: nick}
				users[u.ID] = u
				x.PutUser(u)
				return u
			},
			RenameUser: func(_ *testing.T, id int64, nick string) {
				u := users[id]
				u.NickName = nick
				users[id] = u
				x.PutUser(u)
			},
		}
	})
}
