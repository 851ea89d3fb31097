package media_test

import (
	"bytes"
	"context"
	"image/color"
	"testing"

	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/app/media/mediatest"
	"github.com/dealspot/dealspot/internal/domain"
)

// FuzzHandle feeds arbitrary bytes to the upload: it must never panic, must refuse with
// BAD_USER_INPUT, and whatever it accepts must be accepted again as stored.
func FuzzHandle(f *testing.F) {
	f.Add(encodePNG(f, 3, 2))
	f.Add(encodeJPEG(f, 9, 5))
	f.Add(withJPEGSegments(encodeJPEG(f, 4, 4), jpegSegment(0xE1, append([]byte("Exif\x00\x00"), exifTIFF("x", 8)...))))
	f.Add(withGIFComment(encodeGIF(f, 3, 3), "c"))
	f.Add(webpFile(riffChunk("VP8X", vp8x(0x2c, 2, 2)), riffChunk("VP8L", vp8l(2, 2, color.NRGBA{A: 9})), riffChunk("EXIF", []byte("e"))))
	f.Fuzz(func(t *testing.T, data []byte) {
		store := &memStore{}
		u, err := media.New(media.Config{MaxBytes: 1 << 20, MaxSide: 512, MaxPixels: 1 << 16, DecodeBudget: 1 << 20}, media.Deps{Store: store, Uploads: &mediatest.MemUploads{}})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		user := domain.Actor{UserID: 1}
		if _, err := u.Handle(ctx, user, bytes.NewReader(data), -1); err != nil {
			if code := domain.ErrorCode(err); code != domain.CodeBadUserInput {
				t.Fatalf("refused with %s: %v", code, err)
			}
			return
		}
		_, file := store.last(t)
		if _, err := u.Handle(ctx, user, bytes.NewReader(file.data), -1); err != nil {
			t.Fatalf("the stored copy is refused: %v", err)
		}
	})
}
