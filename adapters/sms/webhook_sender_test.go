package sms_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/sms"
)

var webhookSecret = []byte("webhook-secret-0123456789")

// gateway is a fake SMS gateway answering with the statuses given, then 200.
type gateway struct {
	mu       sync.Mutex
	statuses []int
	hang     time.Duration // each request waits this long first
	requests []*http.Request
	bodies   [][]byte
}

func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	g.mu.Lock()
	g.requests = append(g.requests, r)
	g.bodies = append(g.bodies, body)
	status := http.StatusOK
	if len(g.statuses) > 0 {
		status, g.statuses = g.statuses[0], g.statuses[1:]
	}
	hang := g.hang
	g.mu.Unlock()
	if hang > 0 {
		select {
		case <-time.After(hang):
		case <-r.Context().Done():
			return
		}
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"echo":"123456"}`)) // a gateway that echoes the code
}

func (g *gateway) calls() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.requests)
}

func newWebhook(t *testing.T, g *gateway, change func(*sms.WebhookConfig)) *sms.WebhookSender {
	t.Helper()
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	cfg := sms.WebhookConfig{
		URL: srv.URL + "/sms", Secret: webhookSecret,
		Timeout: 5 * time.Second, AttemptTimeout: time.Second, Attempts: 3, Backoff: time.Millisecond,
		Now: func() time.Time { return time.Unix(1_900_000_000, 0) },
	}
	if change != nil {
		change(&cfg)
	}
	s, err := sms.NewWebhookSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestWebhookSenderPostsASignedBody(t *testing.T) {
	t.Parallel()
	g := &gateway{}
	s := newWebhook(t, g, nil)
	if err := s.Send(context.Background(), "13800000000", "123456"); err != nil {
		t.Fatal(err)
	}
	if g.calls() != 1 {
		t.Fatalf("%d requests, want 1", g.calls())
	}
	r, body := g.requests[0], g.bodies[0]
	var p sms.WebhookPayload
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/sms" || r.Header.Get("Content-Type") != "application/json" ||
		p.Phone != "13800000000" || p.Code != "123456" || p.Purpose != "login" || p.ID == "" {
		t.Fatalf("request %s %s %v, payload %+v", r.Method, r.URL.Path, r.Header, p)
	}
	ts := r.Header.Get(sms.TimestampHeader)
	if ts != "1900000000" {
		t.Fatalf("timestamp %q", ts)
	}
	if got, want := r.Header.Get(sms.SignatureHeader), sms.Sign(webhookSecret, ts, body); got != want || !strings.HasPrefix(got, "v1=") {
		t.Fatalf("signature %q, want %q", got, want)
	}
	if r.Header.Get(sms.IdempotencyHeader) != p.ID {
		t.Fatalf("idempotency key %q, id %q", r.Header.Get(sms.IdempotencyHeader), p.ID)
	}
	if sms.Sign([]byte("another-secret-0123456789"), ts, body) == sms.Sign(webhookSecret, ts, body) ||
		sms.Sign(webhookSecret, "1900000001", body) == sms.Sign(webhookSecret, ts, body) {
		t.Fatal("the signature does not depend on the secret and the timestamp")
	}
}

func TestWebhookSenderRetries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		statuses  []int
		wantCalls int
		wantErr   bool
	}{
		{"5xx then success", []int{503, 500}, 3, false},
		{"429 then success", []int{429}, 2, false},
		{"5xx every time gives up after the attempts", []int{502, 502, 502, 502}, 3, true},
		{"4xx is not retried", []int{400}, 1, true},
		{"a redirect is not followed", []int{302}, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := &gateway{statuses: tc.statuses}
			err := newWebhook(t, g, nil).Send(context.Background(), "13800000000", "123456")
			if (err != nil) != tc.wantErr || g.calls() != tc.wantCalls {
				t.Fatalf("Send: %v after %d calls, want error %v after %d", err, g.calls(), tc.wantErr, tc.wantCalls)
			}
			if err != nil && strings.Contains(err.Error(), "123456") {
				t.Fatalf("error %q shows the code", err)
			}
			ids := map[string]bool{}
			for _, r := range g.requests {
				ids[r.Header.Get(sms.IdempotencyHeader)] = true
			}
			if len(ids) != 1 {
				t.Fatalf("retries of one code carry %d ids, want 1", len(ids))
			}
		})
	}
}

func TestWebhookSenderTimesOut(t *testing.T) {
	t.Parallel()
	t.Run("a hanging request is retried", func(t *testing.T) {
		t.Parallel()
		g := &gateway{hang: time.Hour}
		s := newWebhook(t, g, func(c *sms.WebhookConfig) { c.AttemptTimeout = 50 * time.Millisecond })
		start := time.Now()
		err := s.Send(context.Background(), "13800000000", "123456")
		if err == nil || g.calls() != 3 {
			t.Fatalf("Send: %v after %d calls, want an error after 3", err, g.calls())
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Send took %v", d)
		}
		if strings.Contains(err.Error(), "123456") || strings.Contains(err.Error(), "/sms") {
			t.Fatalf("error %q shows the code or the URL", err)
		}
	})
	t.Run("the whole send is bounded", func(t *testing.T) {
		t.Parallel()
		g := &gateway{hang: time.Hour}
		s := newWebhook(t, g, func(c *sms.WebhookConfig) {
			c.Timeout, c.AttemptTimeout, c.Attempts = 150*time.Millisecond, time.Hour, 10
		})
		start := time.Now()
		if err := s.Send(context.Background(), "13800000000", "123456"); err == nil {
			t.Fatal("Send to a hanging gateway succeeded")
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Send took %v, want about 150ms", d)
		}
	})
}

func TestNewWebhookSenderRefusesBadConfigs(t *testing.T) {
	t.Parallel()
	good := sms.WebhookConfig{URL: "https://sms.example/hook", Secret: webhookSecret,
		Timeout: time.Second, AttemptTimeout: time.Second, Attempts: 1}
	if _, err := sms.NewWebhookSender(good); err != nil {
		t.Fatalf("good config refused: %v", err)
	}
	for name, change := range map[string]func(*sms.WebhookConfig){
		"no URL":         func(c *sms.WebhookConfig) { c.URL = "" },
		"not http":       func(c *sms.WebhookConfig) { c.URL = "ftp://sms.example/" },
		"short secret":   func(c *sms.WebhookConfig) { c.Secret = []byte("short") },
		"no timeout":     func(c *sms.WebhookConfig) { c.Timeout = 0 },
		"no attempts":    func(c *sms.WebhookConfig) { c.Attempts = 0 },
		"negative delay": func(c *sms.WebhookConfig) { c.Backoff = -time.Second },
	} {
		c := good
		change(&c)
		if _, err := sms.NewWebhookSender(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
