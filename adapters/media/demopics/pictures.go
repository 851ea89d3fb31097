// Package demopics draws the pictures the demo data refers to — shop photos, shop type
// icons, avatars — and serves them at their paths. Nothing is shipped as an image file:
// a picture is drawn the first time it is asked for (a flat colour told from its name
// and a label, a few KB) and kept in memory, so the binary grows by this code only.
//
// Only the paths New is given are served; every other path is 404.
package demopics

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/dealspot/dealspot/internal/domain"
)

// Pictures are the demo pictures, by path.
type Pictures struct {
	byPath   map[string]*picture
	prefixes []string
}

// picture is one demo picture, drawn once.
type picture struct {
	once        sync.Once
	path        string
	data        []byte
	contentType string
	err         error
}

// started is the pictures' modification time for conditional requests: they change
// only with the code that draws them.
var started = time.Now()

// New returns the pictures at paths: absolute, clean paths of .jpg or .png files in a
// folder (e.g. /imgs/shops/1-1.jpg).
func New(paths []string) (*Pictures, error) {
	p := &Pictures{byPath: make(map[string]*picture, len(paths))}
	for _, s := range paths {
		ext := path.Ext(s)
		dir := path.Dir(s)
		if !strings.HasPrefix(s, "/") || path.Clean(s) != s || dir == "/" || contentTypes[ext] == "" {
			return nil, fmt.Errorf("demo pictures: %q is not a clean path of a .jpg or .png file in a folder", s)
		}
		p.byPath[s] = &picture{path: s}
		top := "/" + strings.SplitN(s[1:], "/", 2)[0] + "/"
		if !slices.Contains(p.prefixes, top) {
			p.prefixes = append(p.prefixes, top)
		}
	}
	slices.Sort(p.prefixes)
	return p, nil
}

// Image returns the picture at path with its size and type, as it is drawn, and
// whether a picture is served there; it draws nothing.
func (p *Pictures) Image(at string) (domain.Image, bool) {
	if _, ok := p.byPath[at]; !ok {
		return domain.Image{}, false
	}
	size := sizeOf(at)
	return domain.Image{URL: at, Width: size.X, Height: size.Y, ContentType: contentTypes[path.Ext(at)]}, true
}

// Prefixes are the top folders the pictures are in (e.g. /imgs/ and /types/), each
// ending with a slash: the paths to route to Handler.
func (p *Pictures) Prefixes() []string { return slices.Clone(p.prefixes) }

// Handler serves GET and HEAD of the pictures' paths; every other path is 404.
func (p *Pictures) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		pic, ok := p.byPath[r.URL.Path]
		if !ok || r.URL.RawPath != "" {
			http.NotFound(w, r)
			return
		}
		data, contentType, err := pic.drawn()
		if err != nil {
			http.Error(w, "the picture could not be drawn", http.StatusInternalServerError)
			return
		}
		h.Set("Content-Type", contentType)
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		h.Set("Cache-Control", "public, max-age=86400")
		http.ServeContent(w, r, pic.path, started, bytes.NewReader(data))
	})
}

func (pic *picture) drawn() ([]byte, string, error) {
	pic.once.Do(func() { pic.data, pic.contentType, pic.err = draw1(pic.path) })
	return pic.data, pic.contentType, pic.err
}

// The sizes pictures are drawn at, by folder: shop photos are landscape, icons and
// avatars square.
var sizes = map[string]image.Point{
	"/imgs/shops": {X: 480, Y: 320},
	"/imgs/icons": {X: 128, Y: 128},
	"/types":      {X: 96, Y: 96},
}

// contentTypes are the pictures' types, by extension (New accepts these only).
var contentTypes = map[string]string{".jpg": "image/jpeg", ".png": "image/png"}

// sizeOf is the size the picture at p is drawn at.
func sizeOf(p string) image.Point {
	if size, ok := sizes[path.Dir(p)]; ok {
		return size
	}
	return image.Point{X: 320, Y: 240}
}

