package readcache

import (
	"errors"
	"fmt"
	"time"
)

// Config tunes one cache client. New replaces zero fields with DefaultConfig's values,
// except LocalTTL, where zero turns L1 off.
type Config struct {
	// LocalTTL is how long a value stays in the in-process L1. Keep it short: other
	// processes learn of changes by broadcast, and a lost broadcast is only healed by
	// this TTL. Zero disables L1.
	LocalTTL time.Duration
	// RemoteTTL is how long a value stays in L2 (Redis).
	RemoteTTL time.Duration
	// NullTTL is how long "not found" is remembered (in L2 and L1), so that reads of a
	// missing id do not reach the source each time (penetration). Keep it short: a row
	// created later without an Invalidate stays invisible this long.
	NullTTL time.Duration
	// Jitter spreads every TTL: a TTL t becomes a random duration in [t, t×(1+Jitter)),
	// so keys written together do not expire together (avalanche). Between 0 and 1.
	Jitter float64
	// LockTTL bounds how long one process holds a key's rebuild lock, and so how long a
	// load may take.
	LockTTL time.Duration
	// LockWait is how long a reader that found the lock taken waits for the holder's
	// result (re-reading L2) before it loads by itself; a read never fails because of
	// the lock.
	LockWait time.Duration
	// LockRetry is the pause between two re-reads while waiting.
	LockRetry time.Duration
	// LogicalTTL is how long a hot value (GetHot) counts as fresh; an older one is served
	// while one process refreshes it.
	LogicalTTL time.Duration
}

// DefaultConfig returns settings suited to rows read far more often than written.
func DefaultConfig() Config {
	return Config{
		LocalTTL:   2 * time.Second,
		RemoteTTL:  30 * time.Minute,
		NullTTL:    30 * time.Second,
		Jitter:     0.1,
		LockTTL:    10 * time.Second,
		LockWait:   time.Second,
		LockRetry:  20 * time.Millisecond,
		LogicalTTL: time.Minute,
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.RemoteTTL == 0 {
		c.RemoteTTL = d.RemoteTTL
	}
	if c.NullTTL == 0 {
		c.NullTTL = d.NullTTL
	}
	if c.Jitter == 0 {
		c.Jitter = d.Jitter
	}
	if c.LockTTL == 0 {
		c.LockTTL = d.LockTTL
	}
	if c.LockWait == 0 {
		c.LockWait = d.LockWait
	}
	if c.LockRetry == 0 {
		c.LockRetry = d.LockRetry
	}
	if c.LogicalTTL == 0 {
		c.LogicalTTL = d.LogicalTTL
	}
	return c
}

func (c Config) validate() error {
	var errs []error
	for _, f := range []struct {
		name string
		d    time.Duration
	}{
		{"RemoteTTL", c.RemoteTTL}, {"NullTTL", c.NullTTL}, {"LockTTL", c.LockTTL},
		{"LockWait", c.LockWait}, {"LockRetry", c.LockRetry}, {"LogicalTTL", c.LogicalTTL},
	} {
		if f.d < 0 {
			errs = append(errs, fmt.Errorf("%s must be positive, got %s", f.name, f.d))
		}
	}
	if c.LocalTTL < 0 {
		errs = append(errs, fmt.Errorf("%s must be zero (off) or positive, got %s", "LocalTTL", c.LocalTTL))
	}
	if c.Jitter < 0 || c.Jitter > 1 {
		errs = append(errs, fmt.Errorf("%s must be between 0 and 1, got %g", "Jitter", c.Jitter))
	}
	return errors.Join(errs...)
}
