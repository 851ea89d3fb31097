package simpay

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

const (
	statusSucceeded = "SUCCEEDED"
	statusFailed    = "FAILED"
)

// FailingCents makes a payment fail: an amount whose last two digits (cents) are these
// is declined, as a card would be — for tests and demos — with DeclineReason.
const FailingCents = 13

// DeclineReason is why the simulated provider says it declined a payment.
const DeclineReason = "card declined (simulated: the amount ends in 13 cents)"

// Config configures the simulated provider.
type Config struct {
	// Secret signs the notifications.
	Secret []byte
	// NotifyURL is where notifications are posted; when it is empty, NotifyURLFunc is
	// asked for each post (for a server whose address is known only once it listens).
	NotifyURL     string
	NotifyURLFunc func() string
	// Delay is how long after a payment is created its notification is sent.
	Delay time.Duration
	// Attempts bounds the posts of one notification (default 8), Backoff the wait
	// after the first failed one (doubling; default 200ms).
	Attempts int
	Backoff  time.Duration
	Client   *http.Client
	Log      *slog.Logger
}

// Provider is the simulated payment provider (orders.PaymentProvider).
type Provider struct {
	cfg Config

	mu       sync.Mutex
	refs     map[int64]string // payment id -> provider ref
	refunded map[int64]bool

	stop chan struct{}
	once sync.Once
	wg   sync.WaitGroup
}

var _ orders.PaymentProvider = (*Provider)(nil)

// New returns a provider; Close stops its pending notifications.
func New(cfg Config) (*Provider, error) {
	if len(cfg.Secret) == 0 || (cfg.NotifyURL == "" && cfg.NotifyURLFunc == nil) {
		return nil, errors.New("simpay: a secret and a notify URL are required")
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 8
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 200 * time.Millisecond
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Provider{cfg: cfg, refs: map[int64]string{}, refunded: map[int64]bool{}, stop: make(chan struct{})}, nil
}

// Name implements orders.PaymentProvider.
func (p *Provider) Name() string { return "sim" }

// CreatePayment implements orders.PaymentProvider: it answers a reference at once and
// notifies the outcome after the delay. Asking again for a payment id answers the same
// reference and notifies nothing more.
func (p *Provider) CreatePayment(_ context.Context, pay domain.Payment) (string, error) {
	p.mu.Lock()
	if ref, ok := p.refs[pay.ID]; ok {
		p.mu.Unlock()
		return ref, nil
	}
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	ref := "sim_" + hex.EncodeToString(b[:])
	p.refs[pay.ID] = ref
	p.mu.Unlock()
	n := notification{PaymentID: strconv.FormatInt(pay.ID, 10), ProviderRef: ref, Status: statusSucceeded, Amount: pay.Amount}
	if pay.Amount%100 == FailingCents {
		n.Status, n.Reason = statusFailed, DeclineReason
	}
	p.wg.Add(1)
	go p.notify(n)
	return ref, nil
}

// notify posts n after the delay, retrying with back-off until a 2xx or the attempts
// run out.
func (p *Provider) notify(n notification) {
	defer p.wg.Done()
	wait := p.cfg.Delay
	for attempt := range p.cfg.Attempts {
		select {
		case <-p.stop:
			return
		case <-time.After(wait):
		}
		wait = p.cfg.Backoff << attempt
		n.At = time.Now().UTC()
		body, _ := json.Marshal(n)
		url := p.cfg.NotifyURL
		if url == "" {
			url = p.cfg.NotifyURLFunc()
		}
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			p.cfg.Log.Error("simulated payment provider: bad notify URL", slog.String("url", url), slog.Any("error", err))
			return
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(SignatureHeader, Sign(p.cfg.Secret, time.Now(), body))
		resp, err := p.cfg.Client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				return
			}
			err = fmt.Errorf("answered %s", resp.Status)
		}
		p.cfg.Log.Warn("simulated payment provider: notification not taken; sending it again", slog.String("payment_id", n.PaymentID),
			slog.Int("attempt", attempt+1), slog.Any("error", err))
	}
}

// Refund implements orders.PaymentProvider: once per payment.
func (p *Provider) Refund(_ context.Context, pay domain.Payment, _ string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refunded[pay.ID] = true
	return nil
}

// Refunded reports whether the payment was refunded.
func (p *Provider) Refunded(paymentID int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refunded[paymentID]
}

// Close stops the notifications not yet sent and waits for those being sent.
func (p *Provider) Close() error {
	p.once.Do(func() { close(p.stop) })
	p.wg.Wait()
	return nil
}
