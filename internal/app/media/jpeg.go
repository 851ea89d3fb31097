package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
)

// jpegQuality is the quality stored JPEGs are encoded at.
const jpegQuality = 90

var errJPEGStructure = errors.New("jpeg: broken marker structure")

// jpegLayout walks the markers from SOI to the first EOI, stepping over each scan's
// entropy-coded data (where 0xFF is followed by a stuffed 0x00 or a restart marker), and
// reads the EXIF orientation on the way.
func jpegLayout(b []byte) (layout, error) {
	l := layout{}
	i := 2 // after SOI
	for {
		if i >= len(b) || b[i] != 0xFF {
			return l, errJPEGStructure
		}
		for i < len(b) && b[i] == 0xFF { // fill bytes
			i++
		}
		if i >= len(b) {
			return l, errJPEGStructure
		}
		m := b[i]
		i++
		switch {
		case m == 0xD9: // EOI
			l.end = i
			return l, nil
		case m == 0x00 || m == 0xD8:
			return l, errJPEGStructure
		case m == 0x01 || (m >= 0xD0 && m <= 0xD7): // no payload
			continue
		}
		if i+2 > len(b) {
			return l, errJPEGStructure
		}
		n := int(binary.BigEndian.Uint16(b[i:]))
		if n < 2 || n > len(b)-i {
			return l, errJPEGStructure
		}
		payload := b[i+2 : i+n]
		i += n
		if m == 0xE1 && l.orientation == 0 && bytes.HasPrefix(payload, []byte("Exif\x00\x00")) {
			l.orientation = tiffOrientation(payload[6:])
		}
		if (m == 0xC0 || m == 0xC1 || m == 0xC2) && l.samples == 0 { // SOF: baseline, extended, progressive
			l.progressive = m == 0xC2
			l.samples = jpegSamples(payload)
		}
		if m != 0xDA { // not SOS
			continue
		}
		for {
			j := bytes.IndexByte(b[i:], 0xFF)
			if j < 0 || i+j+1 >= len(b) {
				return l, errJPEGStructure
			}
			i += j
			if next := b[i+1]; next == 0x00 || (next >= 0xD0 && next <= 0xD7) {
				i += 2
				continue
			}
			break // a marker: the scan has ended
		}
	}
}

// jpegSamples counts the samples of the components a frame header (SOF payload)
// declares, each component's plane padded to whole MCUs as image/jpeg allocates it; 0
// if the header is malformed (the decoder then refuses the image).
func jpegSamples(sof []byte) int64 {
	if len(sof) < 6 {
		return 0
	}
	h, w, n := int64(binary.BigEndian.Uint16(sof[1:])), int64(binary.BigEndian.Uint16(sof[3:])), int(sof[5])
	if n < 1 || len(sof) < 6+3*n {
		return 0
	}
	var hMax, vMax int64 = 1, 1
	for c := range n {
		f := sof[6+3*c+1] // sampling factors: horizontal in the high nibble
		hMax, vMax = max(hMax, int64(f>>4)), max(vMax, int64(f&0x0F))
	}
	mcusX, mcusY := (w+8*hMax-1)/(8*hMax), (h+8*vMax-1)/(8*vMax)
	var samples int64
	for c := range n {
		f := sof[6+3*c+1]
		samples += 8 * int64(f>>4) * mcusX * 8 * int64(f&0x0F) * mcusY
	}
	return samples
}

// jpegDecodedBytes is what image/jpeg allocates to decode: a byte per sample, 4 bytes
// a pixel more for an RGB or CMYK image (converted into an image of its own), and 4
// bytes per sample for a progressive image's coefficients, kept until the last scan.
// When the frame header was not found, every pixel counts 4 samples.
func jpegDecodedBytes(c image.Config, l layout) int64 {
	pixels := int64(c.Width) * int64(c.Height)
	samples := l.samples
	if samples == 0 {
		samples = 4 * pixels
	}
	n := samples
	if c.ColorModel == color.RGBAModel || c.ColorModel == color.CMYKModel {
		n += 4 * pixels
	}
	if l.progressive {
		n += 4 * samples
	}
	return n
}

// tiffOrientation returns the Orientation tag (0x0112) of the first IFD of an EXIF TIFF
// structure, or 0 when there is none or it is out of range.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	if bo.Uint16(t[2:]) != 42 {
		return 0
	}
	off := uint64(bo.Uint32(t[4:]))
	if off+2 > uint64(len(t)) {
		return 0
	}
	n := uint64(bo.Uint16(t[off:]))
	for k := range n {
		e := off + 2 + 12*k
		if e+12 > uint64(len(t)) {
			return 0
		}
		const tagOrientation, typeShort = 0x0112, 3
		if bo.Uint16(t[e:]) == tagOrientation && bo.Uint16(t[e+2:]) == typeShort {
			if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 0
		}
	}
	return 0
}

// orientationSegment is an APP1 segment holding an EXIF structure with nothing but
// orientation o: stored JPEGs keep which way is up and lose every other tag.
func orientationSegment(o int) []byte {
	return []byte{
		0xFF, 0xE1, 0x00, 0x22, // APP1, length 34 (itself and 32 bytes)
		'E', 'x', 'i', 'f', 0, 0,
		'M', 'M', 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, // big-endian TIFF, IFD0 at 8
		0x00, 0x01, // one entry
		0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, byte(o), 0x00, 0x00, // Orientation, SHORT, 1, o
		0x00, 0x00, 0x00, 0x00, // no next IFD
	}
}

// reencodeJPEG decodes and encodes again: what the encoder writes holds pixels only. An
// orientation other than 1 is written back alone, or phone photos would turn sideways.
func reencodeJPEG(data []byte, l layout) ([]byte, error) {
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, damaged(err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality}); err != nil {
		return nil, fmt.Errorf("encode jpeg: %w", err)
	}
	out := buf.Bytes()
	if l.orientation < 2 {
		return out, nil
	}
	seg := orientationSegment(l.orientation)
	withOrientation := make([]byte, 0, len(out)+len(seg))
	withOrientation = append(withOrientation, out[:2]...) // SOI
	withOrientation = append(withOrientation, seg...)
	return append(withOrientation, out[2:]...), nil
}
