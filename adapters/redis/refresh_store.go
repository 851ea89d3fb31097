package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

var (
	//go:embed lua/session_create.lua
	sessionCreateLua    string
	sessionCreateScript = goredis.NewScript(sessionCreateLua)

	//go:embed lua/session_rotate.lua
	sessionRotateLua    string
	sessionRotateScript = goredis.NewScript(sessionRotateLua)

	//go:embed lua/session_revoke.lua
	sessionRevokeLua    string
	sessionRevokeScript = goredis.NewScript(sessionRevokeLua)
)

// RefreshStore keeps refresh-token families in Redis. All keys of one user share the hash
// tag {u<id>}, so creating, rotating and revoking (one family or all of a user's) are
// single atomic scripts, also on Redis Cluster.
type RefreshStore struct {
	client goredis.UniversalClient
	now    func() time.Time
	// checks batches concurrent Check calls (nil: one round trip each).
	checks *batcher
}

var _ auth.RefreshStore = (*RefreshStore)(nil)

// NewRefreshStore returns a RefreshStore on client.
func NewRefreshStore(client goredis.UniversalClient) *RefreshStore {
	return &RefreshStore{client: client, now: time.Now}
}

// WithCoalescedChecks returns a copy of s whose concurrent Check calls share pipelines,
// as c bounds them: the check every authenticated request makes.
func (s *RefreshStore) WithCoalescedChecks(c Coalescing) *RefreshStore {
	cp := *s
	cp.checks = nil
	if c.On() {
		cp.checks = newBatcher(s.client, c)
	}
	return &cp
}

// WithClock returns a copy of s that reads time from now.
func (s *RefreshStore) WithClock(now func() time.Time) *RefreshStore {
	c := *s
	c.now = now
	return &c
}

func sessionPrefix(userID int64) string {
	return "session:{u" + strconv.FormatInt(userID, 10) + "}:"
}

// familyKeys returns the families index and the two keys of each family.
func familyKeys(userID int64, families ...string) []string {
	p := sessionPrefix(userID)
	keys := make([]string, 0, 1+2*len(families))
	keys = append(keys, p+"families")
	for _, f := range families {
		keys = append(keys, p+"family:"+f, p+"family:"+f+":used")
	}
	return keys
}

// Create implements auth.RefreshStore.
func (s *RefreshStore) Create(ctx context.Context, userID int64, familyID, tokenHash string, ttl time.Duration) error {
	err := sessionCreateScript.Run(ctx, s.client, familyKeys(userID, familyID),
		s.now().UnixMilli(), familyID, tokenHash, millis(ttl)).Err()
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// Rotate implements auth.RefreshStore.
func (s *RefreshStore) Rotate(ctx context.Context, userID int64, familyID, oldHash, newHash string, ttl time.Duration) (auth.Rotation, error) {
	n, err := sessionRotateScript.Run(ctx, s.client, familyKeys(userID, familyID),
		s.now().UnixMilli(), familyID, oldHash, newHash, millis(ttl)).Int64()
	if err != nil {
		return auth.RefreshUnknown, fmt.Errorf("rotate refresh token: %w", err)
	}
	switch n {
	case 1:
		return auth.RefreshRotated, nil
	case -1:
		return auth.RefreshReused, nil
	default:
		return auth.RefreshUnknown, nil
	}
}

// accountKey holds the user's cached account state, "<role>|<0 or 1 for blocked>".
func accountKey(userID int64) string { return sessionPrefix(userID) + "account" }

// Check implements auth.RefreshStore: whether the family exists, and the cached account
// state, in one round trip (shared with concurrent checks when coalesced).
func (s *RefreshStore) Check(ctx context.Context, userID int64, familyID string) (auth.SessionCheck, error) {
	live := goredis.NewIntCmd(ctx, "exists", sessionPrefix(userID)+"family:"+familyID)
	acct := goredis.NewStringCmd(ctx, "get", accountKey(userID))
	if s.checks == nil {
		_, _ = s.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			_ = p.Process(ctx, live)
			_ = p.Process(ctx, acct)
			return nil
		})
	} else if err := s.checks.do(ctx, live, acct); err != nil {
		return auth.SessionCheck{}, fmt.Errorf("check session: %w", err)
	}
	n, err := live.Result()
	if err != nil {
		return auth.SessionCheck{}, fmt.Errorf("check session: %w", err)
	}
	out := auth.SessionCheck{Live: n == 1}
	v, err := acct.Result()
	switch {
	case errors.Is(err, goredis.Nil):
	case err != nil:
		return auth.SessionCheck{}, fmt.Errorf("check account state: %w", err)
	default:
		out.Account, out.Known = parseAccount(v)
	}
	return out, nil
}

func formatAccount(a auth.AccountState) string {
	if a.Blocked {
		return string(a.Role) + "|1"
	}
	return string(a.Role) + "|0"
}

func parseAccount(v string) (auth.AccountState, bool) {
	role, blocked, ok := strings.Cut(v, "|")
	if !ok || !domain.Role(role).Valid() || (blocked != "0" && blocked != "1") {
		return auth.AccountState{}, false // unreadable: rebuilt from the database
	}
	return auth.AccountState{Role: domain.Role(role), Blocked: blocked == "1"}, true
}

// SetAccount implements auth.RefreshStore.
func (s *RefreshStore) SetAccount(ctx context.Context, userID int64, a auth.AccountState, ttl time.Duration) error {
	if err := s.client.Set(ctx, accountKey(userID), formatAccount(a), ttl).Err(); err != nil {
		return fmt.Errorf("cache account state: %w", err)
	}
	return nil
}

// RememberAccount implements auth.RefreshStore.
func (s *RefreshStore) RememberAccount(ctx context.Context, userID int64, a auth.AccountState, ttl time.Duration) error {
	err := s.client.SetArgs(ctx, accountKey(userID), formatAccount(a), goredis.SetArgs{Mode: "NX", TTL: ttl}).Err()
	if err != nil && !errors.Is(err, goredis.Nil) {
		return fmt.Errorf("cache account state: %w", err)
	}
	return nil
}

// Revoke implements auth.RefreshStore.
func (s *RefreshStore) Revoke(ctx context.Context, userID int64, familyID string) error {
	if err := sessionRevokeScript.Run(ctx, s.client, familyKeys(userID, familyID), familyID).Err(); err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// revokeBatch bounds the keys handed to one revoke script.
const revokeBatch = 100

// RevokeAll implements auth.RefreshStore. It revokes the families it finds in batches
// until none are left, so a family created meanwhile is revoked too.
func (s *RefreshStore) RevokeAll(ctx context.Context, userID int64) error {
	index := sessionPrefix(userID) + "families"
	for {
		families, err := s.client.ZRange(ctx, index, 0, revokeBatch-1).Result()
		if err != nil {
			return fmt.Errorf("list sessions: %w", err)
		}
		if len(families) == 0 {
			return nil
		}
		args := make([]any, len(families))
		for i, f := range families {
			args[i] = f
		}
		left, err := sessionRevokeScript.Run(ctx, s.client, familyKeys(userID, families...), args...).Int64()
		if err != nil {
			return fmt.Errorf("revoke sessions: %w", err)
		}
		if left == 0 {
			return nil
		}
	}
}
