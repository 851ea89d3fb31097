package auth_test

import (
	"context"
	"encoding/base64"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/auth/authtest"
	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/domain"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// env is the login service on the in-memory fakes of its ports, with a settable clock.
type env struct {
	svc     *auth.Service
	cfg     auth.Config
	users   *authtest.MemUsers
	sender  *authtest.MemSender
	clock   *contracttest.Clock
	tokens  *authtest.MemTokens
	records *authtest.MemRecords
	cache   *authtest.MemSessionCache
	codes   *authtest.MemCodeStore
	limiter *authtest.MemRateLimiter
}

func newEnv(t *testing.T, configure func(*auth.Config)) *env {
	t.Helper()
	cfg := auth.DefaultConfig()
	cfg.JWTSecret = testSecret
	cfg.IPLimits = false
	if configure != nil {
		configure(&cfg)
	}
	e := &env{cfg: cfg, users: authtest.NewMemUsers(), sender: &authtest.MemSender{}, clock: contracttest.NewClock(), tokens: &authtest.MemTokens{},
		records: authtest.NewMemRecords(), cache: authtest.NewMemSessionCache()}
	e.codes, e.limiter = authtest.NewMemCodeStore(e.clock.Now), authtest.NewMemRateLimiter(e.clock.Now)
	e.start(t)
	return e
}

// newEnvSharing is a second service on the stores and clock of e (another node, or the
// same deployment restarted with other settings), configured from e's settings.
func newEnvSharing(t *testing.T, e *env, configure func(*auth.Config)) *env {
	t.Helper()
	o := *e
	if configure != nil {
		configure(&o.cfg)
	}
	o.start(t)
	return &o
}

func (e *env) start(t *testing.T) {
	t.Helper()
	svc, err := auth.New(e.cfg, auth.Deps{
		Users:          e.users,
		Sender:         e.sender,
		Codes:          e.codes,
		SessionRecords: e.records,
		SessionCache:   e.cache,
		Limiter:        e.limiter,
		Tokens:         e.tokens,
		Now:            e.clock.Now,
	})
	if err != nil {
		t.Fatalf("auth.New: %v", err)
	}
	e.svc = svc
}

// code asks for a login code for phone and returns it.
func (e *env) code(t *testing.T, phone string) string {
	t.Helper()
	if _, err := e.svc.SendLoginCode.Handle(context.Background(), phone, ""); err != nil {
		t.Fatalf("SendLoginCode(%s): %v", phone, err)
	}
	sent := e.sender.Sent(phone)
	return sent[len(sent)-1]
}

// login logs phone in, asking for a code first.
func (e *env) login(t *testing.T, phone string) auth.Session {
	t.Helper()
	s, err := e.svc.Login.Handle(context.Background(), phone, e.code(t, phone), "")
	if err != nil {
		t.Fatalf("Login(%s): %v", phone, err)
	}
	return s
}

// wantCode fails unless err carries code.
func wantCode(t *testing.T, err error, code domain.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	if got := domain.ErrorCode(err); got != code {
		t.Fatalf("got error %v (code %s), want %s", err, got, code)
	}
}

// wantRetryAfter fails unless err is RATE_LIMITED with that many seconds to wait.
func wantRetryAfter(t *testing.T, err error, seconds int) {
	t.Helper()
	wantCode(t, err, domain.CodeRateLimited)
	var e *domain.Error
	if !errors.As(err, &e) || e.RetryAfterSeconds != seconds {
		t.Fatalf("RetryAfterSeconds of %v: want %d", err, seconds)
	}
}

// at is a shorthand for the clock's time plus d.
func (e *env) at(d time.Duration) time.Time { return e.clock.Now().Add(d) }

// principalOf authenticates s's access token.
func principalOf(t *testing.T, e *env, s auth.Session) auth.Principal {
	t.Helper()
	p, err := e.svc.Authenticate.Handle(context.Background(), s.AccessToken)
	if err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	return p
}

// auth0 is the anonymous principal.
func auth0() auth.Principal { return auth.Principal{} }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func jwtSegment(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }
