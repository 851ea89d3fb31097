package service_test

import (
	"bytes"
	"image"
	_ "image/jpeg" // decode the served demo photos
	_ "image/png"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestEveryDemoImageIsServed: every image path the demo data refers to — each seeded
// shop's photos, each shop type's icon, each demo user's avatar, as the API gives them —
// is served by the server as a real image; a shop's photos of the size and type the API
// tells.
func TestEveryDemoImageIsServed(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	c := client(srv)
	var paths []string
	told := map[string]shownImage{}
	var types struct{ ShopTypes []struct{ Icon string } }
	c.Do(t, `{ shopTypes { icon } }`, nil).Decode(t, &types)
	for _, ty := range types.ShopTypes {
		paths = append(paths, ty.Icon)
	}
	shops := 0
	for after := ""; ; {
		var page struct {
			Shops struct {
				Edges    []struct{ Node struct{ Images []shownImage } }
				PageInfo struct {
					HasNextPage bool
					EndCursor   string
				}
			}
		}
		vars := map[string]any{}
		if after != "" {
			vars["after"] = after
		}
		c.Do(t, `query($after: String) { shops(first: 50, after: $after) { edges { node { images { url width height contentType } } } pageInfo { hasNextPage endCursor } } }`, vars).Decode(t, &page)
		for _, e := range page.Shops.Edges {
			shops++
			for _, img := range e.Node.Images {
				paths = append(paths, img.URL)
				told[img.URL] = img
			}
		}
		if !page.Shops.PageInfo.HasNextPage {
			break
		}
		after = page.Shops.PageInfo.EndCursor
	}
	users := 0
	for id := 1; id <= 5; id++ {
		var u struct{ User *struct{ Icon string } }
		c.Do(t, `query($id: ID!) { user(id: $id) { icon } }`, map[string]any{"id": strconv.Itoa(id)}).Decode(t, &u)
		if u.User != nil && u.User.Icon != "" {
			users++
			paths = append(paths, u.User.Icon)
		}
	}
	if len(types.ShopTypes) < 5 || shops < 20 || users != 5 || len(paths) < 2*shops {
		t.Fatalf("the demo data: %d types, %d shops, %d users with icons, %d image paths", len(types.ShopTypes), shops, users, len(paths))
	}
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") {
			t.Errorf("%q: not a path of this site", p)
			continue
		}
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		ct := resp.Header.Get("Content-Type")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "image/") {
			t.Errorf("GET %s: %d %s", p, resp.StatusCode, ct)
			continue
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
		if err != nil || "image/"+format != ct {
			t.Errorf("GET %s: %s, %d bytes that are not one (%s, %v)", p, ct, len(body), format, err)
			continue
		}
		if img, ok := told[p]; ok && (img.Width == nil || img.Height == nil || img.ContentType == nil ||
			*img.Width != cfg.Width || *img.Height != cfg.Height || *img.ContentType != ct) {
			t.Errorf("%s is served %d×%d %s; the API tells %v×%v %v", p, cfg.Width, cfg.Height, ct, shown(img.Width), shown(img.Height), shown(img.ContentType))
		}
	}
}
