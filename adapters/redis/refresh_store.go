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
	//go:embed lua/session_live.lua
	sessionLiveLua    string
	sessionLiveScript = goredis.NewScript(sessionLiveLua)

	//go:embed lua/session_ended.lua
	sessionEndedLua    string
	sessionEndedScript = goredis.NewScript(sessionEndedLua)
)

// SessionCache caches, in front of the database, whether login sessions (refresh-token
// families) are live and each user's account state. One user's keys share the hash tag
// {u<id>}:
//
//	session:{u<id>}:f:<family>   "1" live, "0" ended; expires with the family or after
//	                             the TTL given for ended ones
//	session:{u<id>}:account      "<role>|<0 or 1 for blocked>"
//
// Losing any of it costs a database read (auth's sessionStore rebuilds it).
type SessionCache struct {
	client goredis.UniversalClient
	// checks batches concurrent Check calls (nil: one round trip each).
	checks *batcher
}

var _ auth.SessionCache = (*SessionCache)(nil)
var _ auth.LegacySessions = (*SessionCache)(nil)

// NewSessionCache returns a SessionCache on client.
func NewSessionCache(client goredis.UniversalClient) *SessionCache {
	return &SessionCache{client: client}
}

// WithCoalescedChecks returns a copy of s whose concurrent Check calls share pipelines,
// as c bounds them: the check every authenticated request makes.
func (s *SessionCache) WithCoalescedChecks(c Coalescing) *SessionCache {
	cp := *s
	cp.checks = nil
	if c.On() {
		cp.checks = newBatcher(s.client, c)
	}
	return &cp
}

func sessionPrefix(userID int64) string {
	return "session:{u" + strconv.FormatInt(userID, 10) + "}:"
}

func familyKey(userID int64, familyID string) string {
	return sessionPrefix(userID) + "f:" + familyID
}

// accountKey holds the user's cached account state, "<role>|<0 or 1 for blocked>".
func accountKey(userID int64) string { return sessionPrefix(userID) + "account" }

// Check implements auth.SessionCache: the family's cached state and the cached account
// state, in one round trip (shared with concurrent checks when coalesced) and one MGET,
// as both keys share the user's hash tag.
func (s *SessionCache) Check(ctx context.Context, userID int64, familyID string) (auth.CachedSession, error) {
	prefix := sessionPrefix(userID)
	cmd := goredis.NewSliceCmd(ctx, "mget", prefix+"f:"+familyID, prefix+"account")
	if s.checks == nil {
		_ = s.client.Process(ctx, cmd)
	} else if err := s.checks.do(ctx, cmd); err != nil {
		return auth.CachedSession{}, fmt.Errorf("check session: %w", err)
	}
	vals, err := cmd.Result()
	if err == nil && len(vals) != 2 {
		err = fmt.Errorf("MGET answered %d values for 2 keys", len(vals))
	}
	if err != nil {
		return auth.CachedSession{}, fmt.Errorf("check session: %w", err)
	}
	var out auth.CachedSession
	switch f, _ := vals[0].(string); {
	case vals[0] == nil:
	case f == "1":
		out.Family = auth.FamilyLive
	case f == "0":
		out.Family = auth.FamilyEnded
	}
	if v, ok := vals[1].(string); ok {
		out.Account, out.Known = parseAccount(v)
	}
	return out, nil
}

// PutLive implements auth.SessionCache.
func (s *SessionCache) PutLive(ctx context.Context, userID int64, familyID string, ttl time.Duration) error {
	if ttl <= 0 {
		return nil
	}
	if err := sessionLiveScript.Run(ctx, s.client, []string{familyKey(userID, familyID)}, millis(ttl)).Err(); err != nil {
		return fmt.Errorf("cache live session: %w", err)
	}
	return nil
}

// PutEnded implements auth.SessionCache.
func (s *SessionCache) PutEnded(ctx context.Context, userID int64, ttl time.Duration, familyIDs ...string) error {
	if len(familyIDs) == 0 {
		return nil
	}
	keys := make([]string, len(familyIDs))
	for i, f := range familyIDs {
		keys[i] = familyKey(userID, f)
	}
	if err := sessionEndedScript.Run(ctx, s.client, keys, max(millis(ttl), 1)).Err(); err != nil {
		return fmt.Errorf("cache ended sessions: %w", err)
	}
	return nil
}

// Create caches family familyID of userID as live for ttl. It is for tools that mint
// sessions without the database (the load generator); such a session ends when the
// cache loses it. tokenHash is not kept.
func (s *SessionCache) Create(ctx context.Context, userID int64, familyID, _ string, ttl time.Duration) error {
	return s.PutLive(ctx, userID, familyID, ttl)
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

// SetAccount implements auth.SessionCache.
func (s *SessionCache) SetAccount(ctx context.Context, userID int64, a auth.AccountState, ttl time.Duration) error {
	if err := s.client.Set(ctx, accountKey(userID), formatAccount(a), ttl).Err(); err != nil {
		return fmt.Errorf("cache account state: %w", err)
	}
	return nil
}

// RememberAccount implements auth.SessionCache.
func (s *SessionCache) RememberAccount(ctx context.Context, userID int64, a auth.AccountState, ttl time.Duration) error {
	err := s.client.SetArgs(ctx, accountKey(userID), formatAccount(a), goredis.SetArgs{Mode: "NX", TTL: ttl}).Err()
	if err != nil && !errors.Is(err, goredis.Nil) {
		return fmt.Errorf("cache account state: %w", err)
	}
	return nil
}
