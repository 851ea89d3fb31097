package auth

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Sweep of expired sessions: a login deletes up to sweepBatch sessions that expired (of
// anyone) when the last sweep is at least sweepEvery old, so the table holds live
// sessions plus at most what expired since; no background task is needed.
const (
	sweepEvery = time.Minute
	sweepBatch = 1000
)

// sessionStore is the RefreshStore the use cases see: SessionRecords (the database) is
// the source of truth and SessionCache (Redis) answers the check every request makes.
//
//   - Create, Rotate, Revoke and RevokeAll write the database first, then the cache. A
//     cache write that fails after a creation or rotation costs nothing but a database
//     read later; one that fails after a revocation is returned as an error, as the cache
//     may still call the session live.
//   - Check is one cache round trip. On a miss (a Redis that restarted empty, an entry
//     evicted) it reads the database once per family, however many requests miss at
//     once, and caches the answer: a live family until it expires, an ended or unknown
//     one for endedTTL (the access-token lifetime and leeway: no token of that family can
//     be presented later), so a flood of ended sessions' tokens reads the database once
//     per family.
//   - With the database down, logins, refreshes and logouts fail, but a session the
//     cache knows keeps working.
type sessionStore struct {
	records  SessionRecords
	cache    SessionCache
	now      func() time.Time
	endedTTL time.Duration

	misses singleflight.Group

	sweepMu   sync.Mutex
	lastSweep time.Time
}

var _ RefreshStore = (*sessionStore)(nil)

func newSessionStore(records SessionRecords, cache SessionCache, now func() time.Time, endedTTL time.Duration) *sessionStore {
	return &sessionStore{records: records, cache: cache, now: now, endedTTL: endedTTL}
}

// Create implements RefreshStore.
func (s *sessionStore) Create(ctx context.Context, userID int64, familyID, tokenHash string, ttl time.Duration) error {
	now := s.now()
	s.sweep(ctx, now)
	if err := s.records.CreateFamily(ctx, userID, familyID, tokenHash, now.Add(ttl)); err != nil {
		return fmt.Errorf("store session: %w", err)
	}
	_ = s.cache.PutLive(ctx, userID, familyID, ttl) // a miss reads the database
	return nil
}

// sweep deletes a batch of expired sessions when the last sweep is sweepEvery old. A
// failure is left to the next sweep.
func (s *sessionStore) sweep(ctx context.Context, now time.Time) {
	s.sweepMu.Lock()
	due := now.Sub(s.lastSweep) >= sweepEvery
	if due {
		s.lastSweep = now
	}
	s.sweepMu.Unlock()
	if due {
		_, _ = s.records.DeleteExpired(ctx, now, sweepBatch)
	}
}

// Rotate implements RefreshStore.
func (s *sessionStore) Rotate(ctx context.Context, userID int64, familyID, oldHash, newHash string, ttl time.Duration) (Rotation, error) {
	now := s.now()
	rot, err := s.records.RotateFamily(ctx, userID, familyID, oldHash, newHash, now, now.Add(ttl))
	if err != nil {
		return RefreshUnknown, fmt.Errorf("rotate stored session: %w", err)
	}
	switch rot {
	case RefreshRotated:
		_ = s.cache.PutLive(ctx, userID, familyID, ttl) // a miss reads the database
	case RefreshReused:
		if err := s.cache.PutEnded(ctx, userID, s.endedTTL, familyID); err != nil {
			return RefreshReused, fmt.Errorf("end cached session: %w", err)
		}
	}
	return rot, nil
}

// Check implements RefreshStore.
func (s *sessionStore) Check(ctx context.Context, userID int64, familyID string) (SessionCheck, error) {
	c, err := s.cache.Check(ctx, userID, familyID)
	if err != nil {
		return SessionCheck{}, err
	}
	out := SessionCheck{Live: c.Family == FamilyLive, Account: c.Account, Known: c.Known}
	if c.Family != FamilyUncached {
		return out, nil
	}
	if out.Live, err = s.fill(ctx, userID, familyID); err != nil {
		return SessionCheck{}, err
	}
	return out, nil
}

// fill reads whether a family the cache has lost is live, and caches the answer. Of
// concurrent misses of one family one reads; the others wait for its answer (or their
// own context). The read is not cancelled with the first caller's request.
func (s *sessionStore) fill(ctx context.Context, userID int64, familyID string) (bool, error) {
	key := strconv.FormatInt(userID, 10) + "/" + familyID
	ch := s.misses.DoChan(key, func() (any, error) {
		rctx := context.WithoutCancel(ctx)
		now := s.now()
		live, exp, err := s.records.Family(rctx, userID, familyID, now)
		if err != nil {
			return false, fmt.Errorf("read stored session: %w", err)
		}
		if live {
			_ = s.cache.PutLive(rctx, userID, familyID, exp.Sub(now))
		} else {
			_ = s.cache.PutEnded(rctx, userID, s.endedTTL, familyID)
		}
		return live, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return false, r.Err
		}
		return r.Val.(bool), nil
	case <-ctx.Done():
		return false, fmt.Errorf("read stored session: %w", ctx.Err())
	}
}

// SetAccount implements RefreshStore.
func (s *sessionStore) SetAccount(ctx context.Context, userID int64, a AccountState, ttl time.Duration) error {
	return s.cache.SetAccount(ctx, userID, a, ttl)
}

// RememberAccount implements RefreshStore.
func (s *sessionStore) RememberAccount(ctx context.Context, userID int64, a AccountState, ttl time.Duration) error {
	return s.cache.RememberAccount(ctx, userID, a, ttl)
}

// Revoke implements RefreshStore.
func (s *sessionStore) Revoke(ctx context.Context, userID int64, familyID string) error {
	if err := s.records.RevokeFamily(ctx, userID, familyID, s.now()); err != nil {
		return fmt.Errorf("revoke stored session: %w", err)
	}
	if err := s.cache.PutEnded(ctx, userID, s.endedTTL, familyID); err != nil {
		return fmt.Errorf("end cached session: %w", err)
	}
	return nil
}

// revokeCacheBatch bounds the families ended in the cache by one call.
const revokeCacheBatch = 100

// RevokeAll implements RefreshStore.
func (s *sessionStore) RevokeAll(ctx context.Context, userID int64) error {
	ids, err := s.records.RevokeFamilies(ctx, userID, s.now())
	if err != nil {
		return fmt.Errorf("revoke stored sessions: %w", err)
	}
	for len(ids) > 0 {
		n := min(len(ids), revokeCacheBatch)
		if err := s.cache.PutEnded(ctx, userID, s.endedTTL, ids[:n]...); err != nil {
			return fmt.Errorf("end cached sessions: %w", err)
		}
		ids = ids[n:]
	}
	return nil
}
