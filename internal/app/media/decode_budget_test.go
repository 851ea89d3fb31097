package media_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/media"
	"github.com/dealspot/dealspot/internal/domain"
)

// decodeMeter counts the decodes in flight and the bytes they are charged.
type decodeMeter struct {
	mu                  sync.Mutex
	decodes, maxDecodes int
	bytes, maxBytes     int64
	charged             []int64
}

func (m *decodeMeter) start(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.decodes++
	m.bytes += n
	m.maxDecodes = max(m.maxDecodes, m.decodes)
	m.maxBytes = max(m.maxBytes, m.bytes)
	m.charged = append(m.charged, n)
}

func (m *decodeMeter) end(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.decodes--
	m.bytes -= n
}

// TestDecodeBudgetIsSharedByConcurrentUploads starts uploads whose decoded sizes add up
// to more than the budget, only one fitting at a time: the first to decode holds on
// until every other upload is waiting for the budget, and no two ever decode together.
func TestDecodeBudgetIsSharedByConcurrentUploads(t *testing.T) {
	t.Parallel()
	const n, side = 4, 100
	const decoded = side * side * 4 // 8-bit RGB is decoded into 4 bytes a pixel
	e := newEnv(t, func(c *media.Config) { c.DecodeBudget = decoded * 3 / 2 })
	var (
		meter      decodeMeter
		waiting    atomic.Int32
		allWaiting = make(chan struct{})
	)
	media.SetDecodeHooks(e.upload,
		func(int64) {
			if waiting.Add(1) == n-1 {
				close(allWaiting)
			}
		},
		func(b int64) {
			meter.start(b)
			select {
			case <-allWaiting:
			case <-time.After(time.Minute):
				t.Error("the other uploads never waited for the decode budget")
			}
		},
		meter.end)

	src := encodePNG(t, side, side)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			_, err := e.handle(user, src)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if meter.maxDecodes != 1 || meter.maxBytes > decoded*3/2 {
		t.Fatalf("%d decodes (%d bytes) at once within a budget of %d bytes for one", meter.maxDecodes, meter.maxBytes, decoded*3/2)
	}
	if len(meter.charged) != n {
		t.Fatalf("%d decodes, want %d", len(meter.charged), n)
	}
	for _, b := range meter.charged {
		if b != decoded {
			t.Fatalf("a %dx%d RGB PNG was charged %d bytes, want %d", side, side, b, decoded)
		}
	}
	if got := e.store.count(); got != n {
		t.Fatalf("%d images stored, want %d", got, n)
	}
}

// TestWaitingForTheDecodeBudgetEndsWithTheRequest cancels an upload while another holds
// the budget: it gives up with the context's error and never decodes.
func TestWaitingForTheDecodeBudgetEndsWithTheRequest(t *testing.T) {
	t.Parallel()
	const decoded = 50 * 50 * 4
	e := newEnv(t, func(c *media.Config) { c.DecodeBudget = decoded * 3 / 2 })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		meter    decodeMeter
		holding  = make(chan struct{})
		release  = make(chan struct{})
		starts   atomic.Int32
		canceled atomic.Bool
	)
	media.SetDecodeHooks(e.upload,
		func(int64) {
			canceled.Store(true)
			cancel()
		},
		func(b int64) {
			meter.start(b)
			if starts.Add(1) == 1 {
				close(holding)
				<-release
			}
		},
		meter.end)

	src := encodePNG(t, 50, 50)
	first := make(chan error, 1)
	go func() {
		_, err := e.handle(user, src)
		first <- err
	}()
	<-holding
	_, err := e.upload.Handle(ctx, user, bytes.NewReader(src), int64(len(src)))
	if !canceled.Load() || !errors.Is(err, context.Canceled) {
		t.Errorf("an upload waiting for the budget, canceled: err = %v, want context.Canceled", err)
	}
	if got := starts.Load(); got != 1 {
		t.Errorf("%d decodes started while one held the budget", got)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
}

// TestRefusesAnImageOverTheDecodeBudgetBeforeDecoding: an image whose decoded size alone
// exceeds the budget is refused from its header, allocating nearly nothing; 16-bit
// channels count twice as many bytes as 8-bit ones.
func TestRefusesAnImageOverTheDecodeBudgetBeforeDecoding(t *testing.T) {
	// Not parallel: it measures what the refusal allocates.
	var meter decodeMeter
	e := newEnv(t, nil)
	media.SetDecodeHooks(e.upload, nil, meter.start, meter.end)
	// 8000×5000 16-bit RGB: 320 MB decoded, over the default budget (256 MiB).
	bomb := pngBombOf(t, 8000, 5000, 16, 2)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := e.handle(user, bomb)
	runtime.ReadMemStats(&after)
	refused(t, err, domain.CodeBadUserInput, "image too large to decode: it needs 305.2 MB of memory, at most 256.0 MB")
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Fatalf("refusing the image allocated %d bytes", n)
	}

	e = newEnv(t, func(c *media.Config) { c.DecodeBudget = 60 * 60 * 6 })
	media.SetDecodeHooks(e.upload, nil, meter.start, meter.end)
	_, err = e.handle(user, encodePNGImage(t, gradient16(60, 60, false)))
	refused(t, err, domain.CodeBadUserInput, "image too large to decode: it needs 28800 bytes of memory, at most 21600 bytes")
	if len(meter.charged) != 0 {
		t.Fatalf("decoded %d images over the budget", len(meter.charged))
	}
	// The same size in 8 bits fits.
	if _, err := e.handle(user, encodePNG(t, 60, 60)); err != nil {
		t.Fatal(err)
	}
}

