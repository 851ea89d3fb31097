package auth_test

import (
	"context"
	"encoding/base64"
	"errors"
	mathrand "math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/adapters/redis/redistest"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// memUsers is an in-memory auth.Users.
type memUsers struct {
	mu     sync.Mutex
	nextID int64
	byID   map[int64]domain.User
}

// newMemUsers starts ids at a random point: tests sharing a Redis database must not share
// user ids, or they would share sessions.
func newMemUsers() *memUsers {
	return &memUsers{byID: map[int64]domain.User{}, nextID: mathrand.Int64N(1 << 40)}
}

func (m *memUsers) UserByPhone(_ context.Context, phone string) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, u := range m.byID {
		if u.Phone == phone {
			return u, nil
		}
	}
	return domain.User{}, domain.ErrNotFound
}

func (m *memUsers) User(_ context.Context, id int64) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.byID[id]
	if !ok {
		return domain.User{}, domain.ErrNotFound
	}
	return u, nil
}

func (m *memUsers) CreateUser(_ context.Context, u domain.User) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, o := range m.byID {
		if o.Phone == u.Phone {
			return domain.User{}, domain.ErrConflict
		}
	}
	m.nextID++
	u.ID = m.nextID
	m.byID[u.ID] = u
	return u, nil
}

func (m *memUsers) SetRole(_ context.Context, phone string, role domain.Role) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, u := range m.byID {
		if u.Phone == phone {
			u.Role = role
			m.byID[id] = u
			return u, nil
		}
	}
	return domain.User{}, domain.ErrNotFound
}

func (m *memUsers) SetBlocked(_ context.Context, phone string, blocked bool) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, u := range m.byID {
		if u.Phone == phone {
			u.Blocked = blocked
			m.byID[id] = u
			return u, nil
		}
	}
	return domain.User{}, domain.ErrNotFound
}

func (m *memUsers) SetRoleByID(_ context.Context, id int64, role domain.Role) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.byID[id]
	if !ok {
		return domain.User{}, domain.ErrNotFound
	}
	u.Role = role
	m.byID[id] = u
	return u, nil
}

func (m *memUsers) SetBlockedByID(_ context.Context, id int64, blocked bool) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.byID[id]
	if !ok {
		return domain.User{}, domain.ErrNotFound
	}
	u.Blocked = blocked
	m.byID[id] = u
	return u, nil
}

func (m *memUsers) block(id int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.byID[id]
	u.Blocked = true
	m.byID[id] = u
}

func (m *memUsers) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byID)
}

// memSender records the codes it is asked to deliver.
type memSender struct {
	mu    sync.Mutex
	codes map[string][]string
	err   error
}

func (s *memSender) Send(_ context.Context, phone, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if s.codes == nil {
		s.codes = map[string][]string{}
	}
	s.codes[phone] = append(s.codes[phone], code)
	return nil
}

func (s *memSender) sent(phone string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.codes[phone]...)
}

// env is the login service on one Redis server, with a settable clock.
// memTokens is an auth.VerifiedTokens that forgets nothing, TTLs included, so that the
// expiry the service keeps with each entry is what stops an expired token.
type memTokens struct {
	mu   sync.Mutex
	m    map[string]any
	ttls []time.Duration
	hits int
}

func (m *memTokens) Get(key string) (any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	if ok {
		m.hits++
	}
	return v, ok
}

func (m *memTokens) Set(key string, value any, ttl time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]any{}
	}
	m.m[key] = value
	m.ttls = append(m.ttls, ttl)
}

func (m *memTokens) stats() (hits int, ttls []time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hits, append([]time.Duration(nil), m.ttls...)
}

// memRecords is an in-memory auth.SessionRecords. down makes every call fail, as a
// database that is out of reach; reads counts Family calls.
type memRecords struct {
	mu       sync.Mutex
	families map[string]*memFamily
	down     bool
	reads    int
	// readGate, when set, holds every Family call's answer until it is closed.
	readGate chan struct{}
}

type memFamily struct {
	user      int64
	current   string
	spent     map[string]bool
	expiresAt time.Time
	revoked   bool
}

var errDown = errors.New("database unreachable")

func newMemRecords() *memRecords { return &memRecords{families: map[string]*memFamily{}} }

