package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
)

var errPNGStructure = errors.New("png: broken chunk structure")

// pngLayout walks the chunks from the signature to IEND, noting whether the image is
// interlaced (IHDR) and has a tRNS chunk, which both change what decoding allocates.
func pngLayout(b []byte) (layout, error) {
	var l layout
	i := 8 // after the signature
	for {
		if len(b)-i < 12 {
			return layout{}, errPNGStructure
		}
		n := uint64(binary.BigEndian.Uint32(b[i:]))
		typ := string(b[i+4 : i+8])
		if n > uint64(len(b)-i-12) {
			return layout{}, errPNGStructure
		}
		switch {
		case typ == "IHDR" && n >= 13:
			l.interlaced = b[i+8+12] != 0 // width, height, depth, colour type, compression, filter, interlace
		case typ == "tRNS":
			l.transparent = true
		}
		i += 12 + int(n) // length, type, data, CRC
		if typ == "IEND" {
			l.end = i
			return l, nil
		}
	}
}

// pngDecodedBytes is the size of the image image/png decodes: 1 byte a pixel for
// palettes and grey of up to 8 bits, 2 for 16-bit grey, 4 for 8-bit colour, 8 for
// 16-bit colour; grey with a tRNS chunk is decoded as colour. An interlaced image also
// holds its largest pass (half the pixels) while it is merged. Converting 16 bits to 8
// reuses the decoded memory (see to8Bits), and the encoder works a row at a time.
func pngDecodedBytes(c image.Config, l layout) int64 {
	var perPixel int64
	switch c.ColorModel {
	case color.GrayModel:
		perPixel = 1
		if l.transparent {
			perPixel = 4
		}
	case color.Gray16Model:
		perPixel = 2
		if l.transparent {
			perPixel = 8
		}
	case color.RGBAModel, color.NRGBAModel:
		perPixel = 4
	case color.RGBA64Model, color.NRGBA64Model:
		perPixel = 8
	default: // a palette
		perPixel = 1
	}
	n := int64(c.Width) * int64(c.Height) * perPixel
	if l.interlaced {
		n += n / 2
	}
	return n
}

// reencodePNG decodes and encodes again: the encoder writes no text, time, EXIF or
// other ancillary chunks. 16-bit images are stored with 8 bits per channel: nobody
// displays the difference, and image/png encodes 16-bit images a pixel at a time
// through an interface (an allocation per pixel: seconds for 40 megapixels).
func reencodePNG(data []byte, _ layout) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, damaged(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, to8Bits(img)); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// to8Bits returns a 16-bit image as 8-bit, each channel its high byte (as image/color
// converts), in the first half of the same memory; other images are returned as they
// are. The images image/png decodes start at (0, 0) and have no gap between rows.
func to8Bits(img image.Image) image.Image {
	switch m := img.(type) {
	case *image.NRGBA64:
		if contiguous(m.Pix, m.Stride, m.Rect, 8) {
			return &image.NRGBA{Pix: highBytes(m.Pix), Stride: m.Stride / 2, Rect: m.Rect}
		}
	case *image.RGBA64:
		if contiguous(m.Pix, m.Stride, m.Rect, 8) {
			return &image.RGBA{Pix: highBytes(m.Pix), Stride: m.Stride / 2, Rect: m.Rect}
		}
	case *image.Gray16:
		if contiguous(m.Pix, m.Stride, m.Rect, 2) {
			return &image.Gray{Pix: highBytes(m.Pix), Stride: m.Stride / 2, Rect: m.Rect}
		}
	}
	return img
}

// contiguous reports whether pix holds r's rows of bytesPerPixel-byte pixels one after
// the other, from its first byte.
func contiguous(pix []byte, stride int, r image.Rectangle, bytesPerPixel int) bool {
	return stride == r.Dx()*bytesPerPixel && len(pix) == stride*r.Dy()
}

// highBytes overwrites the first half of pix with the high byte of each big-endian
// 16-bit sample in pix and returns that half. Sample i is read at 2i before byte i is
// written, and no later sample lies below 2i+2 > i: nothing is overwritten unread.
func highBytes(pix []byte) []byte {
	n := len(pix) / 2
	for i := range n {
		pix[i] = pix[2*i]
	}
	return pix[:n:n]
}
