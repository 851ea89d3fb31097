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

// CodeStore keeps login codes (as digests) and their per-phone limits in Redis. All keys
// of one phone share the hash tag {<phone>}.
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

func loginKeys(phone string, names ...string) []string {
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = "login:{" + phone + "}:" + n
	}
	return keys
}

// Issue implements auth.CodeStore.
func (s *CodeStore) Issue(ctx context.Context, phone, digest string, l auth.SendLimits) (bool, time.Duration, error) {
	if l.CodeTTL <= 0 || l.Window <= 0 || l.Lock <= 0 || l.WindowMax < 1 || l.Interval < 0 || l.Day <= 0 || l.DayMax < 1 {
		return false, 0, errors.New("issue login code: invalid send limits")
	}
	res, err := loginCodeIssueScript.Run(ctx, s.client, loginKeys(phone, "code", "sends", "sendlock"),
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
func (s *CodeStore) Verify(ctx context.Context, phone, digest string, l auth.VerifyLimits) (auth.Verdict, time.Duration, error) {
	if l.MaxWrong < 1 || l.Window <= 0 || l.Lock <= 0 {
		return auth.CodeRejected, 0, errors.New("verify login code: invalid limits")
	}
	res, err := loginCodeVerifyScript.Run(ctx, s.client, loginKeys(phone, "code", "fails", "loginlock"),
		s.now().UnixMilli(), digest, l.MaxWrong, millis(l.Window), millis(l.Lock), eventID()).Int64Slice()
	if err != nil {
		return auth.CodeRejected, 0, fmt.Errorf("verify login code: %w", err)
	}
	if len(res) != 2 {
		return auth.CodeRejected, 0, fmt.Errorf("verify login code: unexpected reply %v", res)
	}
	switch res[0] {
	case 1:
		return auth.CodeAccepted, 0, nil
	case 2:
		return auth.CodeLocked, time.Duration(res[1]) * time.Millisecond, nil
	default:
		return auth.CodeRejected, 0, nil
	}
}
