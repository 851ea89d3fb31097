package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/social/signins"
)

// SignIns caches one bitmap per user per month (sign:<userId>:<yyyyMM>): bit d-1 is day
// d. A cached month is always at least 4 bytes long, so a missing key (GETRANGE answers
// "") is a month not cached, told apart from a month with no sign-ins (4 zero bytes).
// Every cached month expires ttl after it was last written; the database
// (signins.SignInStore) is the source of truth. A month is read whole with GETRANGE and
// decoded here, which works the same on the embedded server (no BITFIELD) and on real
// Redis.
type SignIns struct {
	client goredis.UniversalClient
	ttl    time.Duration
}

var _ signins.SignIns = (*SignIns)(nil)

// NewSignIns returns the sign-in cache on client; cached months expire after ttl.
func NewSignIns(client goredis.UniversalClient, ttl time.Duration) (*SignIns, error) {
	if ttl <= 0 {
		return nil, errors.New("sign-ins: cache TTL must be positive")
	}
	return &SignIns{client: client, ttl: ttl}, nil
}

func signKey(userID int64, month time.Time) string {
	return "sign:" + strconv.FormatInt(userID, 10) + ":" + month.Format("200601")
}

// emptyMonth is a cached month without sign-ins.
const emptyMonth = "\x00\x00\x00\x00"

// Merge implements signins.SignIns in one transaction: the month is created empty when
// missing (SET NX), each day of mask is set with SETBIT, and the TTL renewed.
func (s *SignIns) Merge(ctx context.Context, userID int64, month time.Time, mask uint32) error {
	key := signKey(userID, month)
	_, err := s.client.TxPipelined(ctx, func(pipe goredis.Pipeliner) error {
		pipe.SetNX(ctx, key, emptyMonth, s.ttl)
		for d := range 32 {
			if mask&(1<<d) != 0 {
				pipe.SetBit(ctx, key, int64(d), 1)
			}
		}
		pipe.Expire(ctx, key, s.ttl)
		return nil
	})
	if err != nil {
		return fmt.Errorf("cache sign-ins of user %d: %w", userID, err)
	}
	return nil
}

// Month implements signins.SignIns.
func (s *SignIns) Month(ctx context.Context, userID int64, month time.Time) (uint32, bool, error) {
	bits, err := s.client.GetRange(ctx, signKey(userID, month), 0, 3).Result()
	if err != nil && !errors.Is(err, goredis.Nil) {
		return 0, false, fmt.Errorf("read sign-ins of user %d: %w", userID, err)
	}
	if bits == "" {
		return 0, false, nil
	}
	return monthMask(bits), true, nil
}

// signInsLegacyDone marks that every month written before the database kept sign-ins has
// been handed to Legacy's caller.
const signInsLegacyDone = "sign:legacy-imported"

// Legacy implements signins.SignIns: SCAN for months without a TTL (every month this
// version caches has one), unless a marker says an earlier call handed them all over. A
// month handed over gets the TTL of a cached month.
func (s *SignIns) Legacy(ctx context.Context, fn func(userID int64, month time.Time, mask uint32) error) error {
	done, err := s.client.Exists(ctx, signInsLegacyDone).Result()
	if err != nil || done == 1 {
		return err
	}
	var failed error
	err = scanKeys(ctx, s.client, "sign:*", 1000, func(key string) error {
		parts := strings.Split(key, ":")
		if len(parts) != 3 {
			return nil
		}
		userID, err := strconv.ParseInt(parts[1], 10, 64)
		month, merr := time.Parse("200601", parts[2])
		if err != nil || merr != nil || userID <= 0 {
			return nil
		}
		ttl, err := s.client.TTL(ctx, key).Result()
		if err != nil {
			failed = fmt.Errorf("read sign-ins of user %d: %w", userID, err)
			return failed
		}
		if ttl != -1 {
			return nil // cached by this version, or gone
		}
		bits, err := s.client.GetRange(ctx, key, 0, 3).Result()
		if err != nil {
			failed = fmt.Errorf("read sign-ins of user %d: %w", userID, err)
			return failed
		}
		if err := fn(userID, month, monthMask(bits)); err != nil {
			failed = err
			return err
		}
		if err := s.client.Expire(ctx, key, s.ttl).Err(); err != nil {
			failed = fmt.Errorf("expire sign-ins of user %d: %w", userID, err)
			return failed
		}
		return nil
	})
	if failed != nil {
		return failed
	}
	if err != nil {
		return fmt.Errorf("look for sign-in months: %w", err)
	}
	return s.client.Set(ctx, signInsLegacyDone, "1", 0).Err()
}

// monthMask turns a Redis bitmap (bit 0 is the high bit of the first byte) into a mask
// with bit d-1 set for day d.
func monthMask(bits string) uint32 {
	var mask uint32
	for i := 0; i < len(bits) && i < 4; i++ {
		for j := 0; j < 8; j++ {
			if bits[i]&(0x80>>j) != 0 {
				mask |= 1 << (i*8 + j)
			}
		}
	}
	return mask
}
