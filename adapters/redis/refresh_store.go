package redis

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/auth"
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
	// checks batches concurrent Active calls (nil: one round trip each).
	checks *batcher
}

var _ auth.RefreshStore = (*RefreshStore)(nil)

// NewRefreshStore returns a RefreshStore on client.
func NewRefreshStore(client goredis.UniversalClient) *RefreshStore {
	return &RefreshStore{client: client, now: time.Now}
}

// WithCoalescedChecks returns a copy of s whose concurrent Active calls share pipelines,
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

// Active implements auth.RefreshStore.
func (s *RefreshStore) Active(ctx context.Context, userID int64, familyID string) (bool, error) {
	key := sessionPrefix(userID) + "family:" + familyID
	var cmd *goredis.IntCmd
	if s.checks == nil {
		cmd = s.client.Exists(ctx, key)
	} else {
		cmd = goredis.NewIntCmd(ctx, "exists", key)
		if err := s.checks.do(ctx, cmd); err != nil {
			return false, fmt.Errorf("check session: %w", err)
		}
	}
	n, err := cmd.Result()
	if err != nil {
		return false, fmt.Errorf("check session: %w", err)
	}
	return n == 1, nil
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
