package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/auth"
)

var (
	//go:embed lua/login_code_issue.lua
	loginCodeIssueLua    string
	loginCodeIssueScript = goredis.NewScript(loginCodeIssueLua)

	//go:embed lua/login_code_verify.lua
	loginCodeVerifyLua    string
	loginCodeVerifyScript = goredis.NewScript(loginCodeVerifyLua)
)

// CodeStore keeps login codes (as digests) and their send limits per (phone, client) pair
// in Redis: login:{<phone>}:<name>:<client>. All keys of one phone share the hash tag
// {<phone>}.
type CodeStore struct {
	client goredis.UniversalClient
	now    func() time.Time
}

var _ auth.CodeStore = (*CodeStore)(nil)

// NewCodeStore returns a CodeStore on client.
func NewCodeStore(client goredis.UniversalClient) *CodeStore {
	return &CodeStore{client: client, now: time.Now}
}

// WithClock returns a copy of s that reads time from now.
func (s *CodeStore) WithClock(now func() time.Time) *CodeStore {
	c := *s
	c.now = now
	return &c
}

// loginKeys are the keys of one (phone, client) pair; the client is last, so that any
// text it holds (an IPv6 network has colons) cannot make two pairs' keys equal.
func loginKeys(phone, client string, names ...string) []string {
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = "login:{" + phone + "}:" + n + ":" + client
	}
	return keys
}

// Issue implements auth.CodeStore.
func (s *CodeStore) Issue(ctx context.Context, phone, client, digest string, l auth.SendLimits) (bool, time.Duration, error) {
	if l.CodeTTL <= 0 || l.Window <= 0 || l.Lock <= 0 || l.WindowMax < 1 || l.Interval < 0 || l.Day <= 0 || l.DayMax < 1 {
		return false, 0, errors.New("issue login code: invalid send limits")
	}
	res, err := loginCodeIssueScript.Run(ctx, s.client, loginKeys(phone, client, "code", "sends", "sendlock"),
		s.now().UnixMilli(), digest, millis(l.CodeTTL), millis(l.Interval), millis(l.Window),
		l.WindowMax, millis(l.Lock), eventID(), millis(l.Day), l.DayMax).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("issue login code: %w", err)
	}
	if len(res) != 2 {
		return false, 0, fmt.Errorf("issue login code: unexpected reply %v", res)
	}
	return res[0] == 1, time.Duration(res[1]) * time.Millisecond, nil
}

// Verify implements auth.CodeStore.
func (s *CodeStore) Verify(ctx context.Context, phone, client, digest string, l auth.VerifyLimits) (auth.Verdict, int, error) {
	if l.MaxWrong < 1 {
		return auth.CodeRejected, 0, errors.New("verify login code: invalid limits")
	}
	res, err := loginCodeVerifyScript.Run(ctx, s.client, loginKeys(phone, client, "code"),
		s.now().UnixMilli(), digest, l.MaxWrong).Int64Slice()
	if err != nil {
		return auth.CodeRejected, 0, fmt.Errorf("verify login code: %w", err)
	}
	if len(res) != 2 {
		return auth.CodeRejected, 0, fmt.Errorf("verify login code: unexpected reply %v", res)
	}
	switch res[0] {
	case 1:
		return auth.CodeAccepted, 0, nil
	case 3:
		return auth.CodeDiscarded, 0, nil
	default:
		return auth.CodeRejected, int(res[1]), nil
	}
}

// guessKey is the sliding-window ZSET of the wrong guesses counted under one key.
func guessKey(key string) string { return "login:guesses:{" + key + "}" }

// ChargeGuess implements auth.CodeStore with the sliding-window script of RateLimiter,
// naming the event so that RefundGuess can remove it.
func (s *CodeStore) ChargeGuess(ctx context.Context, key string, l auth.Limit) (auth.GuessCharge, error) {
	if l.Max < 1 || l.Window <= 0 {
		return auth.GuessCharge{}, errors.New("charge guess: limit and window must be positive")
	}
	id := eventID()
	res, err := rateLimitScript.Run(ctx, s.client, []string{guessKey(key)},
		s.now().UnixMilli(), millis(l.Window), l.Max, id).Int64Slice()
	if err != nil {
		return auth.GuessCharge{}, fmt.Errorf("charge guess: %w", err)
	}
	if len(res) != 3 {
		return auth.GuessCharge{}, fmt.Errorf("charge guess: unexpected reply %v", res)
	}
	if res[0] != 1 {
		return auth.GuessCharge{RetryAfter: time.Duration(res[1]) * time.Millisecond}, nil
	}
	return auth.GuessCharge{OK: true, ID: id, Left: int(res[2])}, nil
}

// RefundGuess implements auth.CodeStore.
func (s *CodeStore) RefundGuess(ctx context.Context, key, id string) error {
	if err := s.client.ZRem(ctx, guessKey(key), id).Err(); err != nil {
		return fmt.Errorf("refund code guess: %w", err)
	}
	return nil
}
