package media_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/webp"

	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/app/media/mediatest"
	"github.com/dealspot/dealspot/internal/domain"
)

var (
	user  = domain.Actor{UserID: 7, Role: domain.RoleUser}
	other = domain.Actor{UserID: 8, Role: domain.RoleUser}
)

// defaults are the configuration's defaults.
var defaults = media.Config{MaxBytes: 10 << 20, MaxSide: 8192, MaxPixels: 40_000_000, DecodeBudget: 256 << 20,
	RatePerUser: 20, RateWindow: time.Hour}

type env struct {
	upload  *media.Upload
	store   *memStore
	uploads *mediatest.MemUploads
	limiter *limiter
}

func newEnv(t *testing.T, configure func(*media.Config)) *env {
	t.Helper()
	cfg := defaults
	if configure != nil {
		configure(&cfg)
	}
	e := &env{store: &memStore{}, uploads: &mediatest.MemUploads{}, limiter: newLimiter()}
	u, err := media.New(cfg, media.Deps{Store: e.store, Uploads: e.uploads, Limiter: e.limiter})
	if err != nil {
		t.Fatal(err)
	}
	e.upload = u
	return e
}

func (e *env) handle(a domain.Actor, data []byte) (domain.Image, error) {
	return e.upload.Handle(context.Background(), a, bytes.NewReader(data), int64(len(data)))
}

// refused fails unless err is a coded error of code whose message contains msg.
func refused(t *testing.T, err error, code domain.Code, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted; want %s %q", code, msg)
	}
	var de *domain.Error
	if got := domain.ErrorCode(err); got != code || !errors.As(err, &de) || !strings.Contains(de.Message, msg) {
		t.Fatalf("error %v (code %s); want %s with %q", err, got, code, msg)
	}
}

var storedName = regexp.MustCompile(`^[0-9a-f]{32}\.(jpg|png|gif|webp)$`)

func TestPNGRoundTrips(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	src := encodePNG(t, 30, 20)
	img, err := e.handle(user, src)
	if err != nil {
		t.Fatal(err)
	}
	name, file := e.store.last(t)
	if img.Width != 30 || img.Height != 20 || img.ContentType != "image/png" || img.URL != "/media/"+name {
		t.Fatalf("image %+v, stored as %q", img, name)
	}
	if !storedName.MatchString(name) || !strings.HasSuffix(name, ".png") || file.contentType != "image/png" {
		t.Fatalf("stored as %q (%s)", name, file.contentType)
	}
	got, err := png.Decode(bytes.NewReader(file.data))
	if err != nil {
		t.Fatalf("stored bytes do not decode: %v", err)
	}
	want := gradient(30, 20)
	for _, p := range []image.Point{{0, 0}, {29, 19}, {13, 7}} {
		if color.NRGBAModel.Convert(got.At(p.X, p.Y)) != want.At(p.X, p.Y) {
			t.Fatalf("pixel %v is %v, want %v", p, got.At(p.X, p.Y), want.At(p.X, p.Y))
		}
	}
	again, err := e.handle(user, src)
	if err != nil {
		t.Fatal(err)
	}
	if again.URL == img.URL {
		t.Fatalf("the same upload twice got the same URL %s", img.URL)
	}
}

func TestPNGTextChunksAreNotStored(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	src := encodePNG(t, 8, 8)
	// A tEXt chunk after IHDR (8-byte signature, 25-byte IHDR chunk).
	withText := append(append(append([]byte(nil), src[:33]...), pngChunk("tEXt", []byte("Comment\x00home address 12 Rue X"))...), src[33:]...)
	if _, err := e.handle(user, withText); err != nil {
		t.Fatal(err)
	}
	if _, file := e.store.last(t); bytes.Contains(file.data, []byte("home address")) || bytes.Contains(file.data, []byte("tEXt")) {
		t.Fatal("the text chunk was stored")
	}
}

