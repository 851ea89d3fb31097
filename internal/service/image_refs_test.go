package service_test

import (
	"bytes"
	"net/http"
	"slices"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestImageReferencesMustExist: a note's images and a profile's icon that are paths of
// this site must name an image it serves — an upload or a demo picture; an https URL of
// another site is taken as it is.
func TestImageReferencesMustExist(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "MEDIA_DIR": t.TempDir()})
	user := client(srv)
	user.Token = login(t, client(srv), "13900000411").AccessToken
	_, img, codes := upload(t, srv, user.Token, "photo.png", bytes.NewReader(pngOf(t, 8, 6)))
	if len(codes) > 0 {
		t.Fatalf("upload: %v", codes)
	}
	const profile = `mutation($icon: String) { updateProfile(input: {icon: $icon}) { icon } }`
	const note = `mutation($images: [String!]!) { createBlog(input: {shopId: "1", title: "t", content: "c", images: $images}) { id images { url } } }`
	for _, missing := range []string{"/media/does-not-exist.png", "/media/0123456789abcdef0123456789abcdef.png", "/imgs/nothing.jpg",
		"/imgs/icons/99.jpg", "/imgs/shops/1-1.png"} {
		wantCode(t, "icon "+missing, user.Do(t, profile, map[string]any{"icon": missing}), "BAD_USER_INPUT")
		wantCode(t, "note image "+missing, user.Do(t, note, map[string]any{"images": []string{img.URL, missing}}), "BAD_USER_INPUT")
	}
	for _, icon := range []string{img.URL, "/imgs/icons/1.jpg", "https://cdn.example.com/me.png", ""} {
		var got struct{ UpdateProfile struct{ Icon string } }
		user.Do(t, profile, map[string]any{"icon": icon}).Decode(t, &got)
		if got.UpdateProfile.Icon != icon {
			t.Errorf("icon %q: stored %q", icon, got.UpdateProfile.Icon)
		}
	}
	var created struct {
		CreateBlog struct {
			ID     string
			Images []shownImage
		}
	}
	images := []string{img.URL, "/imgs/shops/3-2.jpg", "https://cdn.example.com/b.png"}
	user.Do(t, note, map[string]any{"images": images}).Decode(t, &created)
	if !slices.Equal(urlsOf(created.CreateBlog.Images), images) {
		t.Fatalf("note images %v, want %v", created.CreateBlog.Images, images)
	}
	const edit = `mutation($id: ID!, $images: [String!]) { updateBlog(id: $id, input: {images: $images}) { images { url } } }`
	wantCode(t, "a missing image added by an edit",
		user.Do(t, edit, map[string]any{"id": created.CreateBlog.ID, "images": append(images, "/imgs/nothing.jpg")}), "BAD_USER_INPUT")
	var edited struct{ UpdateBlog struct{ Images []shownImage } }
	user.Do(t, edit, map[string]any{"id": created.CreateBlog.ID, "images": images[:2]}).Decode(t, &edited)
	if !slices.Equal(urlsOf(edited.UpdateBlog.Images), images[:2]) {
		t.Errorf("edited images %v", edited.UpdateBlog.Images)
	}
}

