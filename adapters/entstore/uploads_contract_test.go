package entstore_test

import (
	"fmt"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/media/mediatest"
)

// The record of uploads meets the media contract on every database, with an image
// shown by a note, as an avatar and by a shop.
func TestUploadsContract(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		mediatest.UploadsContract(t, func(t *testing.T) mediatest.UploadStore {
			s := open(t)
			c := s.Client()
			return mediatest.UploadStore{Uploads: entstore.NewUploads(s), Uses: map[string]func(*testing.T, string){
				"a note's image": func(t *testing.T, url string) {
					if err := c.Blog.Create().SetShopID(1).SetUserID(1).SetTitle("t").
						SetImages("https://elsewhere.example/a.jpg," + url).Exec(t.Context()); err != nil {
						t.Fatal(err)
					}
				},
				"an avatar": func(t *testing.T, url string) {
					if err := c.User.Create().SetPhone(fmt.Sprintf("139%08d", contracttest.NewID()%1e8)).SetIcon(url).Exec(t.Context()); err != nil {
						t.Fatal(err)
					}
				},
				"a shop's photo": func(t *testing.T, url string) {
					ty, err := c.ShopType.Create().SetName("t").Save(t.Context())
					if err != nil {
						t.Fatal(err)
					}
					if err := c.Shop.Create().SetName("s").SetTypeID(ty.ID).SetAddress("a").SetLongitude(120.15).SetLatitude(30.27).SetImages(url + ",/imgs/shops/1-2.jpg").
						Exec(t.Context()); err != nil {
						t.Fatal(err)
					}
				},
			}}
		})
	})
}