func TestRefusesWhatIsNotAnImage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	exe := append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff"), make([]byte, 512)...)
	for name, data := range map[string][]byte{
		"a Windows program (photo.png.exe renamed photo.png)": exe,
		"empty":           nil,
		"plain text":      []byte("hello, this is a text file"),
		"an SVG document": []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`),
		"an HTML page":    []byte("<!doctype html><html><body>hi</body></html>"),
		"a PDF":           []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"),
		"a bare JPEG SOI": {0xFF, 0xD8},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.handle(user, data)
			refused(t, err, domain.CodeBadUserInput, "not an image: only JPEG, PNG, WebP and GIF are accepted")
		})
	}
	if n := e.store.count(); n != 0 {
		t.Fatalf("%d files stored", n)
	}
}

func TestRefusesDamagedImages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	p, j, g := encodePNG(t, 40, 40), encodeJPEG(t, 40, 40), encodeGIF(t, 10, 10)
	// Whole chunks, but a byte of the image data flipped: only decoding notices.
	corrupt := append([]byte(nil), p...)
	corrupt[bytes.Index(corrupt, []byte("IDAT"))+10] ^= 0xFF
	for name, data := range map[string][]byte{
		"PNG with corrupt data":  corrupt,
		"PNG cut short":          p[:len(p)/2],
		"PNG without IEND":       p[:len(p)-12],
		"JPEG cut short":         j[:len(j)/2],
		"JPEG without EOI":       j[:len(j)-2],
		"GIF without trailer":    g[:len(g)-1],
		"WebP container cut":     webpFile(riffChunk("VP8L", vp8l(4, 4, color.NRGBA{A: 255})))[:20],
		"WebP bitstream garbage": webpFile(riffChunk("VP8L", []byte("\x2fgarbage-not-a-bitstream"))),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.handle(user, data)
			refused(t, err, domain.CodeBadUserInput, "damaged or incomplete")
		})
	}
}

func TestRefusesDataAfterTheImage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tail := []byte("\n=1;alert(document.cookie)//")
	for name, data := range map[string][]byte{
		"PNG after IEND":       append(encodePNG(t, 4, 4), tail...),
		"GIF after trailer":    append(encodeGIF(t, 4, 4), tail...),
		"WebP after the RIFF":  append(webpFile(riffChunk("VP8L", vp8l(2, 2, color.NRGBA{R: 9, A: 255}))), tail...),
		"one byte after a PNG": append(encodePNG(t, 4, 4), 0),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.handle(user, data)
			refused(t, err, domain.CodeBadUserInput, "data after the end of the image")
		})
	}
}

// TestJPEGTailIsDropped: data phones append to a JPEG after its end (motion photos, HDR
// gain maps) is not refused but left out of the stored, re-encoded copy; so is an SVG in
// a GIF's comment.
func TestJPEGTailIsDropped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tail := []byte("\n=1;alert(document.cookie)//")
	for name, c := range map[string]struct {
		data   []byte
		absent string
	}{
		"script after a JPEG's EOI": {append(encodeJPEG(t, 8, 8), tail...), "alert"},
		"a second JPEG glued":       {append(encodeJPEG(t, 8, 8), encodeJPEG(t, 16, 16)...), ""},
		"SVG in a GIF comment":      {withGIFComment(encodeGIF(t, 8, 8), "<svg onload=alert(1)>"), "svg"},
	} {
		t.Run(name, func(t *testing.T) {
			img, err := e.handle(user, c.data)
			if err != nil {
				t.Fatal(err)
			}
			_, f := e.store.last(t)
			if img.Width != 8 || (c.absent != "" && bytes.Contains(f.data, []byte(c.absent))) {
				t.Errorf("stored %d×%d, %d bytes; %q must not be in it", img.Width, img.Height, len(f.data), c.absent)
			}
		})
	}
}

func TestRefusesScriptInGIF(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	g := encodeGIF(t, 8, 8)
	const markup, after = "it contains markup or script", "data after the end of the image"
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"script in a comment":            {withGIFComment(g, "<script>alert(1)</script>"), markup},
		"upper-case script in a comment": {withGIFComment(g, "<SCRIPT src=//evil.example/x.js></SCRIPT>"), markup},
		"javascript: URL in a comment":   {withGIFComment(g, "JavaScript:alert(1)"), markup},
		"HTML page in a comment":         {withGIFComment(g, "<HtMl><body onload=alert(1)>"), markup},
		"polyglot: script after trailer": {append(append([]byte(nil), g...), "<script>alert(1)</script>"...), markup},
		// GIF89a/*<image>*/=1;alert(1); runs as JavaScript, and has no markup.
		"polyglot: JS around the image": {append([]byte("GIF89a/*"), append(g[8:], "*/=1;alert(1);"...)...), after},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.handle(user, c.data)
			refused(t, err, domain.CodeBadUserInput, c.want)
		})
	}
	if n := e.store.count(); n != 0 {
		t.Fatalf("%d files stored", n)
	}
}

func TestGIFIsStoredWithoutComments(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	img, err := e.handle(user, withGIFComment(encodeGIF(t, 12, 9), "shot at 48.8584N 2.2945E"))
	if err != nil {
		t.Fatal(err)
	}
	name, file := e.store.last(t)
	if img.Width != 12 || img.Height != 9 || img.ContentType != "image/gif" || !strings.HasSuffix(name, ".gif") {
		t.Fatalf("image %+v as %s", img, name)
	}
	if bytes.Contains(file.data, []byte("48.8584")) {
		t.Fatal("the comment was stored")
	}
	g, err := gif.DecodeAll(bytes.NewReader(file.data))
	if err != nil || len(g.Image) != 2 {
		t.Fatalf("stored GIF: %v, %d frames", err, len(g.Image))
	}
}

func TestRefusesAnUploadOverMaxBytesWithoutReadingIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	const fifty = 50 << 20
	// Undeclared size: read up to one byte past the limit, no further.
	r := &countingReader{prefix: []byte("\x89PNG\r\n\x1a\n"), n: fifty}
	_, err := e.upload.Handle(context.Background(), user, r, -1)
	refused(t, err, domain.CodeBadUserInput, "image too large: at most 10485760 bytes")
	if r.read > defaults.MaxBytes+1 {
		t.Fatalf("read %d bytes of a 50 MB upload, limit %d", r.read, defaults.MaxBytes)
	}
	// Declared too large: refused before reading anything.
	r = &countingReader{n: fifty}
	_, err = e.upload.Handle(context.Background(), user, r, fifty)
	refused(t, err, domain.CodeBadUserInput, "image too large: at most 10485760 bytes")
	if r.read != 0 {
		t.Fatalf("read %d bytes of an upload declared too large", r.read)
	}
	// A declared size that lies low changes nothing.
	r = &countingReader{n: fifty}
	_, err = e.upload.Handle(context.Background(), user, r, 100)
	refused(t, err, domain.CodeBadUserInput, "image too large")
	if r.read > defaults.MaxBytes+1 {
		t.Fatalf("read %d bytes trusting a declared size", r.read)
	}
}

// TestRefusesDecompressionBomb is not parallel: it measures what the refusal allocates.
func TestRefusesDecompressionBomb(t *testing.T) {
	e := newEnv(t, nil)
	bomb := pngBomb(t, 100_000, 100_000)
	if len(bomb) > 200 {
		t.Fatalf("the bomb is %d bytes, want a tiny file", len(bomb))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := e.handle(user, bomb)
	runtime.ReadMemStats(&after)
	refused(t, err, domain.CodeBadUserInput, "image too large: at most 8192x8192 pixels")
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Fatalf("refusing the bomb allocated %d bytes", n)
	}

	// Within each side but over the pixel budget.
	e = newEnv(t, func(c *media.Config) { c.MaxPixels = 1000 })
	_, err = e.handle(user, pngBomb(t, 50, 50))
	refused(t, err, domain.CodeBadUserInput, "image too large: at most 1000 pixels")
	// A GIF whose frames add up to more than the budget.
	e = newEnv(t, func(c *media.Config) { c.MaxPixels = 150 })
	_, err = e.handle(user, encodeGIF(t, 10, 10))
	refused(t, err, domain.CodeBadUserInput, "image too large: at most 150 pixels")
}

func TestJPEGIsStoredWithoutEXIF(t *testing.T) {
	t.Parallel()
	const secret = "GPS 48.8584N 2.2945E, home"
	src := encodeJPEG(t, 16, 8)
	e := newEnv(t, nil)
	exif := append([]byte("Exif\x00\x00"), exifTIFF(secret, 1)...)
	img, err := e.handle(user, withJPEGSegments(src, jpegSegment(0xE1, exif), jpegSegment(0xFE, []byte("comment: "+secret))))
	if err != nil {
		t.Fatal(err)
	}
	name, file := e.store.last(t)
	if img.Width != 16 || img.Height != 8 || img.ContentType != "image/jpeg" || !strings.HasSuffix(name, ".jpg") {
		t.Fatalf("image %+v as %s", img, name)
	}
	for _, leak := range []string{"Exif", "48.8584", "comment"} {
		if bytes.Contains(file.data, []byte(leak)) {
			t.Fatalf("stored JPEG contains %q", leak)
		}
	}
	if _, err := jpeg.Decode(bytes.NewReader(file.data)); err != nil {
		t.Fatalf("stored JPEG does not decode: %v", err)
	}
}

func TestJPEGKeepsOnlyItsOrientation(t *testing.T) {
	t.Parallel()
	const secret = "GPS 48.8584N 2.2945E, home"
	e := newEnv(t, nil)
	exif := append([]byte("Exif\x00\x00"), exifTIFF(secret, 6)...) // turned a quarter clockwise
	img, err := e.handle(user, withJPEGSegments(encodeJPEG(t, 16, 8), jpegSegment(0xE1, exif)))
	if err != nil {
		t.Fatal(err)
	}
	if img.Width != 8 || img.Height != 16 {
		t.Fatalf("displayed size %dx%d, want 8x16 (orientation 6)", img.Width, img.Height)
	}
	_, file := e.store.last(t)
	if bytes.Contains(file.data, []byte("48.8584")) {
		t.Fatal("the GPS description was stored")
	}
	want := jpegSegment(0xE1, []byte("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00\x00\x00\x00\x00"))
	if !bytes.HasPrefix(file.data[2:], want) {
		t.Fatalf("stored JPEG starts % x, want SOI and an APP1 with the orientation alone", file.data[:40])
	}
	if _, err := jpeg.Decode(bytes.NewReader(file.data)); err != nil {
		t.Fatalf("stored JPEG does not decode: %v", err)
	}
	// Stored again, the orientation survives a second time.
	if img, err := e.handle(user, file.data); err != nil || img.Width != 8 {
		t.Fatalf("the stored JPEG uploaded again: %+v %v", img, err)
	}
}

func TestWebPIsStoredWithoutMetadata(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := color.NRGBA{R: 200, G: 100, B: 50, A: 255}
	const flags = 0x20 | 0x10 | 0x08 | 0x04 // ICC, alpha, EXIF, XMP
	src := webpFile(
		riffChunk("VP8X", vp8x(flags, 5, 3)),
		riffChunk("ICCP", []byte("icc profile of the camera")),
		riffChunk("VP8L", vp8l(5, 3, c)),
		riffChunk("EXIF", append([]byte("Exif\x00\x00"), exifTIFF("GPS 48.8584N 2.2945E", 1)...)),
		riffChunk("XMP ", []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/">owner: someone</x:xmpmeta>`)),
		riffChunk("ZZZZ", []byte("unknown chunk")),
	)
	if _, err := webp.Decode(bytes.NewReader(src)); err != nil {
		t.Fatalf("the test image is not a WebP: %v", err)
	}
	img, err := e.handle(user, src)
	if err != nil {
		t.Fatal(err)
	}
	name, file := e.store.last(t)
	if img.Width != 5 || img.Height != 3 || img.ContentType != "image/webp" || !strings.HasSuffix(name, ".webp") {
		t.Fatalf("image %+v as %s", img, name)
	}
	if ids := webpChunkIDs(t, file.data); strings.Join(ids, ",") != "VP8X,VP8L" {
		t.Fatalf("stored chunks %v, want VP8X,VP8L", ids)
	}
	if got := file.data[20]; got != 0x10 {
		t.Fatalf("stored VP8X flags %#x, want alpha only (0x10)", got)
	}
	if size := int(file.data[4]) | int(file.data[5])<<8 | int(file.data[6])<<16 | int(file.data[7])<<24; size != len(file.data)-8 {
		t.Fatalf("RIFF size %d, file %d bytes", size, len(file.data))
	}
	for _, leak := range []string{"48.8584", "someone", "icc profile", "unknown chunk"} {
		if bytes.Contains(file.data, []byte(leak)) {
			t.Fatalf("stored WebP contains %q", leak)
		}
	}
	m, err := webp.Decode(bytes.NewReader(file.data))
	if err != nil {
		t.Fatalf("stored WebP does not decode: %v", err)
	}
	if got := color.NRGBAModel.Convert(m.At(4, 2)); got != c {
		t.Fatalf("stored pixel %v, want %v", got, c)
	}

	// The simple format (one VP8L chunk) is stored as it is.
	simple := webpFile(riffChunk("VP8L", vp8l(2, 7, c)))
	if img, err := e.handle(user, simple); err != nil || img.Width != 2 || img.Height != 7 {
		t.Fatalf("simple WebP: %+v %v", img, err)
	}
	if _, file := e.store.last(t); !bytes.Equal(file.data, simple) {
		t.Fatal("a simple WebP was changed")
	}
}

