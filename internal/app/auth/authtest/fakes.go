package authtest

import (
	"context"
	"errors"
	mathrand "math/rand/v2"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// MemUsers is an in-memory auth.Users.
type MemUsers struct {
	mu     sync.Mutex
	nextID int64
	byID   map[int64]domain.User
	// hashes are the password hashes by user id.
	hashes map[int64]string
	// owners are the users who own a shop.
	owners map[int64]bool
}

// NewMemUsers starts ids at a random point: tests sharing a Redis database must not share
// user ids, or they would share sessions.
func NewMemUsers() *MemUsers {
	return &MemUsers{byID: map[int64]domain.User{}, hashes: map[int64]string{}, owners: map[int64]bool{}, nextID: mathrand.Int64N(1 << 40)}
}

// UserByPhone implements auth.Users.
func (m *MemUsers) UserByPhone(_ context.Context, phone string) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, u := range m.byID {
		if u.Phone == phone {
			return u, nil
		}
	}
	return domain.User{}, domain.ErrNotFound
}

// User implements auth.Users.
func (m *MemUsers) User(_ context.Context, id int64) (domain.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.byID[id]
	if !ok {
		return domain.User{}, domain.ErrNotFound
	}
	return u, nil
}

// CreateUser implements auth.Users.
func (m *MemUsers) CreateUser(_ context.Context, u domain.User) (domain.User, error) {
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

// SetRole implements auth.Users.
func (m *MemUsers) SetRole(_ context.Context, phone string, role domain.Role) (domain.User, error) {
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

// SetBlocked implements auth.Users.
func (m *MemUsers) SetBlocked(_ context.Context, phone string, blocked bool) (domain.User, error) {
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

// SetRoleByID implements auth.Users.
func (m *MemUsers) SetRoleByID(_ context.Context, id int64, role domain.Role) (domain.User, error) {
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

// SetBlockedByID implements auth.Users.
func (m *MemUsers) SetBlockedByID(_ context.Context, id int64, blocked bool) (domain.User, error) {
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

// DemoteMerchantWithoutShops implements auth.Users; the users own no shops here unless
// OwnsShops says so.
func (m *MemUsers) DemoteMerchantWithoutShops(_ context.Context, id int64) (domain.User, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.byID[id]
	if !ok {
		return domain.User{}, false, domain.ErrNotFound
	}
	if u.Role != domain.RoleMerchant || m.owners[id] {
		return u, false, nil
	}
	u.Role = domain.RoleUser
	m.byID[id] = u
	return u, true, nil
}

// OwnsShops records whether user id owns a shop, for DemoteMerchantWithoutShops.
func (m *MemUsers) OwnsShops(id int64, owns bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.owners[id] = owns
}

// Credentials implements auth.Users.
func (m *MemUsers) Credentials(_ context.Context, phone string) (domain.User, string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, u := range m.byID {
		if u.Phone == phone {
			return u, m.hashes[id], nil
		}
	}
	return domain.User{}, "", domain.ErrNotFound
}

// SetPasswordHash implements auth.Users.
func (m *MemUsers) SetPasswordHash(_ context.Context, id int64, hash string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.byID[id]
	if !ok {
		return domain.ErrNotFound
	}
	m.hashes[id] = hash
	u.HasPassword = hash != ""
	m.byID[id] = u
	return nil
}

// Block blocks user id, as an operator would behind the service's back.
func (m *MemUsers) Block(id int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.byID[id]
	u.Blocked = true
	m.byID[id] = u
}

// Count returns the number of users.
func (m *MemUsers) Count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byID)
}

// MemSender records the codes it is asked to deliver.
type MemSender struct {
	mu    sync.Mutex
	codes map[string][]string
	err   error
}

// Fail makes every Send return err (nil: deliver again).
func (s *MemSender) Fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
}

// Send implements auth.CodeSender.
func (s *MemSender) Send(_ context.Context, phone, code string) error {
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

// Sent returns the codes sent to phone, oldest first.
func (s *MemSender) Sent(phone string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.codes[phone]...)
}

// MemTokens is an auth.VerifiedTokens that forgets nothing, TTLs included, so that the
// expiry the service keeps with each entry is what stops an expired token.
type MemTokens struct {
	mu   sync.Mutex
	m    map[string]any
	ttls []time.Duration
	hits int
}

// Get implements auth.VerifiedTokens.
func (m *MemTokens) Get(key string) (any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	if ok {
		m.hits++
	}
	return v, ok
}

// Set implements auth.VerifiedTokens.
func (m *MemTokens) Set(key string, value any, ttl time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]any{}
	}
	m.m[key] = value
	m.ttls = append(m.ttls, ttl)
}

// Stats returns the number of Get hits and the ttl of every Set.
func (m *MemTokens) Stats() (hits int, ttls []time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hits, append([]time.Duration(nil), m.ttls...)
}