// TestDeleteImage: a user deletes an image they uploaded once nothing shows it; until
// then it is CONFLICT. Someone else may not; a deleted image is no longer served, nor
// accepted in a note.
func TestDeleteImage(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "MEDIA_DIR": t.TempDir()})
	anon := client(srv)
	owner, other := client(srv), client(srv)
	owner.Token = login(t, anon, "13900000421").AccessToken
	other.Token = login(t, anon, "13900000422").AccessToken
	_, img, codes := upload(t, srv, owner.Token, "photo.png", bytes.NewReader(pngOf(t, 8, 6)))
	if len(codes) > 0 {
		t.Fatalf("upload: %v", codes)
	}
	const del = `mutation($url: String!) { deleteImage(url: $url) }`
	vars := map[string]any{"url": img.URL}
	var n struct{ CreateBlog struct{ ID string } }
	owner.Do(t, `mutation($images: [String!]!) { createBlog(input: {shopId: "1", title: "t", content: "c", images: $images}) { id } }`,
		map[string]any{"images": []string{img.URL}}).Decode(t, &n)
	owner.Do(t, `mutation($icon: String) { updateProfile(input: {icon: $icon}) { icon } }`, map[string]any{"icon": img.URL}).
		Decode(t, &struct{}{})

	wantCode(t, "anonymous", anon.Do(t, del, vars), "UNAUTHENTICATED")
	wantCode(t, "someone else's image", other.Do(t, del, vars), "FORBIDDEN")
	wantCode(t, "shown by a note and the profile", owner.Do(t, del, vars), "CONFLICT")
	owner.Do(t, `mutation($id: ID!) { deleteBlog(id: $id) }`, map[string]any{"id": n.CreateBlog.ID}).Decode(t, &struct{}{})
	wantCode(t, "shown by the profile", owner.Do(t, del, vars), "CONFLICT")
	owner.Do(t, `mutation { updateProfile(input: {icon: ""}) { icon } }`, nil).Decode(t, &struct{}{})
	if get(t, srv.URL+img.URL) != http.StatusOK {
		t.Fatal("the image is not served before it is deleted")
	}

	var out struct{ DeleteImage bool }
	owner.Do(t, del, vars).Decode(t, &out)
	if !out.DeleteImage {
		t.Fatal("deleteImage of an unused upload: false")
	}
	if code := get(t, srv.URL+img.URL); code != http.StatusNotFound {
		t.Errorf("GET a deleted image: %d", code)
	}
	owner.Do(t, del, vars).Decode(t, &out)
	if out.DeleteImage {
		t.Error("deleteImage twice: true")
	}
	wantCode(t, "a note showing a deleted image", owner.Do(t, `mutation($images: [String!]!) {
		createBlog(input: {shopId: "1", title: "t", content: "c", images: $images}) { id } }`, map[string]any{"images": []string{img.URL}}),
		"BAD_USER_INPUT")
	for _, url := range []string{"/imgs/shops/1-1.jpg", "https://cdn.example.com/b.png"} {
		owner.Do(t, del, map[string]any{"url": url}).Decode(t, &out)
		if out.DeleteImage {
			t.Errorf("deleteImage(%s), no upload: true", url)
		}
	}
	if get(t, srv.URL+"/imgs/shops/1-1.jpg") != http.StatusOK {
		t.Error("a demo picture went")
	}
}

// get returns the status of a GET of url.
func get(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// TestShopPhotosMustExist: a shop's photos that are paths of this site must serve an
// image, when the shop is created and when it is edited, on SQLite and on PostgreSQL.
func TestShopPhotosMustExist(t *testing.T) {
	t.Parallel()
	for name, db := range map[string]func(t *testing.T) string{
		"sqlite":   func(*testing.T) string { return "" },
		"postgres": func(t *testing.T) string { return testsupport.PostgresURL(t) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			const adminPhone = "13900000421"
			env := map[string]string{"JWT_SECRET": testSecret, "MEDIA_DIR": t.TempDir(), "ADMIN_PHONES": adminPhone}
			if url := db(t); url != "" {
				env["DATABASE_URL"] = url
			}
			srv := startServer(t, env)
			admin := client(srv)
			admin.Token = login(t, client(srv), adminPhone).AccessToken
			shop := func(images string) map[string]any {
				return map[string]any{"in": map[string]any{"name": "照片店", "typeId": "1", "address": "西湖区",
					"longitude": 120.15, "latitude": 30.28, "images": images}}
			}
			wantCode(t, "a new shop with a missing photo", admin.Do(t, createShop, shop("/imgs/shops/1-1.jpg,/imgs/nothing.jpg")), "BAD_USER_INPUT")
			var created struct{ CreateShop struct{ ID string } }
			admin.Do(t, createShop, shop("/imgs/shops/1-1.jpg,https://cdn.example.com/front.jpg")).Decode(t, &created)
			const edit = `mutation($id: ID!, $images: String) { updateShop(input: {id: $id, images: $images}) { images { url } } }`
			wantCode(t, "an edit adding a missing photo",
				admin.Do(t, edit, map[string]any{"id": created.CreateShop.ID, "images": "/imgs/shops/1-1.jpg,/media/none.png"}), "BAD_USER_INPUT")
			var edited struct{ UpdateShop struct{ Images []shownImage } }
			admin.Do(t, edit, map[string]any{"id": created.CreateShop.ID, "images": "/imgs/shops/2-1.jpg"}).Decode(t, &edited)
			if !slices.Equal(urlsOf(edited.UpdateShop.Images), []string{"/imgs/shops/2-1.jpg"}) {
				t.Fatalf("edited photos %v", edited.UpdateShop.Images)
			}
		})
	}
}
