package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/social"
)

// SignIns keeps one bitmap per user per month (sign:<userId>:<yyyyMM>): bit d-1 is day d.
// A month is read whole with GETRANGE (4 bytes) and decoded here, which works the same on
// the embedded server (no BITFIELD) and on real Redis.
type SignIns struct {
	client goredis.UniversalClient
}

var _ social.SignIns = (*SignIns)(nil)

// NewSignIns returns the sign-in bitmaps on client.
func NewSignIns(client goredis.UniversalClient) *SignIns { return &SignIns{client: client} }

func signKey(userID int64, month time.Time) string {
	return "sign:" + strconv.FormatInt(userID, 10) + ":" + month.Format("200601")
}

// Sign implements social.SignIns: SETBIT and GETRANGE in one transaction.
func (s *SignIns) Sign(ctx context.Context, userID int64, day time.Time) (uint32, error) {
	key := signKey(userID, day)
	var bits *goredis.StringCmd
	_, err := s.client.TxPipelined(ctx, func(pipe goredis.Pipeliner) error {
		pipe.SetBit(ctx, key, int64(day.Day()-1), 1)
		bits = pipe.GetRange(ctx, key, 0, 3)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sign in user %d: %w", userID, err)
	}
	return monthMask(bits.Val()), nil
}

// Month implements social.SignIns.
func (s *SignIns) Month(ctx context.Context, userID int64, month time.Time) (uint32, error) {
	bits, err := s.client.GetRange(ctx, signKey(userID, month), 0, 3).Result()
	if err != nil && !errors.Is(err, goredis.Nil) {
		return 0, fmt.Errorf("read sign-ins of user %d: %w", userID, err)
	}
	return monthMask(bits), nil
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
