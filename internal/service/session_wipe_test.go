package service_test

import (
	"context"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// sessionBackends runs fn on a real Redis with SQLite, and with PostgreSQL (skipped
// without TEST_DATABASE_URL / TEST_REDIS_URL, failed under CI=true).
func sessionBackends(t *testing.T, fn func(t *testing.T, env map[string]string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, map[string]string{"JWT_SECRET": testSecret, "LOGIN_CODE_INTERVAL": "1ms",
			"REDIS_URL": testsupport.RedisURL(t)})
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, map[string]string{"JWT_SECRET": testSecret, "LOGIN_CODE_INTERVAL": "1ms",
			"REDIS_URL": testsupport.RedisURL(t), "DATABASE_URL": testsupport.PostgresURL(t)})
	})
}

// Sessions live in the database; Redis only caches them. A Redis that comes back empty
// logs nobody in or out: live sessions keep working (tokens and refresh), ended ones
// stay ended, a rotated refresh token presented again still ends its session, and roles
// and blocks hold.
func TestSessionsSurviveAnEmptiedRedis(t *testing.T) {
	t.Parallel()
	sessionBackends(t, func(t *testing.T, env map[string]string) {
		srv, svc := startService(t, env)
		c := client(srv)
		ctx := context.Background()

		live := login(t, c, "13300008801")
		loggedOut := login(t, c, "13300008802")
		reused := login(t, c, "13300008803")
		blocked := login(t, c, "13300008804")
		admin := login(t, c, "13300008805")

		c.Token = loggedOut.AccessToken
		var out struct{ Logout bool }
		c.Do(t, `mutation { logout }`, nil).Decode(t, &out)
		if !out.Logout {
			t.Fatal("logout returned false")
		}
		rotated, resp := refresh(t, c, reused.RefreshToken)
		if len(resp.Errors) > 0 {
			t.Fatalf("first refresh: %+v", resp.Errors)
		}
		if _, err := svc.Ops.BlockUser.Handle(ctx, "13300008804", true); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Ops.GrantAdmin.Handle(ctx, "13300008805"); err != nil {
			t.Fatal(err)
		}

		if err := svc.Redis.Client.FlushDB(ctx).Err(); err != nil {
			t.Fatal(err)
		}

		// A live session: its access token authenticates, its refresh token rotates.
		if u, resp := me(t, c, live.AccessToken); u == nil {
			t.Fatalf("access token of a live session after the wipe: %+v", resp.Errors)
		}
		next, resp := refresh(t, c, live.RefreshToken)
		if len(resp.Errors) > 0 {
			t.Fatalf("refresh of a live session after the wipe: %+v", resp.Errors)
		}
		if u, resp := me(t, c, next.AccessToken); u == nil {
			t.Fatalf("rotated access token after the wipe: %+v", resp.Errors)
		}
		_, resp = refresh(t, c, live.RefreshToken)
		wantCode(t, "a token rotated after the wipe, presented again", resp, "UNAUTHENTICATED")
		_, resp = me(t, c, next.AccessToken)
		wantCode(t, "access token of a session ended by reuse after the wipe", resp, "UNAUTHENTICATED")

		// A logged-out session stays logged out.
		_, resp = me(t, c, loggedOut.AccessToken)
		wantCode(t, "access token of a logged-out session", resp, "UNAUTHENTICATED")
		_, resp = refresh(t, c, loggedOut.RefreshToken)
		wantCode(t, "refresh token of a logged-out session", resp, "UNAUTHENTICATED")

		// A refresh token rotated before the wipe, presented again, ends its session.
		_, resp = refresh(t, c, reused.RefreshToken)
		wantCode(t, "a token rotated before the wipe, presented again", resp, "UNAUTHENTICATED")
		_, resp = refresh(t, c, rotated.RefreshToken)
		wantCode(t, "current token of a session ended by reuse", resp, "UNAUTHENTICATED")
		_, resp = me(t, c, rotated.AccessToken)
		wantCode(t, "access token of a session ended by reuse", resp, "UNAUTHENTICATED")

		// A blocked user stays blocked.
		_, resp = me(t, c, blocked.AccessToken)
		wantCode(t, "access token of a blocked user", resp, "UNAUTHENTICATED")
		_, resp = refresh(t, c, blocked.RefreshToken)
		wantCode(t, "refresh token of a blocked user", resp, "UNAUTHENTICATED")
		c.Token = ""
		r := c.Do(t, `mutation($p: String!) { sendLoginCode(phone: $p) { sent } }`, map[string]any{"p": "13300008804"})
		wantCode(t, "login code for a blocked user", r, "FORBIDDEN")

		// An admin stays admin.
		c.Token = admin.AccessToken
		if resp := c.Do(t, adminOnly, nil); len(resp.Errors) > 0 {
			t.Fatalf("admin query after the wipe: %+v", resp.Errors)
		}
	})
}
