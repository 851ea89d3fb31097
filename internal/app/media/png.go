package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image/png"
)

var errPNGStructure = errors.New("png: broken chunk structure")

// pngLayout walks the chunks from the signature to IEND.
func pngLayout(b []byte) (layout, error) {
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
		i += 12 + int(n) // length, type, data, CRC
		if typ == "IEND" {
			return layout{end: i}, nil
		}
	}
}

// reencodePNG decodes and encodes again: the encoder writes no text, time, EXIF or
// other ancillary chunks.
func reencodePNG(data []byte, _ layout) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, damaged(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return buf.Bytes(), nil
}
