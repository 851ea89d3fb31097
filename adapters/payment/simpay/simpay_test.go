package simpay_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/payment/simpay"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

var secret = []byte("test-secret")

// recorder is the app side: it records notifications and fails the first failFirst.
type recorder struct {
	mu        sync.Mutex
	got       []orders.Notification
	failFirst int
	calls     int
}

func (r *recorder) notify(_ context.Context, n orders.Notification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.calls <= r.failFirst {
		return errors.New("database away")
	}
	r.got = append(r.got, n)
	return nil
}

func (r *recorder) wait(t *testing.T, n int) []orders.Notification {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r.mu.Lock()
		got := append([]orders.Notification(nil), r.got...)
		r.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d notifications, want %d", len(got), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func setup(t *testing.T, rec *recorder) (*simpay.Provider, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(simpay.Handler(simpay.Verifier{Secret: secret, Tolerance: time.Minute}, rec.notify, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	p, err := simpay.New(simpay.Config{Secret: secret, NotifyURL: srv.URL, Delay: 10 * time.Millisecond, Backoff: 10 * time.Millisecond,
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p, srv
}

func TestProviderNotifiesSignedOutcomes(t *testing.T) {
	t.Parallel()
	rec := &recorder{failFirst: 2} // the first two posts answer 500: the provider sends again
	p, _ := setup(t, rec)
	ctx := context.Background()
	ref, err := p.CreatePayment(ctx, domain.Payment{ID: 41, Amount: 990})
	if err != nil || !strings.HasPrefix(ref, "sim_") {
		t.Fatalf("create: %q, %v", ref, err)
	}
	if again, _ := p.CreatePayment(ctx, domain.Payment{ID: 41, Amount: 990}); again != ref {
		t.Errorf("second create answered %q, want %q", again, ref)
	}
	if _, err := p.CreatePayment(ctx, domain.Payment{ID: 42, Amount: 1013}); err != nil {
		t.Fatal(err)
	}
	got := rec.wait(t, 2)
	time.Sleep(100 * time.Millisecond)
	rec.mu.Lock()
	if len(rec.got) != 2 {
		t.Errorf("%d notifications for 2 payments (a second create notified again?)", len(rec.got))
	}
	rec.mu.Unlock()
	by := map[int64]orders.Notification{}
	for _, n := range got {
		by[n.PaymentID] = n
	}
	if n := by[41]; !n.Succeeded || n.Amount != 990 || n.ProviderRef != ref || n.At.IsZero() {
		t.Errorf("payment 41: %+v", n)
	}
	if n := by[42]; n.Succeeded {
		t.Errorf("payment 42 (amount ending in 13 cents) succeeded: %+v", n)
	}
	if err := p.Refund(ctx, domain.Payment{ID: 41}, "x"); err != nil || !p.Refunded(41) || p.Refunded(42) {
		t.Errorf("refund: %v, refunded 41 %v, 42 %v", err, p.Refunded(41), p.Refunded(42))
	}
}

func TestHandlerRefusesWhatIsNotSignedNow(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	_, srv := setup(t, rec)
	body := `{"paymentId":"7","providerRef":"sim_x","status":"SUCCEEDED","amount":100,"at":"2026-11-23T10:00:00Z"}`
	post := func(method, body, sig string) int {
		req, _ := http.NewRequest(method, srv.URL, strings.NewReader(body))
		if sig != "" {
			req.Header.Set(simpay.SignatureHeader, sig)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	now := time.Now()
	cases := []struct {
		name, method, body, sig string
		want                    int
	}{
		{"good", http.MethodPost, body, simpay.Sign(secret, now, []byte(body)), http.StatusNoContent},
		{"no signature", http.MethodPost, body, "", http.StatusUnauthorized},
		{"forged", http.MethodPost, body, simpay.Sign([]byte("other"), now, []byte(body)), http.StatusUnauthorized},
		{"tampered body", http.MethodPost, strings.Replace(body, "100", "1", 1), simpay.Sign(secret, now, []byte(body)), http.StatusUnauthorized},
		{"stale", http.MethodPost, body, simpay.Sign(secret, now.Add(-time.Hour), []byte(body)), http.StatusUnauthorized},
		{"bad body", http.MethodPost, "{", simpay.Sign(secret, now, []byte("{")), http.StatusBadRequest},
		{"wrong method", http.MethodGet, "", "", http.StatusMethodNotAllowed},
		{"too large", http.MethodPost, strings.Repeat("x", 70<<10), "", http.StatusBadRequest},
	}
	for _, c := range cases {
		if got := post(c.method, c.body, c.sig); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	if got := rec.wait(t, 1); len(got) != 1 || got[0].PaymentID != 7 || !got[0].Succeeded || got[0].Amount != 100 {
		t.Errorf("applied %+v, want only the good one", got)
	}
}
