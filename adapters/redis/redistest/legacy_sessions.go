package redistest

import (
	"context"
	_ "embed"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// The scripts an earlier version kept sessions with, only in Redis, unchanged: tests
// write sessions as that version did and check this one takes them over.
var (
	//go:embed lua/legacy_session_create.lua
	legacyCreateLua    string
	legacyCreateScript = goredis.NewScript(legacyCreateLua)

	//go:embed lua/legacy_session_rotate.lua
	legacyRotateLua    string
	legacyRotateScript = goredis.NewScript(legacyRotateLua)

	//go:embed lua/legacy_session_revoke.lua
	legacyRevokeLua    string
	legacyRevokeScript = goredis.NewScript(legacyRevokeLua)
)

// LegacySessions writes sessions (refresh-token families) the way the earlier version
// did. Hashes are of refresh tokens; times are now on the caller's clock.
type LegacySessions struct {
	Client goredis.UniversalClient
}

func legacyKeys(userID int64, family string) []string {
	p := "session:{u" + strconv.FormatInt(userID, 10) + "}:"
	return []string{p + "families", p + "family:" + family, p + "family:" + family + ":used"}
}

// Create starts a family with tokenHash as its current token, valid for ttl.
func (l LegacySessions) Create(ctx context.Context, userID int64, family, tokenHash string, ttl time.Duration) error {
	return legacyCreateScript.Run(ctx, l.Client, legacyKeys(userID, family),
		time.Now().UnixMilli(), family, tokenHash, ttl.Milliseconds()).Err()
}

// Rotate replaces the current token oldHash by newHash; it returns 1 rotated, 0 unknown
// and -1 reused (the family is deleted).
func (l LegacySessions) Rotate(ctx context.Context, userID int64, family, oldHash, newHash string, ttl time.Duration) (int64, error) {
	return legacyRotateScript.Run(ctx, l.Client, legacyKeys(userID, family),
		time.Now().UnixMilli(), family, oldHash, newHash, ttl.Milliseconds()).Int64()
}

// Revoke ends a family: that version deleted its keys.
func (l LegacySessions) Revoke(ctx context.Context, userID int64, family string) error {
	return legacyRevokeScript.Run(ctx, l.Client, legacyKeys(userID, family), family).Err()
}