func TestRefusesAnimatedWebP(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	anim := webpFile(riffChunk("VP8X", vp8x(0x02, 4, 4)), riffChunk("ANIM", make([]byte, 6)), riffChunk("ANMF", make([]byte, 16)))
	_, err := e.handle(user, anim)
	refused(t, err, domain.CodeBadUserInput, "animated WebP")
}

func TestLoggedInUsersOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	r := &countingReader{prefix: encodePNG(t, 4, 4)}
	_, err := e.upload.Handle(context.Background(), domain.Actor{}, r, -1)
	refused(t, err, domain.CodeUnauthenticated, "log in")
	if r.read != 0 || e.store.count() != 0 {
		t.Fatalf("an anonymous upload read %d bytes, stored %d files", r.read, e.store.count())
	}
}

func TestUploadsAreLimitedPerUser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *media.Config) { c.RatePerUser = 2 })
	p := encodePNG(t, 4, 4)
	for i := range 2 {
		if _, err := e.handle(user, p); err != nil {
			t.Fatalf("upload %d: %v", i, err)
		}
	}
	e.limiter.clock.Advance(time.Hour - 90*time.Second) // the window is an hour: the first upload leaves it in 90 s
	_, err := e.handle(user, p)
	refused(t, err, domain.CodeRateLimited, "too many uploads")
	var de *domain.Error
	if !errors.As(err, &de) || de.RetryAfterSeconds != 90 {
		t.Fatalf("retry after %+v, want 90 s", de)
	}
	if !errors.Is(err, domain.ErrRateLimited) {
		t.Fatal("errors.Is(err, domain.ErrRateLimited) is false")
	}
	if _, err := e.handle(other, p); err != nil {
		t.Fatalf("another user was limited: %v", err)
	}
	if n := e.store.count(); n != 3 {
		t.Fatalf("%d files stored, want 3", n)
	}

	e.limiter.fail(errors.New("redis: connection refused"))
	_, err = e.handle(other, p)
	if domain.ErrorCode(err) != domain.CodeInternal || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("limiter failure: %v, want INTERNAL wrapping the cause", err)
	}

	off := newEnv(t, func(c *media.Config) { c.RatePerUser = 0 })
	for i := range 30 {
		if _, err := off.handle(user, p); err != nil {
			t.Fatalf("rate off, upload %d: %v", i, err)
		}
	}
}

