package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"

	"golang.org/x/image/webp"
)

var errWebPStructure = errors.New("webp: broken RIFF structure")

// riffChunk is one chunk of a RIFF container: its FourCC and payload (without padding).
type riffChunk struct {
	id   string
	data []byte
}

// webpChunks returns the chunks of the RIFF container at the start of b and where the
// container ends. A missing pad byte after an odd-sized last chunk is forgiven.
func webpChunks(b []byte) ([]riffChunk, int, error) {
	if len(b) < 12 {
		return nil, 0, errWebPStructure
	}
	size := uint64(binary.LittleEndian.Uint32(b[4:]))
	if size < 4 || size > uint64(len(b)-8) {
		return nil, 0, errWebPStructure
	}
	end := 8 + int(size)
	var chunks []riffChunk
	for i := 12; i < end; {
		if end-i < 8 {
			return nil, 0, errWebPStructure
		}
		n := uint64(binary.LittleEndian.Uint32(b[i+4:]))
		if n > uint64(end-i-8) {
			return nil, 0, errWebPStructure
		}
		chunks = append(chunks, riffChunk{id: string(b[i : i+4]), data: b[i+8 : i+8+int(n)]})
		i += 8 + int(n) + int(n&1)
		if i > end { // the last chunk's pad byte is missing
			i = end
		}
	}
	if len(chunks) == 0 {
		return nil, 0, errWebPStructure
	}
	return chunks, end, nil
}

// VP8X flags (the first byte of its payload).
const (
	vp8xAnimation = 1 << 1
	vp8xXMP       = 1 << 2
	vp8xEXIF      = 1 << 3
	vp8xICC       = 1 << 5
)

// webpImageChunks are the chunks a stored WebP keeps: the image and how to show it.
// EXIF, XMP, ICCP and unknown chunks are dropped.
var webpImageChunks = map[string]bool{"VP8 ": true, "VP8L": true, "VP8X": true, "ALPH": true, "ANIM": true, "ANMF": true}

// webpLayout finds the end of the RIFF container and whether the image is animated.
func webpLayout(b []byte) (layout, error) {
	chunks, end, err := webpChunks(b)
	if err != nil {
		return layout{}, err
	}
	l := layout{end: end}
	for _, c := range chunks {
		switch c.id {
		case "VP8X":
			l.animated = l.animated || (len(c.data) > 0 && c.data[0]&vp8xAnimation != 0)
		case "ANIM", "ANMF":
			l.animated = true
		case "VP8L":
			l.lossless = true
		}
	}
	return l, nil
}

// webpDecodedBytes is what golang.org/x/image/webp allocates to decode: a lossy image
// is 4:2:0 YCbCr over whole 16×16 macroblocks (1.5 bytes a pixel); its alpha a byte a
// pixel, and up to 8 more while compressed alpha is decoded as a lossless image; a
// lossless image 4 bytes a pixel, twice while a colour-indexing transform is undone.
func webpDecodedBytes(c image.Config, l layout) int64 {
	pixels := int64(c.Width) * int64(c.Height)
	lossy := (int64(c.Width) + 15) / 16 * 16 * ((int64(c.Height) + 15) / 16 * 16) * 3 / 2
	switch {
	case l.lossless:
		return 8 * pixels
	case c.ColorModel == color.YCbCrModel:
		return lossy
	default: // lossy with alpha
		return lossy + 9*pixels
	}
}

// reencodeWebP strips the container to its image chunks (there is no WebP encoder to
// re-encode with), clears the metadata flags of VP8X, and decodes the result fully so
// that what is stored is known to be an image.
func reencodeWebP(data []byte, _ layout) ([]byte, error) {
	chunks, _, err := webpChunks(data)
	if err != nil {
		return nil, damaged(err)
	}
	out := make([]byte, 12, len(data))
	copy(out, "RIFF\x00\x00\x00\x00WEBP")
	for _, c := range chunks {
		if !webpImageChunks[c.id] {
			continue
		}
		start := len(out)
		out = append(out, c.id...)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(c.data)))
		out = append(out, c.data...)
		if c.id == "VP8X" && len(c.data) > 0 {
			out[start+8] &^= vp8xICC | vp8xEXIF | vp8xXMP
		}
		if len(c.data)%2 == 1 {
			out = append(out, 0)
		}
	}
	binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	if _, err := webp.Decode(bytes.NewReader(out)); err != nil {
		return nil, damaged(err)
	}
	return out, nil
}
