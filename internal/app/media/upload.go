// Package media accepts image uploads: only real JPEG, PNG, WebP and GIF images within
// the configured size, recognised by their bytes and never by a name or a declared type,
// stored as a re-encoded copy without their metadata under a random name.
//
// An upload is read whole into memory (at most MaxBytes), checked and decoded there.
// Decoding may take far more memory than the upload (an 8000×5000 PNG of 16 bits per
// channel is 320 MB decoded, from a few hundred KB): every decode is charged what it
// will allocate, told from the image's header, against one budget (DecodeBudget) that
// all uploads through one Upload share — the composition root builds one per process.
// An image whose decode alone exceeds the budget is refused before decoding; others
// wait for their share, as long as their request lasts.
package media

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/dealspot/dealspot/internal/domain"
)

// Config bounds uploads.
type Config struct {
	// MaxBytes bounds the size of one upload (UPLOAD_MAX_BYTES).
	MaxBytes int64
	// MaxSide bounds an image's width and height, MaxPixels its width × height (for a
	// GIF, the sum over its frames) (UPLOAD_MAX_SIDE, UPLOAD_MAX_PIXELS).
	MaxSide   int
	MaxPixels int64
	// DecodeBudget bounds the bytes the decodes running at once may allocate, as told
	// from their headers (MEDIA_DECODE_BUDGET_BYTES).
	DecodeBudget int64
	// RatePerUser uploads are allowed per user in any RateWindow (UPLOAD_RATE_PER_USER;
	// 0: no limit).
	RatePerUser int
	RateWindow  time.Duration
}

// Deps are the adapters uploads need.
type Deps struct {
	Store Store
	// Uploads records who uploaded each image.
	Uploads Uploads
	// Limiter counts uploads per user; it may be nil when RatePerUser is 0.
	Limiter RateLimiter
}

// Upload is the image upload use case.
type Upload struct {
	cfg Config
	d   Deps
	// budget holds DecodeBudget bytes; each decode holds its decoded size while it runs.
	budget *semaphore.Weighted
	// hooks, set by tests only, are told of each decode.
	hooks decodeHooks
}

// decodeHooks are called with the bytes a decode is charged: waiting when it must wait
// for the budget, start once it has it, just before decoding, and end after.
type decodeHooks struct {
	waiting, start, end func(bytes int64)
}

// New checks cfg and d and returns the use case.
func New(cfg Config, d Deps) (*Upload, error) {
	switch {
	case d.Store == nil || d.Uploads == nil:
		return nil, errors.New("media: missing store or uploads")
	case cfg.MaxBytes < 1 || cfg.MaxSide < 1 || cfg.MaxPixels < 1 || cfg.DecodeBudget < 1:
		return nil, fmt.Errorf("media: size limits must be positive (bytes %d, side %d, pixels %d, decode budget %d)",
			cfg.MaxBytes, cfg.MaxSide, cfg.MaxPixels, cfg.DecodeBudget)
	case cfg.MaxBytes == math.MaxInt64:
		return nil, errors.New("media: MaxBytes must leave room to notice a larger upload")
	case cfg.RatePerUser < 0:
		return nil, fmt.Errorf("media: negative upload rate %d", cfg.RatePerUser)
	case cfg.RatePerUser > 0 && (cfg.RateWindow <= 0 || d.Limiter == nil):
		return nil, errors.New("media: a rate per user needs a positive window and a rate limiter")
	}
	return &Upload{cfg: cfg, d: d, budget: semaphore.NewWeighted(cfg.DecodeBudget)}, nil
}

