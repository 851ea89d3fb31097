package service_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/redis/redistest"
)

// oldSession is a login session as the earlier version, which kept sessions only in
// Redis, handed it out.
type oldSession struct {
	user                 int64
	family               string
	access, refresh      string
	refreshHash          string
	nextRefresh          string // a token that replaced refresh, for a rotated session
	nextHash             string
	accountKey, cacheKey string // the account state's key, this version's cache entry
}

func newOldSession(t *testing.T, p authPayload) oldSession {
	t.Helper()
	parts := strings.Split(p.RefreshToken, ".")
	if len(parts) != 3 {
		t.Fatalf("refresh token %q is not <user>.<family>.<secret>", p.RefreshToken)
	}
	user, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil {
		t.Fatalf("refresh token %q: %v", p.RefreshToken, err)
	}
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	next := parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(secret)
	return oldSession{user: user, family: parts[1], access: p.AccessToken, refresh: p.RefreshToken,
		refreshHash: sha256Hex(p.RefreshToken), nextRefresh: next, nextHash: sha256Hex(next),
		accountKey: "session:{u" + parts[0] + "}:account", cacheKey: "session:{u" + parts[0] + "}:f:" + parts[1]}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Deploying this version over one that kept sessions only in Redis logs nobody out:
// at start the families that version left are copied into the database. A live old
// session's access token authenticates and its refresh token rotates; a token the old
// version had rotated, presented again, ends its session; a session the old version
// ended stays ended. A later start does not scan again.
func TestSessionsOnlyRedisHeldSurviveTheUpgrade(t *testing.T) {
	t.Parallel()
	sessionBackends(t, func(t *testing.T, env map[string]string) {
		ctx := context.Background()
		env["DEALSPOT_DATA_DIR"] = t.TempDir() // one SQLite file for every start

		// Accounts and tokens are made by a first start; then the database forgets the
		// sessions and Redis holds them as the earlier version wrote them.
		srv, svc := startService(t, env)
		c := client(srv)
		live := newOldSession(t, login(t, c, "13300009901"))
		rotated := newOldSession(t, login(t, c, "13300009902"))
		ended := newOldSession(t, login(t, c, "13300009903"))
		db := svc.Store.Client()
		if _, err := db.SessionToken.Delete().Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Session.Delete().Exec(ctx); err != nil {
			t.Fatal(err)
		}
		rc := svc.Redis.Client
		if err := rc.FlushDB(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		old := redistest.LegacySessions{Client: rc}
		const ttl = 24 * time.Hour
		for _, s := range []oldSession{live, rotated, ended} {
			if err := old.Create(ctx, s.user, s.family, s.refreshHash, ttl); err != nil {
				t.Fatal(err)
			}
			// That version cached the account state under the same key and format.
			if err := rc.Set(ctx, s.accountKey, "user|0", time.Hour).Err(); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := old.Rotate(ctx, rotated.user, rotated.family, rotated.refreshHash, rotated.nextHash, ttl); err != nil || n != 1 {
			t.Fatalf("old rotation = %d, %v", n, err)
		}
		if err := old.Revoke(ctx, ended.user, ended.family); err != nil {
			t.Fatal(err)
		}
		// Keys the import cannot read do not stop the start.
		if err := rc.Set(ctx, "session:{u1}:family:0123456789abcdef0123456789abcdef", "x", 0).Err(); err != nil {
			t.Fatal(err)
		}
		if err := rc.HSet(ctx, "session:{u2}:family:0123456789abcdef0123456789abcdef", "cur", "h").Err(); err != nil {
			t.Fatal(err)
		}

		srv, svc = startService(t, env)
		c = client(srv)

		// A live session: its access token authenticates, its refresh token rotates.
		if u, resp := me(t, c, live.access); u == nil {
			t.Fatalf("access token of a live old session: %+v", resp.Errors)
		}
		next, resp := refresh(t, c, live.refresh)
		if len(resp.Errors) > 0 {
			t.Fatalf("refresh of a live old session: %+v", resp.Errors)
		}
		if u, resp := me(t, c, next.AccessToken); u == nil {
			t.Fatalf("access token of a rotated old session: %+v", resp.Errors)
		}
		if _, resp := refresh(t, c, next.RefreshToken); len(resp.Errors) > 0 {
			t.Fatalf("second refresh of an old session: %+v", resp.Errors)
		}

		// A token the old version rotated, presented again, ends the session.
		if u, resp := me(t, c, rotated.access); u == nil {
			t.Fatalf("access token of an old session rotated by the old version: %+v", resp.Errors)
		}
		_, resp = refresh(t, c, rotated.refresh)
		wantCode(t, "a token the old version rotated, presented again", resp, "UNAUTHENTICATED")
		_, resp = refresh(t, c, rotated.nextRefresh)
		wantCode(t, "current token of an old session ended by reuse", resp, "UNAUTHENTICATED")
		_, resp = me(t, c, rotated.access)
		wantCode(t, "access token of an old session ended by reuse", resp, "UNAUTHENTICATED")

		// A session the old version ended stays ended.
		_, resp = me(t, c, ended.access)
		wantCode(t, "access token of a session the old version ended", resp, "UNAUTHENTICATED")
		_, resp = refresh(t, c, ended.refresh)
		wantCode(t, "refresh token of a session the old version ended", resp, "UNAUTHENTICATED")

		// The scan ran once: a family written in the old format now is not copied.
		late := newOldSession(t, login(t, c, "13300009904"))
		if _, err := svc.Store.Client().Session.Delete().Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := svc.Redis.Client.Del(ctx, late.cacheKey).Err(); err != nil {
			t.Fatal(err)
		}
		if err := (redistest.LegacySessions{Client: svc.Redis.Client}).Create(ctx, late.user, late.family, late.refreshHash, ttl); err != nil {
			t.Fatal(err)
		}
		srv, _ = startService(t, env)
		_, resp = me(t, client(srv), late.access)
		wantCode(t, "access token of an old-format session written after the import", resp, "UNAUTHENTICATED")
	})
}
