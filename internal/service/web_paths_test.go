package service_test

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestFaviconAtTheSiteRoot: browsers ask for /favicon.ico; the server answers with the
// icon, and the app's page links to it.
func TestFaviconAtTheSiteRoot(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	resp, err := http.Get(srv.URL + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/x-icon" || len(body) < 22 {
		t.Fatalf("GET /favicon.ico: %d %s, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
	resp, err = http.Get(srv.URL + "/app/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if !strings.Contains(string(page), `<link rel="icon" href="/favicon.ico">`) {
		t.Errorf("the app's page does not link the favicon:\n%s", page)
	}
	resp, err = http.Get(srv.URL + "/app/assets/x.js")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /app/assets/x.js (no such asset): %d, want 404", resp.StatusCode)
	}
}

// TestShopImagesAreAList: Shop.images is the same type as Blog.images, a list
// of images; the comma-separated string of paths it was stays readable as the
// deprecated imagesText, and the list of paths Blog.images was as the deprecated
// Blog.imageUrls.
func TestShopImagesAreAList(t *testing.T) {
	t.Parallel()
	c := client(startServer(t, nil))
	var got struct {
		Shop struct {
			Images     []shownImage
			ImagesText string
		}
		Schema struct {
			Types []struct {
				Name   string
				Fields []struct {
					Name              string
					IsDeprecated      bool
					DeprecationReason *string
					Type              any
				}
			}
		} `json:"__schema"`
	}
	c.Do(t, `{ shop(id: "1") { images { url width height contentType } imagesText }
		__schema { types { name fields(includeDeprecated: true) { name isDeprecated deprecationReason
			type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`, nil).Decode(t, &got)
	if want := []string{"/imgs/shops/1-1.jpg", "/imgs/shops/1-2.jpg"}; !slices.Equal(urlsOf(got.Shop.Images), want) ||
		got.Shop.ImagesText != strings.Join(want, ",") {
		t.Errorf("shop 1: images %+v, imagesText %q", got.Shop.Images, got.Shop.ImagesText)
	}
	types := map[string]any{}
	for _, ty := range got.Schema.Types {
		for _, f := range ty.Fields {
			types[ty.Name+"."+f.Name] = f.Type
			if ((ty.Name == "Shop" && f.Name == "imagesText") || (ty.Name == "Blog" && f.Name == "imageUrls")) && (!f.IsDeprecated || f.DeprecationReason == nil) {
				t.Errorf("%s.%s is not deprecated", ty.Name, f.Name)
			}
		}
	}
	if shop, blog := fmt.Sprint(types["Shop.images"]), fmt.Sprint(types["Blog.images"]); shop != blog || !strings.Contains(shop, "Image") {
		t.Errorf("Shop.images is %s, Blog.images %s; want both lists of Image", shop, blog)
	}
	if types["Blog.imageUrls"] == nil {
		t.Error("Blog.imageUrls is gone")
	}
}
