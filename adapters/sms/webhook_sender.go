package sms

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mathrand "math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// Headers of a webhook request. The signature is
// "v1=" + hex(HMAC-SHA256(secret, timestamp + "." + body)), so a gateway can check both
// who sent the body and when (refusing old timestamps stops replays).
const (
	TimestampHeader   = "X-Dealspot-Timestamp"
	SignatureHeader   = "X-Dealspot-Signature"
	IdempotencyHeader = "Idempotency-Key"
)

// MinWebhookSecretLen is the shortest signing secret accepted.
const MinWebhookSecretLen = 16

// WebhookConfig configures a WebhookSender.
type WebhookConfig struct {
	// URL receives one POST per code (http or https).
	URL string
	// Secret keys the HMAC-SHA256 signature of every request.
	Secret []byte
	// Timeout bounds a whole Send, retries included; AttemptTimeout bounds one request.
	Timeout        time.Duration
	AttemptTimeout time.Duration
	// Attempts is the most requests per code (1: no retry).
	Attempts int
	// Backoff is the wait before the first retry; it doubles before each further one
	// (each wait drawn between half and all of it).
	Backoff time.Duration
	// Client sends the requests; nil uses a client of its own. Redirects are never
	// followed: a code goes to the configured URL or nowhere.
	Client *http.Client
	// Now is the clock of the signature's timestamp; nil means time.Now.
	Now func() time.Time
}

// WebhookPayload is the JSON body of a webhook request.
type WebhookPayload struct {
	// ID is the same on every retry of one code, for the gateway to drop duplicates.
	ID      string `json:"id"`
	Phone   string `json:"phone"`
	Code    string `json:"code"`
	Purpose string `json:"purpose"`
}

// WebhookSender delivers login codes by POSTing them, signed, to an SMS gateway. It retries
// timeouts, network errors, 429 and 5xx answers with back-off, within a bounded time.
type WebhookSender struct {
	cfg    WebhookConfig
	client *http.Client
}

var _ auth.CodeSender = (*WebhookSender)(nil)

// NewWebhookSender checks cfg and returns a WebhookSender.
func NewWebhookSender(cfg WebhookConfig) (*WebhookSender, error) {
	u, err := url.Parse(cfg.URL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return nil, errors.New("sms webhook: the URL must be http(s)://host/…")
	case len(cfg.Secret) < MinWebhookSecretLen:
		return nil, fmt.Errorf("sms webhook: the secret must be at least %d bytes", MinWebhookSecretLen)
	case cfg.Timeout <= 0 || cfg.AttemptTimeout <= 0 || cfg.Attempts < 1 || cfg.Backoff < 0:
		return nil, errors.New("sms webhook: timeouts and attempts must be positive")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	client := &http.Client{}
	if cfg.Client != nil {
		c := *cfg.Client
		client = &c
	}
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	cfg.Secret = append([]byte(nil), cfg.Secret...)
	return &WebhookSender{cfg: cfg, client: client}, nil
}

// Send implements auth.CodeSender. Errors never contain the code.
func (s *WebhookSender) Send(ctx context.Context, phone, code string) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	id := newID()
	body, err := json.Marshal(WebhookPayload{ID: id, Phone: phone, Code: code, Purpose: "login"})
	if err != nil {
		return fmt.Errorf("sms webhook: encode: %w", err)
	}
	wait := s.cfg.Backoff
	for attempt := 1; ; attempt++ {
		retry, err := s.post(ctx, body, id)
		if err == nil {
			return nil
		}
		err = fmt.Errorf("sms webhook: attempt %d of %d: %w", attempt, s.cfg.Attempts, err)
		if !retry || attempt == s.cfg.Attempts {
			return err
		}
		if wait > 0 {
			d := wait/2 + mathrand.N(wait/2+1)
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return fmt.Errorf("%w; no time left to retry", err)
			case <-t.C:
			}
			wait *= 2
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w; no time left to retry", err)
		}
	}
}

// post sends one signed request and reports whether a failure is worth retrying.
func (s *WebhookSender) post(ctx context.Context, body []byte, id string) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.AttemptTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return false, errors.New("build request")
	}
	ts := strconv.FormatInt(s.cfg.Now().Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(TimestampHeader, ts)
	req.Header.Set(SignatureHeader, Sign(s.cfg.Secret, ts, body))
	req.Header.Set(IdempotencyHeader, id)
	resp, err := s.client.Do(req)
	if err != nil {
		// The *url.Error names the URL, which may carry a token of the gateway's: keep
		// only the cause.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return true, err
	}
	// The gateway's answer is never shown: it might echo the code.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return false, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return true, fmt.Errorf("gateway answered %d", resp.StatusCode)
	default:
		return false, fmt.Errorf("gateway refused with %d", resp.StatusCode)
	}
}

// Sign returns the signature header value of body sent at timestamp ts (Unix seconds).
func Sign(secret []byte, ts string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return "v1=" + hex.EncodeToString(m.Sum(nil))
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
