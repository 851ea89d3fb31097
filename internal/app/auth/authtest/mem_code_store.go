package authtest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// MemCodeStore is an in-memory auth.CodeStore on a clock of the caller's, with the send
// limits, wrong-guess counts and per-client charges of the Redis one. Codes and send
// limits are kept per (phone, client) pair.
type MemCodeStore struct {
	now     func() time.Time
	mu      sync.Mutex
	phones  map[string]*memPhone
	guesses map[string]*memWindow
	ids     memEventIDs
}

// memPhone is what the store keeps of one (phone, client) pair; times are milliseconds.
type memPhone struct {
	digest      string // "" when there is no code
	expiresAt   int64
	wrong       int
	sends       []int64 // oldest first
	lockedUntil int64
}

var _ auth.CodeStore = (*MemCodeStore)(nil)

// NewMemCodeStore returns a store that reads time from now (nil: the real clock).
func NewMemCodeStore(now func() time.Time) *MemCodeStore {
	if now == nil {
		now = time.Now
	}
	return &MemCodeStore{now: now, phones: map[string]*memPhone{}, guesses: map[string]*memWindow{}}
}

// pairKey names a (phone, client) pair; a phone never holds the separator.
func pairKey(phone, client string) string { return phone + "|" + client }

func (s *MemCodeStore) pair(phone, client string) *memPhone {
	p := s.phones[pairKey(phone, client)]
	if p == nil {
		p = &memPhone{}
		s.phones[pairKey(phone, client)] = p
	}
	return p
}

// Issue implements auth.CodeStore. The tiers, in order: the lock, the interval, the day
// (refuses without locking), the window (asking beyond it locks).
func (s *MemCodeStore) Issue(_ context.Context, phone, client, digest string, l auth.SendLimits) (bool, time.Duration, error) {
	if l.CodeTTL <= 0 || l.Window <= 0 || l.Lock <= 0 || l.WindowMax < 1 || l.Interval < 0 || l.Day <= 0 || l.DayMax < 1 {
		return false, 0, errors.New("issue login code: invalid send limits")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ms := func(d time.Duration) int64 { return d.Milliseconds() }
	now, p := s.now().UnixMilli(), s.pair(phone, client)
	if p.lockedUntil > now {
		return false, time.Duration(p.lockedUntil-now) * time.Millisecond, nil
	}
	keep := max(ms(l.Window), ms(l.Interval), ms(l.Day))
	p.sends = slices.DeleteFunc(p.sends, func(at int64) bool { return at < now-keep })
	if n := len(p.sends); n > 0 {
		if wait := p.sends[n-1] + ms(l.Interval) - now; wait > 0 {
			return false, time.Duration(wait) * time.Millisecond, nil
		}
	}
	// A send exactly one day old no longer counts; one exactly one window old still does.
	var today []int64
	inWindow := 0
	for _, at := range p.sends {
		if at > now-ms(l.Day) {
			today = append(today, at)
		}
		if at >= now-ms(l.Window) {
			inWindow++
		}
	}
	if n := len(today); n >= l.DayMax {
		// The next code fits once enough of the day's codes are a day old.
		return false, time.Duration(today[n-l.DayMax]+ms(l.Day)-now) * time.Millisecond, nil
	}
	if inWindow >= l.WindowMax {
		p.lockedUntil = now + ms(l.Lock)
		return false, l.Lock, nil
	}
	i, _ := slices.BinarySearch(p.sends, now+1)
	p.sends = slices.Insert(p.sends, i, now)
	// A new code starts with no wrong guesses.
	p.digest, p.expiresAt, p.wrong = digest, now+ms(l.CodeTTL), 0
	return true, 0, nil
}

// Verify implements auth.CodeStore.
func (s *MemCodeStore) Verify(_ context.Context, phone, client, digest string, l auth.VerifyLimits) (auth.Verdict, int, error) {
	if l.MaxWrong < 1 {
		return auth.CodeRejected, 0, errors.New("verify login code: invalid limits")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.phones[pairKey(phone, client)]
	if p == nil || p.digest == "" || p.expiresAt <= s.now().UnixMilli() {
		return auth.CodeRejected, 0, nil
	}
	if p.digest == digest {
		p.digest = ""
		return auth.CodeAccepted, 0, nil
	}
	if p.wrong++; p.wrong >= l.MaxWrong {
		p.digest = ""
		return auth.CodeDiscarded, 0, nil
	}
	return auth.CodeRejected, l.MaxWrong - p.wrong, nil
}

// ChargeGuess implements auth.CodeStore.
func (s *MemCodeStore) ChargeGuess(_ context.Context, key string, l auth.Limit) (auth.GuessCharge, error) {
	if l.Max < 1 || l.Window <= 0 {
		return auth.GuessCharge{}, errors.New("charge guess: limit and window must be positive")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.guesses[key]
	if w == nil {
		w = &memWindow{}
		s.guesses[key] = w
	}
	id := s.ids.next()
	if ok, retry := w.allow(s.now(), l.Window, l.Max, id); !ok {
		return auth.GuessCharge{RetryAfter: retry}, nil
	}
	return auth.GuessCharge{OK: true, ID: id, Left: l.Max - len(w.events)}, nil
}

// RefundGuess implements auth.CodeStore.
func (s *MemCodeStore) RefundGuess(_ context.Context, key, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.guesses[key]; w != nil {
		w.remove(id)
	}
	return nil
}
