package service_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// shownImage is an Image as a client reads it: sizes and type are null for an image
// of another site.
type shownImage struct {
	URL           string
	Width, Height *int
	ContentType   *string
}

// urlsOf are the urls of imgs, in order.
func urlsOf(imgs []shownImage) []string {
	out := make([]string, len(imgs))
	for i, img := range imgs {
		out[i] = img.URL
	}
	return out
}

// wantImages checks that got shows, in order, an upload of 8×6 pixels at uploadURL, the
// shop photo /imgs/shops/<demo> as drawn (480×320 JPEG) and an https URL without size
// or type.
func wantImages(t *testing.T, what string, got []shownImage, uploadURL, demo, https string) {
	t.Helper()
	type want struct {
		url   string
		w, h  int
		ctype string
		sized bool
	}
	wants := []want{
		{url: uploadURL, w: 8, h: 6, ctype: "image/png", sized: true},
		{url: "/imgs/shops/" + demo, w: 480, h: 320, ctype: "image/jpeg", sized: true},
		{url: https},
	}
	if len(got) != len(wants) {
		t.Fatalf("%s: %d images %+v, want %d", what, len(got), got, len(wants))
	}
	for i, w := range wants {
		g := got[i]
		if g.URL != w.url {
			t.Errorf("%s: image %d at %q, want %q", what, i, g.URL, w.url)
		}
		if !w.sized {
			if g.Width != nil || g.Height != nil || g.ContentType != nil {
				t.Errorf("%s: %s of another site has width %v, height %v, type %v; want nulls", what, g.URL, g.Width, g.Height, g.ContentType)
			}
			continue
		}
		if g.Width == nil || g.Height == nil || g.ContentType == nil || *g.Width != w.w || *g.Height != w.h || *g.ContentType != w.ctype {
			t.Errorf("%s: %s is %v×%v %v; want %d×%d %s", what, g.URL, shown(g.Width), shown(g.Height), shown(g.ContentType), w.w, w.h, w.ctype)
		}
	}
}

func shown[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestImagesTellTheirSize: a note's and a shop's images answer each image's url with
// its size and type — an upload's as recorded when it was uploaded, a demo picture's as
// it is drawn — and nulls for an https URL of another site, whose file the server never
// reads; the old string forms (Blog.imageUrls, Shop.imagesText) still answer the paths.
// On SQLite and on PostgreSQL.
func TestImagesTellTheirSize(t *testing.T) {
	t.Parallel()
	for name, db := range map[string]func(t *testing.T) string{
		"sqlite":   func(*testing.T) string { return "" },
		"postgres": func(t *testing.T) string { return testsupport.PostgresURL(t) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			const adminPhone = "13900000431"
			env := map[string]string{"JWT_SECRET": testSecret, "MEDIA_DIR": t.TempDir(), "ADMIN_PHONES": adminPhone}
			if url := db(t); url != "" {
				env["DATABASE_URL"] = url
			}
			srv := startServer(t, env)
			admin := client(srv)
			admin.Token = login(t, client(srv), adminPhone).AccessToken
			_, img, codes := upload(t, srv, admin.Token, "photo.png", bytes.NewReader(pngOf(t, 8, 6)))
			if len(codes) > 0 {
				t.Fatalf("upload: %v", codes)
			}
			const fields = `images { url width height contentType }`

			paths := []string{img.URL, "/imgs/shops/3-2.jpg", "https://cdn.example.com/b.png"}
			type note struct {
				ID        string
				Images    []shownImage
				ImageUrls []string
			}
			var created struct{ CreateBlog note }
			admin.Do(t, `mutation($images: [String!]!) { createBlog(input: {shopId: "1", title: "t", content: "c", images: $images}) { id `+
				fields+` imageUrls } }`, map[string]any{"images": paths}).Decode(t, &created)
			wantImages(t, "createBlog", created.CreateBlog.Images, img.URL, "3-2.jpg", paths[2])
			if !slices.Equal(created.CreateBlog.ImageUrls, paths) {
				t.Errorf("createBlog: imageUrls %q, want %q", created.CreateBlog.ImageUrls, paths)
			}
			var read struct{ Blog note }
			admin.Do(t, `query($id: ID!) { blog(id: $id) { `+fields+` imageUrls } }`,
				map[string]any{"id": created.CreateBlog.ID}).Decode(t, &read)
			wantImages(t, "blog", read.Blog.Images, img.URL, "3-2.jpg", paths[2])
			if !slices.Equal(read.Blog.ImageUrls, paths) {
				t.Errorf("blog: imageUrls %q, want %q", read.Blog.ImageUrls, paths)
			}

			var shop struct {
				CreateShop struct {
					ID     string
					Images []shownImage
				}
			}
			photos := []string{img.URL, "/imgs/shops/1-1.jpg", "https://cdn.example.com/front.jpg"}
			admin.Do(t, `mutation($in: CreateShopInput!) { createShop(input: $in) { id `+fields+` } }`,
				map[string]any{"in": map[string]any{"name": "照片店", "typeId": "1", "address": "西湖区",
					"longitude": 120.15, "latitude": 30.28, "images": strings.Join(photos, ",")}}).Decode(t, &shop)
			wantImages(t, "createShop", shop.CreateShop.Images, img.URL, "1-1.jpg", photos[2])
			var got struct {
				Shop struct {
					Images     []shownImage
					ImagesText string
					Blogs      struct{ Edges []struct{ Node note } }
				}
			}
			admin.Do(t, `query($id: ID!) { shop(id: $id) { `+fields+` imagesText } }`,
				map[string]any{"id": shop.CreateShop.ID}).Decode(t, &got)
			wantImages(t, "shop", got.Shop.Images, img.URL, "1-1.jpg", photos[2])
			if got.Shop.ImagesText != strings.Join(photos, ",") {
				t.Errorf("shop: imagesText %q", got.Shop.ImagesText)
			}
			// The note among its shop's notes, read in a list.
			admin.Do(t, `{ shop(id: "1") { blogs(first: 5) { edges { node { id `+fields+` imageUrls } } } } }`, nil).Decode(t, &got)
			found := false
			for _, e := range got.Shop.Blogs.Edges {
				if e.Node.ID == created.CreateBlog.ID {
					found = true
					wantImages(t, "shop's notes", e.Node.Images, img.URL, "3-2.jpg", paths[2])
				}
			}
			if !found {
				t.Errorf("the note is not among its shop's newest notes")
			}
		})
	}
}
