package service_test

import (
	"context"
	"testing"
)

const adminOnly = `{ uniqueVisitors(from: "2026-11-01", to: "2026-11-02") }`

// A role change reaches tokens issued before it at once, on every instance: the role is
// read from the session check, not from the token's claims.
func TestRoleChangeReachesExistingTokens(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		srv, svc := startService(t, env)
		c := client(srv)
		const phone = "13300004444"
		s := login(t, c, phone)
		c.Token = s.AccessToken
		wantCode(t, "admin query as USER", c.Do(t, adminOnly, nil), "FORBIDDEN")

		if _, err := svc.App.Auth.GrantAdmin.Handle(context.Background(), phone); err != nil {
			t.Fatal(err)
		}
		var me struct{ Me struct{ Role string } }
		c.Do(t, `{ me { role } }`, nil).Decode(t, &me)
		if me.Me.Role != "ADMIN" {
			t.Fatalf("me.role after grant = %q", me.Me.Role)
		}
		if resp := c.Do(t, adminOnly, nil); len(resp.Errors) > 0 {
			t.Fatalf("admin query with a token issued before the grant: %+v", resp.Errors)
		}
	})
}

// The cached role is rebuilt from the database when Redis has lost it.
func TestRoleSurvivesLostRedisState(t *testing.T) {
	t.Parallel()
	srv, svc := startService(t, map[string]string{"JWT_SECRET": testSecret})
	c := client(srv)
	const phone = "13300004445"
	s := login(t, c, phone)
	if _, err := svc.App.Auth.GrantAdmin.Handle(context.Background(), phone); err != nil {
		t.Fatal(err)
	}
	// Lose every cached account state, but keep the session itself.
	keys, err := svc.Redis.Client.Keys(context.Background(), "session:*:account").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) > 0 {
		svc.Redis.Client.Del(context.Background(), keys...)
	}
	c.Token = s.AccessToken
	if resp := c.Do(t, adminOnly, nil); len(resp.Errors) > 0 {
		t.Fatalf("admin query after the cached role was lost: %+v", resp.Errors)
	}
}