// MemRecords is an in-memory auth.SessionRecords (and auth.SessionImports). down makes every call fail, as a
// database that is out of reach; reads counts Family calls.
type MemRecords struct {
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

// ErrDown is the error of a fake that is out of reach.
var ErrDown = errors.New("database unreachable")

// NewMemRecords returns an empty store.
func NewMemRecords() *MemRecords { return &MemRecords{families: map[string]*memFamily{}} }

// SetDown makes every call fail with ErrDown (true) or work again (false).
func (m *MemRecords) SetDown(down bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.down = down
}

// ReadCount returns the number of Family calls.
func (m *MemRecords) ReadCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reads
}

// CreateFamily implements auth.SessionRecords.
func (m *MemRecords) CreateFamily(_ context.Context, userID int64, familyID, tokenHash string, expiresAt time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return ErrDown
	}
	m.families[familyID] = &memFamily{user: userID, current: tokenHash, spent: map[string]bool{}, expiresAt: expiresAt}
	return nil
}

func (m *MemRecords) live(userID int64, familyID string, now time.Time) *memFamily {
	f := m.families[familyID]
	if f == nil || f.user != userID || f.revoked || !f.expiresAt.After(now) {
		return nil
	}
	return f
}

// RotateFamily implements auth.SessionRecords.
func (m *MemRecords) RotateFamily(_ context.Context, userID int64, familyID, oldHash, newHash string, now, expiresAt time.Time) (auth.Rotation, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return auth.RefreshUnknown, ErrDown
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

// ImportFamily implements auth.SessionImports: f goes in as a live family with its
// spent tokens, unless a family with its id is stored.
func (m *MemRecords) ImportFamily(_ context.Context, f auth.LegacyFamily) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return false, ErrDown
	}
	if _, ok := m.families[f.FamilyID]; ok {
		return false, nil
	}
	spent := make(map[string]bool, len(f.Spent))
	for _, h := range f.Spent {
		spent[h] = true
	}
	m.families[f.FamilyID] = &memFamily{user: f.UserID, current: f.TokenHash, spent: spent, expiresAt: f.ExpiresAt}
	return true, nil
}

// Family implements auth.SessionRecords.
func (m *MemRecords) Family(_ context.Context, userID int64, familyID string, now time.Time) (bool, time.Time, error) {
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
		return false, time.Time{}, ErrDown
	}
	return live, exp, nil
}

// RevokeFamily implements auth.SessionRecords.
func (m *MemRecords) RevokeFamily(_ context.Context, userID int64, familyID string, _ time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return ErrDown
	}
	if f := m.families[familyID]; f != nil && f.user == userID {
		f.revoked = true
	}
	return nil
}

// RevokeFamilies implements auth.SessionRecords.
func (m *MemRecords) RevokeFamilies(_ context.Context, userID int64, now time.Time) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return nil, ErrDown
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

// DeleteExpired implements auth.SessionRecords.
func (m *MemRecords) DeleteExpired(_ context.Context, now time.Time, limit int) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return 0, ErrDown
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

// HoldReads holds every Family call's answer until gate is closed (nil: answer at once).
func (m *MemRecords) HoldReads(gate chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.readGate = gate
}

// HoldReadsAndRecount is HoldReads that also starts the count of Family calls again,
// in one step.
func (m *MemRecords) HoldReadsAndRecount(gate chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.readGate, m.reads = gate, 0
}

// Len returns the number of families stored.
func (m *MemRecords) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.families)
}

// LegacyFamilies is an auth.LegacySessions holding Families; Legacy returns Err after
// handing them over.
type LegacyFamilies struct {
	Families []auth.LegacyFamily
	Err      error
}

// Legacy implements auth.LegacySessions.
func (f LegacyFamilies) Legacy(_ context.Context, fn func(auth.LegacyFamily) error, skip func(string, error)) error {
	for _, lf := range f.Families {
		if err := fn(lf); err != nil {
			skip(lf.FamilyID, err)
		}
	}
	return f.Err
}

// FamilyImports is an auth.SessionImports storing the ids of the families it imports in
// Stored; importing the family with id Broken fails with ErrDown.
type FamilyImports struct {
	Stored map[string]bool
	Broken string
}

// ImportFamily implements auth.SessionImports.
func (f FamilyImports) ImportFamily(_ context.Context, lf auth.LegacyFamily) (bool, error) {
	if f.Broken != "" && lf.FamilyID == f.Broken {
		return false, ErrDown
	}
	if f.Stored[lf.FamilyID] {
		return false, nil
	}
	f.Stored[lf.FamilyID] = true
	return true, nil
}

var (
	_ auth.Users          = (*MemUsers)(nil)
	_ auth.CodeSender     = (*MemSender)(nil)
	_ auth.VerifiedTokens = (*MemTokens)(nil)
	_ auth.SessionRecords = (*MemRecords)(nil)
	_ auth.SessionImports = (*MemRecords)(nil)
	_ auth.LegacySessions = LegacyFamilies{}
	_ auth.SessionImports = FamilyImports{}
)
