package media_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/app/media/mediatest"
	"github.com/dealspot/dealspot/internal/domain"
)

// countedUploads counts the reads of uploads by url and what they asked for.
type countedUploads struct {
	*mediatest.MemUploads
	reads [][]string
}

func (c *countedUploads) UploadsAt(ctx context.Context, urls []string) (map[string]domain.Upload, error) {
	c.reads = append(c.reads, slices.Clone(urls))
	return c.MemUploads.UploadsAt(ctx, urls)
}

// TestDescribeImages: images are described in the order asked, each upload with the size
// and type recorded when it was uploaded and each demo picture with its own, by one read
// of the uploads for all of them; an https URL of another site, and a path that serves
// no known image, have their URL only.
func TestDescribeImages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	a, err := e.handle(user, encodePNG(t, 30, 20))
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.handle(other, encodePNG(t, 3, 5))
	if err != nil {
		t.Fatal(err)
	}
	counted := &countedUploads{MemUploads: e.uploads}
	images, err := media.NewImages(media.ImagesDeps{Store: e.store, Uploads: counted, Shipped: shipped{demoPicture.URL: demoPicture}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const elsewhere, unknown = "https://cdn.example.com/a.png", "/media/0123456789abcdef0123456789abcdef.png"
	got, err := images.Describe(ctx, []string{a.URL, demoPicture.URL, elsewhere, b.URL, unknown, a.URL})
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Image{
		{URL: a.URL, Width: 30, Height: 20, ContentType: "image/png"}, demoPicture, {URL: elsewhere},
		{URL: b.URL, Width: 3, Height: 5, ContentType: "image/png"}, {URL: unknown}, {URL: a.URL, Width: 30, Height: 20, ContentType: "image/png"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Describe = %+v\nwant %+v", got, want)
	}
	if len(counted.reads) != 1 || len(counted.reads[0]) != 3 {
		t.Errorf("uploads read %v; want once, for the 3 paths that are no demo picture", counted.reads)
	}

	counted.reads = nil
	got, err = images.Describe(ctx, []string{demoPicture.URL, elsewhere})
	if err != nil || !slices.Equal(got, []domain.Image{demoPicture, {URL: elsewhere}}) || len(counted.reads) != 0 {
		t.Errorf("Describe of a demo picture and another site's image = %+v, %v, %d reads; want no read", got, err, len(counted.reads))
	}
	if got, err := images.Describe(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("Describe(nil) = %v, %v", got, err)
	}

	down := errors.New("database down")
	broken, err := media.NewImages(media.ImagesDeps{Store: e.store, Uploads: failingUploads{down}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := broken.Describe(ctx, []string{a.URL}); !errors.Is(err, down) {
		t.Errorf("Describe with the uploads down: %v", err)
	}
	if got, err := broken.Describe(ctx, []string{elsewhere}); err != nil || !slices.Equal(got, []domain.Image{{URL: elsewhere}}) {
		t.Errorf("Describe of another site's image with the uploads down = %+v, %v; want its URL, without a read", got, err)
	}
}