func (m *memRecords) setDown(down bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.down = down
}

func (m *memRecords) readCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reads
}

func (m *memRecords) CreateFamily(_ context.Context, userID int64, familyID, tokenHash string, expiresAt time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return errDown
	}
	m.families[familyID] = &memFamily{user: userID, current: tokenHash, spent: map[string]bool{}, expiresAt: expiresAt}
	return nil
}

func (m *memRecords) live(userID int64, familyID string, now time.Time) *memFamily {
	f := m.families[familyID]
	if f == nil || f.user != userID || f.revoked || !f.expiresAt.After(now) {
		return nil
	}
	return f
}

func (m *memRecords) RotateFamily(_ context.Context, userID int64, familyID, oldHash, newHash string, now, expiresAt time.Time) (auth.Rotation, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return auth.RefreshUnknown, errDown
	}
	f := m.live(userID, familyID, now)
	switch {
	case f == nil:
		return auth.RefreshUnknown, nil
	case f.current == oldHash:
		f.spent[oldHash] = true
		f.current, f.expiresAt = newHash, expiresAt
		return auth.RefreshRotated, nil
	case f.spent[oldHash]:
		f.revoked = true
		return auth.RefreshReused, nil
	}
	return auth.RefreshUnknown, nil
}

func (m *memRecords) Family(_ context.Context, userID int64, familyID string, now time.Time) (bool, time.Time, error) {
	m.mu.Lock()
	m.reads++
	gate, down := m.readGate, m.down
	var live bool
	var exp time.Time
	if f := m.live(userID, familyID, now); f != nil {
		live, exp = true, f.expiresAt
	}
	m.mu.Unlock()
	if gate != nil { // the answer is read; hold it back
		<-gate
	}
	if down {
		return false, time.Time{}, errDown
	}
	return live, exp, nil
}

func (m *memRecords) RevokeFamily(_ context.Context, userID int64, familyID string, _ time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return errDown
	}
	if f := m.families[familyID]; f != nil && f.user == userID {
		f.revoked = true
	}
	return nil
}

func (m *memRecords) RevokeFamilies(_ context.Context, userID int64, now time.Time) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return nil, errDown
	}
	var ids []string
	for id, f := range m.families {
		if f.user == userID && f.expiresAt.After(now) {
			f.revoked = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

func (m *memRecords) DeleteExpired(_ context.Context, now time.Time, limit int) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return 0, errDown
	}
	n := 0
	for id, f := range m.families {
		if n < limit && !f.expiresAt.After(now) {
			delete(m.families, id)
			n++
		}
	}
	return n, nil
}

type env struct {
	svc     *auth.Service
	cfg     auth.Config
	users   *memUsers
	sender  *memSender
	clock   *redistest.Clock
	tokens  *memTokens
	records *memRecords
	conn    *redis.Conn
}

func newEnv(t *testing.T, conn *redis.Conn, configure func(*auth.Config)) *env {
	t.Helper()
	cfg := auth.DefaultConfig()
	cfg.JWTSecret = testSecret
	cfg.IPLimits = false
	if configure != nil {
		configure(&cfg)
	}
	e := &env{cfg: cfg, users: newMemUsers(), sender: &memSender{}, clock: redistest.NewClock(), tokens: &memTokens{},
		records: newMemRecords(), conn: conn}
	svc, err := auth.New(cfg, auth.Deps{
		Users:          e.users,
		Sender:         e.sender,
		Codes:          redis.NewCodeStore(conn.Client).WithClock(e.clock.Now),
		SessionRecords: e.records,
		SessionCache:   redis.NewSessionCache(conn.Client),
		Limiter:        redis.NewRateLimiter(conn.Client).WithClock(e.clock.Now),
		Tokens:         e.tokens,
		Now:            e.clock.Now,
	})
	if err != nil {
		t.Fatalf("auth.New: %v", err)
	}
	e.svc = svc
	return e
}

// code asks for a login code for phone and returns it.
func (e *env) code(t *testing.T, phone string) string {
	t.Helper()
	if _, err := e.svc.SendLoginCode.Handle(context.Background(), phone, ""); err != nil {
		t.Fatalf("SendLoginCode(%s): %v", phone, err)
	}
	sent := e.sender.sent(phone)
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
