package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/gif"
)

var errGIFStructure = errors.New("gif: broken block structure")

// gifLayout walks the blocks from the header to the trailer (0x3B) and adds up the
// frames' areas: each frame is decoded into memory of its own.
func gifLayout(b []byte) (layout, error) {
	const header, screen = 6, 7
	if len(b) < header+screen {
		return layout{}, errGIFStructure
	}
	i := header + screen
	if flags := b[10]; flags&0x80 != 0 { // global colour table
		i += 3 << (flags&0x07 + 1)
	}
	var l layout
	for {
		if i >= len(b) {
			return layout{}, errGIFStructure
		}
		var err error
		switch b[i] {
		case 0x21: // extension: introducer, label, sub-blocks
			if i, err = skipSubBlocks(b, i+2); err != nil {
				return layout{}, err
			}
		case 0x2C: // image descriptor: separator, left, top, width, height, flags
			if len(b)-i < 10 {
				return layout{}, errGIFStructure
			}
			w, h := binary.LittleEndian.Uint16(b[i+5:]), binary.LittleEndian.Uint16(b[i+7:])
			l.framePixels += int64(w) * int64(h)
			flags := b[i+9]
			i += 10
			if flags&0x80 != 0 { // local colour table
				i += 3 << (flags&0x07 + 1)
			}
			// The LZW minimum code size, then the image data.
			if i, err = skipSubBlocks(b, i+1); err != nil {
				return layout{}, err
			}
		case 0x3B:
			l.end = i + 1
			return l, nil
		default:
			return layout{}, errGIFStructure
		}
	}
}

// skipSubBlocks returns the offset after the sub-blocks starting at i (each a length
// byte and that many bytes; a zero length ends them).
func skipSubBlocks(b []byte, i int) (int, error) {
	for {
		if i >= len(b) {
			return 0, errGIFStructure
		}
		n := int(b[i])
		i++
		if n == 0 {
			return i, nil
		}
		i += n
	}
}

// gifDecodedBytes is what image/gif allocates to decode every frame: a byte a pixel for
// each (framePixels), and as much as the largest frame, never larger than the logical
// screen, to put an interlaced frame's rows in order.
func gifDecodedBytes(c image.Config, l layout) int64 {
	return l.framePixels + int64(c.Width)*int64(c.Height)
}

// reencodeGIF decodes every frame and encodes them again: comment, plain-text and
// application extensions are not kept (the encoder writes back only the loop count).
func reencodeGIF(data []byte, _ layout) ([]byte, error) {
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		return nil, damaged(err)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		return nil, fmt.Errorf("encode gif: %w", err)
	}
	return buf.Bytes(), nil
}