// TestSixteenBitPNGIsStoredAs8Bit: a PNG of 16 bits per channel is stored with 8, each
// channel its high byte.
func TestSixteenBitPNGIsStoredAs8Bit(t *testing.T) {
	t.Parallel()
	const w, h = 40, 30
	gray := image.NewGray16(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			gray.SetGray16(x, y, color.Gray16{Y: uint16((x*w + y) * 65535 / (w * h))})
		}
	}
	rgb, rgba := gradient16(w, h, true), gradient16(w, h, false)
	for name, c := range map[string]struct {
		src  image.Image
		want func(x, y int) color.Color
	}{
		"RGB": {rgb, func(x, y int) color.Color {
			p := rgb.NRGBA64At(x, y)
			return color.RGBA{R: uint8(p.R >> 8), G: uint8(p.G >> 8), B: uint8(p.B >> 8), A: 0xff}
		}},
		"RGBA": {rgba, func(x, y int) color.Color {
			p := rgba.NRGBA64At(x, y)
			return color.NRGBA{R: uint8(p.R >> 8), G: uint8(p.G >> 8), B: uint8(p.B >> 8), A: uint8(p.A >> 8)}
		}},
		"grey": {gray, func(x, y int) color.Color { return color.Gray{Y: uint8(gray.Gray16At(x, y).Y >> 8)} }},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src := encodePNGImage(t, c.src)
			if src[24] != 16 {
				t.Fatalf("the source has %d bits per channel", src[24])
			}
			e := newEnv(t, nil)
			img, err := e.handle(user, src)
			if err != nil {
				t.Fatal(err)
			}
			_, file := e.store.last(t)
			if img.Width != w || img.Height != h || file.data[24] != 8 {
				t.Fatalf("stored %dx%d with %d bits per channel, want %dx%d with 8", img.Width, img.Height, file.data[24], w, h)
			}
			got, err := png.Decode(bytes.NewReader(file.data))
			if err != nil {
				t.Fatal(err)
			}
			for y := range h {
				for x := range w {
					if got.At(x, y) != c.want(x, y) {
						t.Fatalf("pixel (%d, %d) is %#v, want %#v", x, y, got.At(x, y), c.want(x, y))
					}
				}
			}
		})
	}
}

// TestDecodeChargeCoversWhatDecodingAllocates uploads images of each format and kind
// and compares what the decode was charged with what decoding and re-encoding
// allocated: the charge must cover it (give or take the encoders' fixed buffers) and
// not overstate it more than threefold, or images within the budget would be refused.
func TestDecodeChargeCoversWhatDecodingAllocates(t *testing.T) {
	// Not parallel: it measures what the decodes allocate.
	const w, h = 800, 600
	const slack = 5 << 18 // 1.25 MiB: zlib's and the encoders' own buffers, the output
	grey := image.NewGray(image.Rect(0, 0, w, h))
	for i := range grey.Pix {
		grey.Pix[i] = uint8(i / w)
	}
	paletted := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black, color.White, color.Gray{Y: 128}})
	for i := range paletted.Pix {
		paletted.Pix[i] = uint8(i / w % 3)
	}
	for name, src := range map[string][]byte{
		"PNG, 8-bit RGB":       encodePNG(t, w, h),
		"PNG, 16-bit RGBA":     encodePNGImage(t, gradient16(w, h, false)),
		"PNG, 8-bit grey":      encodePNGImage(t, grey),
		"PNG, palette":         encodePNGImage(t, paletted),
		"JPEG, colour":         encodeJPEG(t, w, h),
		"JPEG, grey":           encodeJPEGImage(t, grey),
		"GIF, two frames":      encodeGIF(t, w/2, h/2),
		"WebP, lossless":       webpFile(riffChunk("VP8L", vp8l(w, h, color.NRGBA{R: 9, A: 200}))),
		"WebP, lossless, VP8X": webpFile(riffChunk("VP8X", vp8x(0x10, w, h)), riffChunk("VP8L", vp8l(w, h, color.NRGBA{G: 9, A: 255}))),
	} {
		var charged, allocated int64
		var before, after runtime.MemStats
		e := newEnv(t, nil)
		media.SetDecodeHooks(e.upload, nil,
			func(b int64) {
				charged = b
				runtime.ReadMemStats(&before)
			},
			func(int64) {
				runtime.ReadMemStats(&after)
				allocated = int64(after.TotalAlloc - before.TotalAlloc)
			})
		if _, err := e.handle(user, src); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: charged %d bytes, allocated %d", name, charged, allocated)
		if allocated > charged+slack || charged > 3*allocated+slack {
			t.Errorf("%s: charged %d bytes, decoding allocated %d", name, charged, allocated)
		}
	}
}
