package media

import (
	"bytes"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/webp"
)

// format is an accepted image format.
type format struct {
	name        string
	contentType string
	// ext is the extension stored names get.
	ext string
	// layout walks the file's structure (see layout).
	layout func(data []byte) (layout, error)
	// decodeConfig reads the dimensions without decoding the pixels.
	decodeConfig func(io.Reader) (image.Config, error)
	// decodedBytes is the memory decoding and re-encoding take at most, told from the
	// header and the layout before any pixel is decoded: the decoded image and what the
	// decoder allocates besides it at the same time.
	decodedBytes func(c image.Config, l layout) int64
	// reencode decodes data fully and returns the copy to store, without metadata.
	reencode func(data []byte, l layout) ([]byte, error)
}

// layout is what walking a file's structure tells before any pixel is decoded.
type layout struct {
	// end is the length of the image proper: up to and including PNG's IEND chunk,
	// JPEG's EOI marker, GIF's trailer, or the end of WebP's RIFF container.
	end int
	// framePixels is the sum of the frames' areas (GIF).
	framePixels int64
	// animated is set for animated WebP, which the decoder cannot read; lossless for a
	// WebP holding a VP8L image.
	animated, lossless bool
	// orientation is the EXIF orientation (JPEG; 1–8, 0 when none is given).
	orientation int
	// interlaced is set for Adam7 PNGs, transparent for PNGs with a tRNS chunk.
	interlaced, transparent bool
	// progressive is set for progressive JPEGs; samples counts a JPEG's samples, all
	// components together, padded to whole MCUs as the decoder allocates them (0 when
	// no frame header was found).
	progressive bool
	samples     int64
}

// The accepted formats. Each is read by its own decoder only, so a file is decoded as
// the format its first bytes were accepted as, never as another.
var (
	formatJPEG = &format{name: "JPEG", contentType: "image/jpeg", ext: ".jpg",
		layout: jpegLayout, decodeConfig: jpeg.DecodeConfig, decodedBytes: jpegDecodedBytes, reencode: reencodeJPEG}
	formatPNG = &format{name: "PNG", contentType: "image/png", ext: ".png",
		layout: pngLayout, decodeConfig: png.DecodeConfig, decodedBytes: pngDecodedBytes, reencode: reencodePNG}
	formatGIF = &format{name: "GIF", contentType: "image/gif", ext: ".gif",
		layout: gifLayout, decodeConfig: gif.DecodeConfig, decodedBytes: gifDecodedBytes, reencode: reencodeGIF}
	formatWebP = &format{name: "WebP", contentType: "image/webp", ext: ".webp",
		layout: webpLayout, decodeConfig: webp.DecodeConfig, decodedBytes: webpDecodedBytes, reencode: reencodeWebP}
)

// sniff returns the format data's magic bytes announce, or nil.
func sniff(data []byte) *format {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return formatJPEG
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return formatPNG
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return formatGIF
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return formatWebP
	}
	return nil
}

// markup is what a browser could run or render as a page, were the file ever taken for
// something other than an image: refused anywhere in an upload, in ASCII lower case.
// Each is long enough not to turn up by chance in compressed image data (a 4-byte
// pattern such as "<svg" would, in about 1 % of 5 MB photos); an SVG hidden in an
// image's metadata goes with the metadata when the image is re-encoded.
var markup = []string{"<script", "<html"}

const javascriptURL = "javascript:"

// containsMarkup reports whether data holds any of markup or javascriptURL, ignoring
// ASCII case.
func containsMarkup(data []byte) bool {
	for i := 0; ; i++ {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			break
		}
		i += j
		for _, m := range markup {
			if hasPrefixFold(data[i:], m) {
				return true
			}
		}
	}
	for i := 0; ; i++ {
		j := bytes.IndexByte(data[i:], ':')
		if j < 0 {
			return false
		}
		i += j
		if start := i + 1 - len(javascriptURL); start >= 0 && hasPrefixFold(data[start:], javascriptURL) {
			return true
		}
	}
}

// hasPrefixFold reports whether b begins with lower, ignoring ASCII case only.
func hasPrefixFold(b []byte, lower string) bool {
	if len(b) < len(lower) {
		return false
	}
	for i := range len(lower) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
