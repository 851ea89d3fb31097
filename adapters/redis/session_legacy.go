package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// Sessions as an earlier version kept them, only in Redis:
//
//	session:{u<id>}:families           zset: family id, score = family expiry (ms)
//	session:{u<id>}:family:<id>        hash: cur = current token hash, exp = expiry (ms)
//	session:{u<id>}:family:<id>:used   set: hashes of rotated (spent) tokens
//
// A family was deleted when it ended. The cache of this version uses session:{u<id>}:f:<id>
// (a string), so the two never share a key; session:{u<id>}:account has the same name
// and format in both and is read as it is.

// sessionsLegacyDone marks that every family written before the database kept sessions
// has been handed to Legacy's caller.
const sessionsLegacyDone = "session:legacy-imported"

// legacyBatch is how many families Legacy reads in one pipeline.
const legacyBatch = 100

// Legacy implements auth.LegacySessions: SCAN for the families' hashes, read them in
// pipelined batches, and drop what this version cached of each family handed over, so
// its next check reads the database.
func (s *SessionCache) Legacy(ctx context.Context, fn func(auth.LegacyFamily) error, skip func(key string, err error)) error {
	done, err := s.client.Exists(ctx, sessionsLegacyDone).Result()
	if err != nil || done == 1 {
		return err
	}
	failed := false
	batch := make([]legacyKey, 0, legacyBatch)
	flush := func() {
		if !s.legacyBatch(ctx, batch, fn, skip) {
			failed = true
		}
		batch = batch[:0]
	}
	err = scanKeys(ctx, s.client, "session:{u*}:family:*", 1000, func(key string) error {
		k, ok := parseLegacyKey(key)
		if !ok {
			return nil // a spent-token set, or another key
		}
		if batch = append(batch, k); len(batch) == legacyBatch {
			flush()
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("look for sessions: %w", err)
	}
	flush()
	if failed {
		return nil // the next call retries; families stored meanwhile are left alone
	}
	return s.client.Set(ctx, sessionsLegacyDone, "1", 0).Err()
}

type legacyKey struct {
	key    string
	userID int64
	family string
}

// parseLegacyKey reads session:{u<id>}:family:<family>.
func parseLegacyKey(key string) (legacyKey, bool) {
	rest, ok := strings.CutPrefix(key, "session:{u")
	if !ok {
		return legacyKey{}, false
	}
	id, family, ok := strings.Cut(rest, "}:family:")
	if !ok || family == "" || strings.Contains(family, ":") {
		return legacyKey{}, false
	}
	userID, err := strconv.ParseInt(id, 10, 64)
	if err != nil || userID <= 0 {
		return legacyKey{}, false
	}
	return legacyKey{key: key, userID: userID, family: family}, true
}

// legacyBatch reads the families of keys in one pipeline and hands the live ones to fn.
// It reports false when a read or an fn call failed.
func (s *SessionCache) legacyBatch(ctx context.Context, keys []legacyKey, fn func(auth.LegacyFamily) error, skip func(string, error)) bool {
	if len(keys) == 0 {
		return true
	}
	type reads struct {
		fam  *goredis.SliceCmd
		pttl *goredis.DurationCmd
		used *goredis.StringSliceCmd
	}
	rs := make([]reads, len(keys))
	now := time.Now()
	_, _ = s.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for i, k := range keys {
			rs[i] = reads{
				fam:  p.HMGet(ctx, k.key, "cur", "exp"),
				pttl: p.PTTL(ctx, k.key),
				used: p.SMembers(ctx, k.key+":used"),
			}
		}
		return nil
	})
	ok := true
	for i, k := range keys {
		r := rs[i]
		vals, err := r.fam.Result()
		if err == nil {
			err = r.pttl.Err()
		}
		if err == nil {
			err = r.used.Err()
		}
		if err != nil {
			if !isWrongType(err) {
				ok = false
			}
			skip(k.key, fmt.Errorf("read session: %w", err))
			continue
		}
		cur, _ := vals[0].(string)
		if cur == "" {
			continue // ended or expired since the scan found it
		}
		exp, err := legacyExpiry(vals[1], r.pttl.Val(), now)
		if err != nil {
			skip(k.key, err)
			continue
		}
		if !exp.After(now) {
			continue
		}
		f := auth.LegacyFamily{UserID: k.userID, FamilyID: k.family, TokenHash: cur, Spent: r.used.Val(), ExpiresAt: exp}
		if err := fn(f); err != nil {
			ok = false
			skip(k.key, err)
			continue
		}
		// A check made before the import may have cached the family as ended.
		if err := s.client.Del(ctx, familyKey(k.userID, k.family)).Err(); err != nil {
			ok = false
			skip(k.key, fmt.Errorf("drop cached session: %w", err))
		}
	}
	return ok
}

// legacyExpiry is the family's stored expiry, or, without one, the key's TTL.
func legacyExpiry(exp any, pttl time.Duration, now time.Time) (time.Time, error) {
	if s, ok := exp.(string); ok {
		ms, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("session expiry %q: %w", s, err)
		}
		return time.UnixMilli(ms), nil
	}
	if pttl > 0 {
		return now.Add(pttl), nil
	}
	return time.Time{}, errors.New("session without expiry")
}

// isWrongType reports a key of another type than the read expects: data no retry reads.
func isWrongType(err error) bool {
	return strings.HasPrefix(err.Error(), "WRONGTYPE")
}