// Handle stores the image read from r on behalf of a, records a as its uploader (who
// may delete it) and returns where it is served.
// declaredSize is the size the client announced (-1 or 0 when unknown); it only refuses
// early, and r is never read past MaxBytes+1 bytes.
//
// Errors: UNAUTHENTICATED without a logged-in user; RATE_LIMITED with RetryAfterSeconds
// past RatePerUser uploads in RateWindow; BAD_USER_INPUT for anything that is not a
// well-formed JPEG, PNG, WebP or GIF within the limits, the decode budget included;
// ctx's error, wrapped, when ctx ends while waiting for the decode budget; INTERNAL when
// reading r, the limiter or the store fails.
func (u *Upload) Handle(ctx context.Context, a domain.Actor, r io.Reader, declaredSize int64) (domain.Image, error) {
	if !a.Authenticated() {
		return domain.Image{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	if declaredSize > u.cfg.MaxBytes {
		return domain.Image{}, u.tooManyBytes()
	}
	if err := u.allow(ctx, a); err != nil {
		return domain.Image{}, err
	}
	data, err := io.ReadAll(io.LimitReader(r, u.cfg.MaxBytes+1))
	if err != nil {
		return domain.Image{}, fmt.Errorf("read upload: %w", err)
	}
	if int64(len(data)) > u.cfg.MaxBytes {
		return domain.Image{}, u.tooManyBytes()
	}
	c, err := u.clean(ctx, data)
	if err != nil {
		return domain.Image{}, err
	}
	url, err := u.d.Store.Put(ctx, randomName()+c.format.ext, c.format.contentType, c.data)
	if err != nil {
		return domain.Image{}, fmt.Errorf("store image: %w", err)
	}
	img := domain.Image{URL: url, Width: c.width, Height: c.height, ContentType: c.format.contentType}
	if err := u.d.Uploads.AddUpload(ctx, domain.Upload{UserID: a.UserID, Image: img}); err != nil {
		// An image nobody owns could never be deleted: it goes too.
		if _, derr := u.d.Store.Delete(context.WithoutCancel(ctx), url); derr != nil {
			err = errors.Join(err, fmt.Errorf("delete the image again: %w", derr))
		}
		return domain.Image{}, fmt.Errorf("record upload: %w", err)
	}
	return img, nil
}

// allow counts one upload of a against the per-user rate.
func (u *Upload) allow(ctx context.Context, a domain.Actor) error {
	if u.cfg.RatePerUser == 0 {
		return nil
	}
	ok, retry, err := u.d.Limiter.Allow(ctx, "user:upload:"+strconv.FormatInt(a.UserID, 10), u.cfg.RatePerUser, u.cfg.RateWindow)
	if err != nil {
		return fmt.Errorf("upload rate limit: %w", err)
	}
	if !ok {
		return &domain.Error{Code: domain.CodeRateLimited, Message: "too many uploads; try again later",
			RetryAfterSeconds: seconds(retry)}
	}
	return nil
}

// cleaned is an accepted image: what to store and its displayed size.
type cleaned struct {
	format        *format
	data          []byte
	width, height int
}

// clean accepts data only if it is a well-formed image of a known format within the
// limits, and returns the copy to store. The checks run cheapest first, and nothing is
// decoded before the declared dimensions passed.
func (u *Upload) clean(ctx context.Context, data []byte) (cleaned, error) {
	f := sniff(data)
	if f == nil {
		return cleaned{}, errNotImage
	}
	if containsMarkup(data) {
		return cleaned{}, badInput("not a valid image: it contains markup or script")
	}
	layout, err := f.layout(data)
	if err != nil {
		return cleaned{}, damaged(err)
	}
	// Data after a PNG's, GIF's or WebP's end is refused (a script glued to an image
	// makes a polyglot). Phones append data to JPEGs (motion photos, HDR gain maps):
	// that is dropped, as the stored copy is re-encoded from the image proper.
	if layout.end < len(data) && f != formatJPEG {
		return cleaned{}, badInput("not a valid image: there is data after the end of the image")
	}
	data = data[:layout.end]
	if layout.animated {
		return cleaned{}, badInput("animated " + f.name + " images are not accepted")
	}
	cfg, err := f.decodeConfig(bytes.NewReader(data))
	if err != nil {
		return cleaned{}, damaged(err)
	}
	if cfg.Width < 1 || cfg.Height < 1 {
		return cleaned{}, damaged(fmt.Errorf("%dx%d pixels", cfg.Width, cfg.Height))
	}
	if cfg.Width > u.cfg.MaxSide || cfg.Height > u.cfg.MaxSide {
		return cleaned{}, badInput(fmt.Sprintf("image too large: at most %dx%d pixels", u.cfg.MaxSide, u.cfg.MaxSide))
	}
	if int64(cfg.Width)*int64(cfg.Height) > u.cfg.MaxPixels || layout.framePixels > u.cfg.MaxPixels {
		return cleaned{}, badInput(fmt.Sprintf("image too large: at most %d pixels", u.cfg.MaxPixels))
	}
	cost := f.decodedBytes(cfg, layout)
	if cost > u.cfg.DecodeBudget {
		return cleaned{}, badInput(fmt.Sprintf("image too large to decode: it needs %s of memory, at most %s",
			formatBytes(cost, true), formatBytes(u.cfg.DecodeBudget, false)))
	}
	if err := u.acquire(ctx, cost); err != nil {
		return cleaned{}, err
	}
	defer u.budget.Release(cost)
	if u.hooks.start != nil {
		u.hooks.start(cost)
		defer u.hooks.end(cost)
	}
	out, err := f.reencode(data, layout)
	if err != nil {
		return cleaned{}, err
	}
	w, h := cfg.Width, cfg.Height
	if layout.orientation >= 5 {
		// Orientations 5–8 turn the image a quarter: it is displayed h wide.
		w, h = h, w
	}
	return cleaned{format: f, data: out, width: w, height: h}, nil
}

// acquire takes cost bytes of the decode budget, waiting while ctx lasts; a decode
// that comes later waits behind one already waiting, so large images are not starved.
func (u *Upload) acquire(ctx context.Context, cost int64) error {
	if u.budget.TryAcquire(cost) {
		return nil
	}
	if u.hooks.waiting != nil {
		u.hooks.waiting(cost)
	}
	if err := u.budget.Acquire(ctx, cost); err != nil {
		return fmt.Errorf("wait for the decode budget: %w", err)
	}
	return nil
}

// formatBytes writes n bytes in MB (MiB) to a tenth, rounded up or down, or in bytes
// below 1 MB: a need rounded up and a limit rounded down never read the same.
func formatBytes(n int64, up bool) string {
	if n < 1<<20 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	round := math.Floor
	if up {
		round = math.Ceil
	}
	return strconv.FormatFloat(round(float64(n)/(1<<20)*10)/10, 'f', 1, 64) + " MB"
}

// errNotImage refuses data of no accepted format.
var errNotImage = badInput("not an image: only JPEG, PNG, WebP and GIF are accepted")

func (u *Upload) tooManyBytes() error {
	return badInput(fmt.Sprintf("image too large: at most %d bytes", u.cfg.MaxBytes))
}

func badInput(msg string) *domain.Error {
	return &domain.Error{Code: domain.CodeBadUserInput, Message: msg}
}

// damaged refuses an image its format's reader could not follow; cause is kept for the
// log, never shown.
func damaged(cause error) error {
	return &domain.Error{Code: domain.CodeBadUserInput, Message: "not a valid image: the file is damaged or incomplete", Err: cause}
}

// randomName is 128 random bits in hex: names nobody can guess or collide with.
func randomName() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it crashes the program instead)
	return hex.EncodeToString(b[:])
}

// seconds rounds d up to whole seconds, so a client that waits that long is let in.
func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(math.Ceil(d.Seconds()))
}
