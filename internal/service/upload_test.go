package service_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const uploadMutation = `mutation($f: Upload!) { uploadImage(file: $f) { url width height contentType } }`

type uploaded struct {
	URL, ContentType string
	Width, Height    int
}

// upload posts one file with the GraphQL multipart request spec, as a browser form or
// `curl -F` does, and returns the HTTP status, the image and the errors' codes.
func upload(t *testing.T, srv *httptest.Server, token, filename string, data io.Reader) (int, uploaded, []string) {
	t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		ops, _ := json.Marshal(map[string]any{"query": uploadMutation, "variables": map[string]any{"f": nil}})
		_ = mw.WriteField("operations", string(ops))
		_ = mw.WriteField("map", `{"0": ["variables.f"]}`)
		fw, err := mw.CreateFormFile("0", filename)
		if err == nil {
			_, err = io.Copy(fw, data)
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	body, err := io.ReadAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("GraphQL-Require-Preflight", "1")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			UploadImage *uploaded
		}
		Errors []struct{ Extensions struct{ Code string } }
	}
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("upload %s: HTTP %d, not a GraphQL answer: %.200s", filename, resp.StatusCode, raw)
	}
	var codes []string
	for _, e := range out.Errors {
		codes = append(codes, e.Extensions.Code)
	}
	var img uploaded
	if out.Data.UploadImage != nil {
		img = *out.Data.UploadImage
	}
	return resp.StatusCode, img, codes
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = byte(i * 7)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hugePNG is a tiny file whose header declares a 100000×100000 image: decoding it would
// take 40 GB.
func hugePNG() []byte {
	chunk := func(typ string, data []byte) []byte {
		var b bytes.Buffer
		_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
		return b.Bytes()
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], 100000)
	binary.BigEndian.PutUint32(ihdr[4:], 100000)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, chunk("IHDR", ihdr)...)
	out = append(out, chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})...)
	return append(out, chunk("IEND", nil)...)
}

// TestUploadImageOverHTTP: a PNG sent as a multipart form round-trips and is served
// with its sniffed type, nosniff and long-lived caching, and a note may show it; a
// renamed .exe, a 50 MB file, a huge-dimension PNG and a GIF carrying a script are
// refused with BAD_USER_INPUT; an anonymous upload with UNAUTHENTICATED.
func TestUploadImageOverHTTP(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "MEDIA_DIR": t.TempDir()})
	anon := client(srv)
	user := client(srv)
	user.Token = login(t, anon, "13900000401").AccessToken

	src := pngOf(t, 30, 20)
	status, img, codes := upload(t, srv, user.Token, "photo.jpg", bytes.NewReader(src))
	if status != http.StatusOK || len(codes) > 0 || img.Width != 30 || img.Height != 20 || img.ContentType != "image/png" ||
		!strings.HasPrefix(img.URL, "/media/") || !strings.HasSuffix(img.URL, ".png") {
		t.Fatalf("upload: HTTP %d, %+v, codes %v", status, img, codes)
	}
	resp, err := http.Get(srv.URL + img.URL)
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" ||
		resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(resp.Header.Get("Cache-Control"), "max-age=31536000") {
		t.Fatalf("GET %s: %d %v", img.URL, resp.StatusCode, resp.Header)
	}
	if m, err := png.Decode(bytes.NewReader(served)); err != nil || m.Bounds().Dx() != 30 {
		t.Fatalf("served image does not decode: %v", err)
	}
	var note struct{ CreateBlog struct{ Images []shownImage } }
	user.Do(t, `mutation($in: CreateBlogInput!) { createBlog(input: $in) { images { url width height contentType } } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": "with a photo", "content": "c", "images": []string{img.URL}}}).Decode(t, &note)
	if len(note.CreateBlog.Images) != 1 || note.CreateBlog.Images[0].URL != img.URL || shown(note.CreateBlog.Images[0].Width) != img.Width {
		t.Errorf("note images %v", note.CreateBlog.Images)
	}

	var g bytes.Buffer
	pal := image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White})
	if err := gif.Encode(&g, pal, nil); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		file string
		data io.Reader
	}{
		"a renamed .exe":          {"setup.png", strings.NewReader("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff" + strings.Repeat("\x00", 200))},
		"a 50 MB file":            {"big.png", io.MultiReader(bytes.NewReader(src[:16]), io.LimitReader(zeros{}, 50<<20))},
		"a 100000×100000 PNG":     {"bomb.png", bytes.NewReader(hugePNG())},
		"a GIF carrying a script": {"x.gif", io.MultiReader(bytes.NewReader(g.Bytes()), strings.NewReader("<script>alert(1)</script>"))},
		"a text file named .gif":  {"x.gif", strings.NewReader("GIF89a<html><script>alert(1)</script>")},
		"an SVG with a script":    {"x.svg", strings.NewReader(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)},
	} {
		status, _, codes := upload(t, srv, user.Token, c.file, c.data)
		if len(codes) != 1 || codes[0] != "BAD_USER_INPUT" || status >= 500 {
			t.Errorf("%s: HTTP %d, codes %v, want BAD_USER_INPUT", name, status, codes)
		}
	}
	if _, _, codes := upload(t, srv, "", "photo.png", bytes.NewReader(src)); len(codes) != 1 || codes[0] != "UNAUTHENTICATED" {
		t.Errorf("anonymous upload: codes %v", codes)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
