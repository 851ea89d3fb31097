package media_test

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

// gradient is a w×h image whose pixels all differ a little.
func gradient(w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.SetNRGBA(x, y, color.NRGBA{R: uint8(x * 255 / w), G: uint8(y * 255 / h), B: 128, A: 255})
		}
	}
	return m
}

func encodePNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, gradient(w, h)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gradient16 is a w×h image of 16 bits per channel whose low bytes differ from its
// high bytes; opaque, it is encoded as 16-bit RGB, otherwise as 16-bit RGBA.
func gradient16(w, h int, opaque bool) *image.NRGBA64 {
	m := image.NewNRGBA64(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA64{R: uint16(x * 65535 / w), G: uint16(y * 65535 / h), B: 0x80ff, A: 0xffff}
			if !opaque {
				c.A = uint16(0x4000 + (x+y)*0x3fff/(w+h))
			}
			m.SetNRGBA64(x, y, c)
		}
	}
	return m
}

// encodePNGImage is m as a PNG (16-bit images stay 16-bit).
func encodePNGImage(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeJPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	return encodeJPEGImage(t, gradient(w, h))
}

func encodeJPEGImage(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// encodeGIF is a two-frame animation.
func encodeGIF(t testing.TB, w, h int) []byte {
	t.Helper()
	g := &gif.GIF{LoopCount: 0}
	for i := range 2 {
		m := image.NewPaletted(image.Rect(0, 0, w, h), palette.Plan9)
		for y := range h {
			for x := range w {
				m.SetColorIndex(x, y, uint8(x+y+i))
			}
		}
		g.Image = append(g.Image, m)
		g.Delay = append(g.Delay, 10)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// withGIFComment inserts a comment extension holding text before the GIF's trailer.
func withGIFComment(g []byte, text string) []byte {
	ext := []byte{0x21, 0xFE}
	for rest := []byte(text); len(rest) > 0; {
		n := min(len(rest), 255)
		ext = append(ext, byte(n))
		ext = append(ext, rest[:n]...)
		rest = rest[n:]
	}
	ext = append(ext, 0x00)
	out := append([]byte(nil), g[:len(g)-1]...)
	out = append(out, ext...)
	return append(out, 0x3B)
}

// pngChunk is one PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	c = append(c, typ...)
	c = append(c, data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// pngBomb is a well-formed PNG whose header declares w×h RGB pixels and whose image
// data is a few compressed bytes: decoding it would allocate w×h×4 bytes.
func pngBomb(t *testing.T, w, h uint32) []byte {
	t.Helper()
	return pngBombOf(t, w, h, 8, 2) // 8 bits, RGB
}

// pngBombOf is pngBomb with the given bit depth and colour type (0 grey, 2 RGB, 6 RGBA).
func pngBombOf(t *testing.T, w, h uint32, depth, colorType byte) []byte {
	t.Helper()
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, depth, colorType, 0, 0, 0) // deflate, no filter, no interlace
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	if _, err := zw.Write(make([]byte, 4096)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, pngChunk("IHDR", ihdr)...)
	out = append(out, pngChunk("IDAT", z.Bytes())...)
	return append(out, pngChunk("IEND", nil)...)
}

// exifTIFF is a little-endian EXIF structure with an ImageDescription holding secret
// and the given orientation.
func exifTIFF(secret string, orientation uint16) []byte {
	le := binary.LittleEndian
	t := []byte("II*\x00")
	t = le.AppendUint32(t, 8) // IFD0
	t = le.AppendUint16(t, 2) // entries, in tag order
	const stringsAt = 8 + 2 + 2*12 + 4
	t = le.AppendUint16(t, 0x010E) // ImageDescription
	t = le.AppendUint16(t, 2)      // ASCII
	t = le.AppendUint32(t, uint32(len(secret)+1))
	t = le.AppendUint32(t, stringsAt)
	t = le.AppendUint16(t, 0x0112) // Orientation
	t = le.AppendUint16(t, 3)      // SHORT
	t = le.AppendUint32(t, 1)
	t = le.AppendUint16(t, orientation)
	t = le.AppendUint16(t, 0)
	t = le.AppendUint32(t, 0) // no next IFD
	t = append(t, secret...)
	return append(t, 0)
}

// jpegSegment is a marker segment: 0xFF, marker, length, payload.
func jpegSegment(marker byte, payload []byte) []byte {
	s := []byte{0xFF, marker}
	s = binary.BigEndian.AppendUint16(s, uint16(len(payload)+2))
	return append(s, payload...)
}

// withJPEGSegments inserts segments right after SOI.
func withJPEGSegments(j []byte, segments ...[]byte) []byte {
	out := append([]byte(nil), j[:2]...)
	for _, s := range segments {
		out = append(out, s...)
	}
	return append(out, j[2:]...)
}

// bitWriter writes bits least significant first, as VP8L reads them.
type bitWriter struct {
	buf   []byte
	nbits uint
}

func (w *bitWriter) write(v uint32, n uint) {
	for i := range n {
		if w.nbits%8 == 0 {
			w.buf = append(w.buf, 0)
		}
		w.buf[len(w.buf)-1] |= byte((v>>i)&1) << (w.nbits % 8)
		w.nbits++
	}
}

// vp8l is a lossless WebP bitstream of a w×h image of one colour c: every prefix code
// is a simple code of one symbol, so the pixels take no bits at all.
func vp8l(w, h int, c color.NRGBA) []byte {
	var bw bitWriter
	bw.write(0x2f, 8)
	bw.write(uint32(w-1), 14)
	bw.write(uint32(h-1), 14)
	bw.write(1, 1) // alpha is used
	bw.write(0, 3) // version
	bw.write(0, 1) // no transform
	bw.write(0, 1) // no colour cache
	bw.write(0, 1) // no meta prefix codes
	for _, sym := range []uint8{c.G, c.R, c.B, c.A} {
		bw.write(1, 1) // simple code
		bw.write(0, 1) // one symbol
		bw.write(1, 1) // of 8 bits
		bw.write(uint32(sym), 8)
	}
	bw.write(1, 1) // distance: simple code
	bw.write(0, 1) // one symbol
	bw.write(0, 1) // of 1 bit
	bw.write(0, 1)
	return bw.buf
}

// riffChunk is a RIFF chunk with its pad byte.
func riffChunk(id string, data []byte) []byte {
	c := append([]byte(id), binary.LittleEndian.AppendUint32(nil, uint32(len(data)))...)
	c = append(c, data...)
	if len(data)%2 == 1 {
		c = append(c, 0)
	}
	return c
}

// webpFile wraps chunks in a RIFF WEBP container.
func webpFile(chunks ...[]byte) []byte {
	body := []byte("WEBP")
	for _, c := range chunks {
		body = append(body, c...)
	}
	return append(append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...), body...)
}

// vp8x is a VP8X payload with flags for a w×h canvas.
func vp8x(flags byte, w, h int) []byte {
	p := []byte{flags, 0, 0, 0}
	p = append(p, byte(w-1), byte((w-1)>>8), byte((w-1)>>16))
	return append(p, byte(h-1), byte((h-1)>>8), byte((h-1)>>16))
}

// webpChunkIDs lists the top-level chunks of a WebP file.
func webpChunkIDs(t *testing.T, b []byte) []string {
	t.Helper()
	var ids []string
	for i := 12; i < len(b); {
		if len(b)-i < 8 {
			t.Fatalf("truncated chunk header at %d", i)
		}
		n := int(binary.LittleEndian.Uint32(b[i+4:]))
		ids = append(ids, string(b[i:i+4]))
		i += 8 + n + n%2
	}
	return ids
}
