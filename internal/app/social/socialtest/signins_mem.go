package socialtest

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/social/signins"
)

// signInKey is a user's calendar month.
type signInKey struct {
	user  int64
	year  int
	month time.Month
}

func signInKeyOf(userID int64, t time.Time) signInKey {
	return signInKey{user: userID, year: t.Year(), month: t.Month()}
}

// MemSignInStore is an in-memory signins.SignInStore: a mask per user per month.
type MemSignInStore struct {
	mu     sync.Mutex
	months map[signInKey]uint32
}

var _ signins.SignInStore = (*MemSignInStore)(nil)

// NewMemSignInStore returns a store without sign-ins.
func NewMemSignInStore() *MemSignInStore {
	return &MemSignInStore{months: map[signInKey]uint32{}}
}

// Sign implements signins.SignInStore.
func (s *MemSignInStore) Sign(ctx context.Context, userID int64, day time.Time) (uint32, error) {
	if err := s.Merge(ctx, userID, day, 1<<(day.Day()-1)); err != nil {
		return 0, err
	}
	return s.Month(ctx, userID, day)
}

// Month implements signins.SignInStore.
func (s *MemSignInStore) Month(_ context.Context, userID int64, month time.Time) (uint32, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.months[signInKeyOf(userID, month)], nil
}

// Merge implements signins.SignInStore; like the database it refuses no user, no days
// and days past the 31st.
func (s *MemSignInStore) Merge(_ context.Context, userID int64, month time.Time, mask uint32) error {
	if userID <= 0 || mask == 0 || mask >= 1<<31 {
		return errors.New("a sign-in needs a user and days of a month")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.months[signInKeyOf(userID, month)] |= mask
	return nil
}

// MemSignIns is an in-memory signins.SignIns. Cached months never expire; Leave puts a
// month where Legacy finds it, as an earlier version left it in Redis.
type MemSignIns struct {
	mu     sync.Mutex
	months map[signInKey]uint32
	legacy map[signInKey]uint32
	done   bool
}

var _ signins.SignIns = (*MemSignIns)(nil)

// NewMemSignIns returns a cache without months.
func NewMemSignIns() *MemSignIns {
	return &MemSignIns{months: map[signInKey]uint32{}, legacy: map[signInKey]uint32{}}
}

// Merge implements signins.SignIns.
func (s *MemSignIns) Merge(_ context.Context, userID int64, month time.Time, mask uint32) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := signInKeyOf(userID, month)
	s.months[k] |= s.legacy[k] | mask
	delete(s.legacy, k)
	return nil
}

// Month implements signins.SignIns; a legacy month counts as cached, as in Redis.
func (s *MemSignIns) Month(_ context.Context, userID int64, month time.Time) (uint32, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := signInKeyOf(userID, month)
	if mask, ok := s.legacy[k]; ok {
		return mask, true, nil
	}
	mask, ok := s.months[k]
	return mask, ok, nil
}

// Leave stores a month as a version before the store left it: Legacy hands it over
// unless an earlier call found all there were.
func (s *MemSignIns) Leave(userID int64, month time.Time, mask uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.legacy[signInKeyOf(userID, month)] |= mask
}

// Legacy implements signins.SignIns.
func (s *MemSignIns) Legacy(_ context.Context, fn func(userID int64, month time.Time, mask uint32) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return nil
	}
	for k, mask := range s.legacy {
		if err := fn(k.user, time.Date(k.year, k.month, 1, 0, 0, 0, 0, time.UTC), mask); err != nil {
			return err
		}
		s.months[k] = mask
		delete(s.legacy, k)
	}
	s.done = true
	return nil
}