// draw1 draws the picture at p: a background colour told from its subject (the part of
// its name before a dash, so a shop's photos share a hue), a lighter disc told from the
// whole name, and the name as a label.
func draw1(p string) ([]byte, string, error) {
	size := sizeOf(p)
	name := strings.TrimSuffix(path.Base(p), path.Ext(p))
	subject, _, _ := strings.Cut(name, "-")
	hue := hash(path.Dir(p)+"/"+subject) % 360
	m := image.NewRGBA(image.Rectangle{Max: size})
	draw.Draw(m, m.Bounds(), image.NewUniform(hsl(float64(hue), 0.55, 0.45)), image.Point{}, draw.Src)
	// A disc off-centre, so a shop's two photos differ.
	h := hash(p)
	cx, cy := int(h%uint32(size.X)), int(h/7%uint32(size.Y))
	r := min(size.X, size.Y) * 2 / 3
	disc := hsl(float64(hue), 0.55, 0.6)
	for y := range size.Y {
		for x := range size.X {
			if dx, dy := x-cx, y-cy; dx*dx+dy*dy < r*r {
				m.Set(x, y, disc)
			}
		}
	}
	label(m, strings.ToUpper(name))

	var buf bytes.Buffer
	switch path.Ext(p) {
	case ".png":
		if err := png.Encode(&buf, m); err != nil {
			return nil, "", fmt.Errorf("draw %s: %w", p, err)
		}
		return buf.Bytes(), contentTypes[".png"], nil
	case ".jpg":
		if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 80}); err != nil {
			return nil, "", fmt.Errorf("draw %s: %w", p, err)
		}
		return buf.Bytes(), contentTypes[".jpg"], nil
	}
	return nil, "", errors.New("demo pictures: unknown format of " + p)
}

// label writes text in white across the middle of m, as large as fits, in the 7×13
// bitmap font scaled up by whole pixels (sharp at any size).
func label(m *image.RGBA, text string) {
	face := basicfont.Face7x13
	w := font.MeasureString(face, text).Ceil()
	if w == 0 {
		return
	}
	small := image.NewAlpha(image.Rect(0, 0, w, 13))
	d := font.Drawer{Dst: small, Src: image.Opaque, Face: face, Dot: fixed.P(0, 11)}
	d.DrawString(text)
	b := m.Bounds()
	scale := max(1, min(b.Dx()*4/5/w, b.Dy()/3/13))
	x0 := (b.Dx() - w*scale) / 2
	y0 := (b.Dy() - 13*scale) / 2
	shadow := color.RGBA{A: 0x60}
	for y := range 13 * scale {
		for x := range w * scale {
			if small.AlphaAt(x/scale, y/scale).A < 0x80 {
				continue
			}
			off := max(1, scale/3)
			m.Set(x0+x+off, y0+y+off, shadow)
			m.Set(x0+x, y0+y, color.White)
		}
	}
}

func hash(s string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(s))
	return h.Sum32()
}

// hsl converts a hue (degrees), saturation and lightness (0–1) to a colour.
func hsl(h, s, l float64) color.RGBA {
	c := (1 - abs(2*l-1)) * s
	hp := h / 60
	x := c * (1 - abs(mod2(hp)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g = c, x
	case hp < 2:
		r, g = x, c
	case hp < 3:
		g, b = c, x
	case hp < 4:
		g, b = x, c
	case hp < 5:
		r, b = x, c
	default:
		r, b = c, x
	}
	mm := l - c/2
	to8 := func(v float64) uint8 { return uint8(min(255, max(0, (v+mm)*255+0.5))) }
	return color.RGBA{R: to8(r), G: to8(g), B: to8(b), A: 0xff}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// mod2 is v modulo 2, for v ≥ 0.
func mod2(v float64) float64 {
	return v - 2*float64(int(v/2))
}
