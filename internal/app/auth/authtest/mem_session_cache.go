package authtest

import (
	"context"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// MemSessionCache is an in-memory auth.SessionCache. Its entries expire on the real
// clock, as a cache server's do, whatever clock the service under test reads.
type MemSessionCache struct {
	mu       sync.Mutex
	families map[memFamilyKey]memCachedFamily
	accounts map[int64]memCachedAccount
}

type memFamilyKey struct {
	user   int64
	family string
}

type memCachedFamily struct {
	live      bool
	expiresAt time.Time
}

type memCachedAccount struct {
	state     auth.AccountState
	expiresAt time.Time // zero: never
}

var _ auth.SessionCache = (*MemSessionCache)(nil)

// NewMemSessionCache returns an empty cache.
func NewMemSessionCache() *MemSessionCache {
	return &MemSessionCache{families: map[memFamilyKey]memCachedFamily{}, accounts: map[int64]memCachedAccount{}}
}

func (c *MemSessionCache) family(k memFamilyKey, now time.Time) (memCachedFamily, bool) {
	f, ok := c.families[k]
	if ok && !f.expiresAt.After(now) {
		delete(c.families, k)
		return memCachedFamily{}, false
	}
	return f, ok
}

func (c *MemSessionCache) account(user int64, now time.Time) (memCachedAccount, bool) {
	a, ok := c.accounts[user]
	if ok && !a.expiresAt.IsZero() && !a.expiresAt.After(now) {
		delete(c.accounts, user)
		return memCachedAccount{}, false
	}
	return a, ok
}

// Check implements auth.SessionCache.
func (c *MemSessionCache) Check(_ context.Context, userID int64, familyID string) (auth.CachedSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	var out auth.CachedSession
	if f, ok := c.family(memFamilyKey{userID, familyID}, now); ok {
		out.Family = auth.FamilyEnded
		if f.live {
			out.Family = auth.FamilyLive
		}
	}
	if a, ok := c.account(userID, now); ok {
		out.Account, out.Known = a.state, true
	}
	return out, nil
}

// PutLive implements auth.SessionCache.
func (c *MemSessionCache) PutLive(_ context.Context, userID int64, familyID string, ttl time.Duration) error {
	if ttl <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now, k := time.Now(), memFamilyKey{userID, familyID}
	if f, ok := c.family(k, now); ok && !f.live {
		return nil // an end cached meanwhile wins
	}
	c.families[k] = memCachedFamily{live: true, expiresAt: now.Add(ttl)}
	return nil
}

// PutEnded implements auth.SessionCache.
func (c *MemSessionCache) PutEnded(_ context.Context, userID int64, ttl time.Duration, familyIDs ...string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	exp := time.Now().Add(max(ttl, time.Millisecond))
	for _, f := range familyIDs {
		c.families[memFamilyKey{userID, f}] = memCachedFamily{expiresAt: exp}
	}
	return nil
}

// SetAccount implements auth.SessionCache; a ttl of zero keeps the state until it is
// replaced or forgotten.
func (c *MemSessionCache) SetAccount(_ context.Context, userID int64, a auth.AccountState, ttl time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.accounts[userID] = memCachedAccount{state: a, expiresAt: accountExpiry(ttl)}
	return nil
}

// RememberAccount implements auth.SessionCache.
func (c *MemSessionCache) RememberAccount(_ context.Context, userID int64, a auth.AccountState, ttl time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.account(userID, time.Now()); !ok {
		c.accounts[userID] = memCachedAccount{state: a, expiresAt: accountExpiry(ttl)}
	}
	return nil
}

func accountExpiry(ttl time.Duration) time.Time {
	if ttl <= 0 {
		return time.Time{}
	}
	return time.Now().Add(ttl)
}

// Forget drops everything cached of userID's sessions and account, as a cache server
// that restarted empty would.
func (c *MemSessionCache) Forget(userID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.families {
		if k.user == userID {
			delete(c.families, k)
		}
	}
	delete(c.accounts, userID)
}

// ForgetAccount drops the cached account state of userID only.
func (c *MemSessionCache) ForgetAccount(userID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.accounts, userID)
}
