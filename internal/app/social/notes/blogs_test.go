package notes

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

func TestBlogInputIsChecked(t *testing.T) {
	t.Parallel()
	ok := BlogInput{ShopID: 1, Title: "  探店  ", Content: " 好吃 ", Images: []string{" /media/a.jpg ", "https://x/b.png"}}
	b, err := validBlog(ok)
	if err != nil {
		t.Fatal(err)
	}
	if b.Title != "探店" || b.Content != "好吃" || !slices.Equal(b.Images, []string{"/media/a.jpg", "https://x/b.png"}) {
		t.Fatalf("normalised to %+v", b)
	}
	bad := map[string]func(in *BlogInput){
		"no shop":                 func(in *BlogInput) { in.ShopID = 0 },
		"blank title":             func(in *BlogInput) { in.Title = " \t" },
		"long title":              func(in *BlogInput) { in.Title = strings.Repeat("店", maxTitleRunes+1) },
		"title too long in bytes": func(in *BlogInput) { in.Title = strings.Repeat("🍷", 70) },
		"blank content":           func(in *BlogInput) { in.Content = "" },
		"long content":            func(in *BlogInput) { in.Content = strings.Repeat("a", maxContentRunes+1) },
		"too many images":         func(in *BlogInput) { in.Images = slices.Repeat([]string{"/a.jpg"}, maxImages+1) },
		"empty image":             func(in *BlogInput) { in.Images = []string{""} },
		"comma in an image":       func(in *BlogInput) { in.Images = []string{"/a.jpg,/b.jpg"} },
		"long image":              func(in *BlogInput) { in.Images = []string{strings.Repeat("a", maxImageRunes+1)} },
		"images too long":         func(in *BlogInput) { in.Images = slices.Repeat([]string{strings.Repeat("a", 250)}, 9) },
		"javascript: image":       func(in *BlogInput) { in.Images = []string{"javascript:alert(1)"} },
		"data: image":             func(in *BlogInput) { in.Images = []string{"data:text/html,x"} },
		"markup in an image":      func(in *BlogInput) { in.Images = []string{`https://x/a.jpg"><script>`} },
		"image on another site":   func(in *BlogInput) { in.Images = []string{"//evil/x.jpg"} },
		"relative image":          func(in *BlogInput) { in.Images = []string{"a.jpg"} },
		"plain http image":        func(in *BlogInput) { in.Images = []string{"http://x/b.png"} },
		"path outside our images": func(in *BlogInput) { in.Images = []string{"/graphql"} },
	}
	for name, change := range bad {
		in := ok
		change(&in)
		if _, err := validBlog(in); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("%s: err = %v, want BAD_USER_INPUT", name, err)
		}
	}
}

type knownImages map[string]bool

func (k knownImages) Exists(_ context.Context, path string) (bool, error) {
	if path == "/media/broken.png" {
		return false, errors.New("store down")
	}
	return k[path], nil
}

func TestImagesOfThisSiteMustExist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	known := knownImages{"/imgs/shops/1-1.jpg": true}
	if err := CheckImagesExist(ctx, known, "images", []string{"/imgs/shops/1-1.jpg", "https://cdn.example.com/a.png"}); err != nil {
		t.Errorf("a demo picture and another site's URL: %v", err)
	}
	err := CheckImagesExist(ctx, known, "images", []string{"/imgs/shops/1-1.jpg", "/imgs/nothing.jpg"})
	var de *domain.Error
	if !errors.Is(err, domain.ErrBadInput) || !errors.As(err, &de) || !strings.Contains(de.Message, "/imgs/nothing.jpg") {
		t.Errorf("a missing image: %v", err)
	}
	if err := CheckImagesExist(ctx, known, "images", []string{"/media/broken.png"}); err == nil || errors.Is(err, domain.ErrBadInput) {
		t.Errorf("a failing look-up: %v, want an internal error", err)
	}
	if err := CheckImagesExist(ctx, nil, "images", []string{"/imgs/nothing.jpg"}); err != nil {
		t.Errorf("nothing to check with: %v", err)
	}
}
