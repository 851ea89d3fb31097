package web

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"sync"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// FaviconPath is where browsers look for a site's icon; the app's page links it too.
const FaviconPath = "/favicon.ico"

// brand is the red of the app's header.
var brand = color.RGBA{R: 0xc8, G: 0x1d, B: 0x25, A: 0xff}

// favicon is the icon as an ICO file, drawn once.
var favicon = sync.OnceValue(func() []byte {
	const side = 32
	m := image.NewRGBA(image.Rect(0, 0, side, side))
	// A red square with rounded corners and a white D.
	for y := range side {
		for x := range side {
			if inRoundedSquare(x, y, side, 6) {
				m.Set(x, y, brand)
			}
		}
	}
	glyph := image.NewAlpha(image.Rect(0, 0, 7, 13))
	d := font.Drawer{Dst: glyph, Src: image.Opaque, Face: basicfont.Face7x13, Dot: fixed.P(0, 11)}
	d.DrawString("D")
	const scale, x0, y0 = 2, (side - 7*2) / 2, (side-13*2)/2 + 1
	for y := range 13 * scale {
		for x := range 7 * scale {
			if glyph.AlphaAt(x/scale, y/scale).A >= 0x80 {
				m.Set(x0+x, y0+y, color.White)
			}
		}
	}
	var img bytes.Buffer
	if err := png.Encode(&img, m); err != nil {
		panic(err) // encoding an in-memory RGBA image into a buffer cannot fail
	}
	// ICO: a 6-byte header, one 16-byte directory entry, then the PNG (which every
	// browser reads inside an ICO).
	var out bytes.Buffer
	_ = binary.Write(&out, binary.LittleEndian, [3]uint16{0, 1, 1})
	_ = binary.Write(&out, binary.LittleEndian, struct {
		W, H, Colors, Reserved uint8
		Planes, Bits           uint16
		Size, Offset           uint32
	}{side, side, 0, 0, 1, 32, uint32(img.Len()), 6 + 16})
	out.Write(img.Bytes())
	return out.Bytes()
})

func inRoundedSquare(x, y, side, r int) bool {
	cx := min(max(x, r), side-1-r)
	cy := min(max(y, r), side-1-r)
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= r*r
}

// drawn is the favicon's modification time for conditional requests: it changes only
// with this code.
var drawn = time.Now()

// Favicon serves the site's icon at FaviconPath, cached for a day.
func Favicon() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "image/x-icon")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "public, max-age=86400")
		http.ServeContent(w, r, "favicon.ico", drawn, bytes.NewReader(favicon()))
	})
}