func TestStoreFailureIsInternal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	p := encodePNG(t, 4, 4)
	if _, err := e.handle(user, p); err != nil {
		t.Fatal(err)
	}
	fail := failingStore{errors.New("disk full")}
	u, err := media.New(defaults, media.Deps{Store: fail, Uploads: &mediatest.MemUploads{}, Limiter: newLimiter()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = u.Handle(context.Background(), user, bytes.NewReader(p), -1)
	if domain.ErrorCode(err) != domain.CodeInternal || !errors.Is(err, fail.err) {
		t.Fatalf("store failure: %v, want INTERNAL wrapping it", err)
	}
}

type failingStore struct{ err error }

func (s failingStore) Put(context.Context, string, string, []byte) (string, error) { return "", s.err }
func (s failingStore) Has(context.Context, string) (bool, error)                   { return false, s.err }
func (s failingStore) Delete(context.Context, string) (bool, error)                { return false, s.err }

func TestNewRefusesBadSettings(t *testing.T) {
	t.Parallel()
	store := &memStore{}
	for name, c := range map[string]struct {
		cfg  media.Config
		deps media.Deps
	}{
		"no store":              {defaults, media.Deps{Uploads: &mediatest.MemUploads{}, Limiter: newLimiter()}},
		"no uploads":            {defaults, media.Deps{Store: store, Limiter: newLimiter()}},
		"no limiter for a rate": {defaults, media.Deps{Store: store, Uploads: &mediatest.MemUploads{}}},
		"zero bytes":            {media.Config{MaxSide: 1, MaxPixels: 1, DecodeBudget: 1}, media.Deps{Store: store, Uploads: &mediatest.MemUploads{}}},
		"zero side":             {media.Config{MaxBytes: 1, MaxPixels: 1, DecodeBudget: 1}, media.Deps{Store: store, Uploads: &mediatest.MemUploads{}}},
		"zero pixels":           {media.Config{MaxBytes: 1, MaxSide: 1, DecodeBudget: 1}, media.Deps{Store: store, Uploads: &mediatest.MemUploads{}}},
		"zero decode budget":    {media.Config{MaxBytes: 1, MaxSide: 1, MaxPixels: 1}, media.Deps{Store: store, Uploads: &mediatest.MemUploads{}}},
		"rate without window":   {media.Config{MaxBytes: 1, MaxSide: 1, MaxPixels: 1, DecodeBudget: 1, RatePerUser: 3}, media.Deps{Store: store, Uploads: &mediatest.MemUploads{}, Limiter: newLimiter()}},
	} {
		if _, err := media.New(c.cfg, c.deps); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := media.New(media.Config{MaxBytes: 1, MaxSide: 1, MaxPixels: 1, DecodeBudget: 1}, media.Deps{Store: store, Uploads: &mediatest.MemUploads{}}); err != nil {
		t.Errorf("no rate and no limiter: %v", err)
	}
}
