package sms_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/adapters/sms"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
)

// loggedCodes is a slog handler keeping the phone and code of every record logged.
type loggedCodes struct {
	mu  sync.Mutex
	got []authtest.Delivery
}

func (h *loggedCodes) Enabled(context.Context, slog.Level) bool { return true }
func (h *loggedCodes) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *loggedCodes) WithGroup(string) slog.Handler            { return h }

func (h *loggedCodes) Handle(_ context.Context, r slog.Record) error {
	var d authtest.Delivery
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "phone":
			d.Phone = a.Value.String()
		case "code":
			d.Code = a.Value.String()
		}
		return true
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, d)
	return nil
}

func (h *loggedCodes) delivered() []authtest.Delivery {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]authtest.Delivery(nil), h.got...)
}

// Both senders meet the CodeSender contract: the log's records and the gateway's
// requests carry every code to its phone.
func TestCodeSenderContract(t *testing.T) {
	t.Parallel()
	t.Run("log", func(t *testing.T) {
		t.Parallel()
		authtest.CodeSenderContract(t, func(t *testing.T) (auth.CodeSender, func() []authtest.Delivery) {
			h := &loggedCodes{}
			s, err := sms.NewLogSender(slog.New(h))
			if err != nil {
				t.Fatal(err)
			}
			return s, h.delivered
		})
	})
	t.Run("webhook", func(t *testing.T) {
		t.Parallel()
		authtest.CodeSenderContract(t, func(t *testing.T) (auth.CodeSender, func() []authtest.Delivery) {
			g := &gateway{}
			return newWebhook(t, g, nil), func() []authtest.Delivery {
				g.mu.Lock()
				defer g.mu.Unlock()
				var out []authtest.Delivery
				for _, body := range g.bodies {
					var p sms.WebhookPayload
					if err := json.Unmarshal(body, &p); err != nil {
						t.Errorf("webhook body %q: %v", body, err)
					}
					out = append(out, authtest.Delivery{Phone: p.Phone, Code: p.Code})
				}
				return out
			}
		})
	})
}
