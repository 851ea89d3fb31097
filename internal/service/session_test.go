package service_test

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/dealspot/dealspot/internal/service"
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

		if _, err := svc.Ops.GrantAdmin.Handle(context.Background(), phone); err != nil {
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
	if _, err := svc.Ops.GrantAdmin.Handle(context.Background(), phone); err != nil {
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

// `dealspot admin` on the embedded defaults acts on the running server: it reaches the
// server's embedded Redis through the address file in the data directory, so a block
// ends the user's sessions there at once and a grant reaches their tokens.
func TestAdminCommandActsOnARunningEmbeddedServer(t *testing.T) {
	t.Parallel()
	srv, svc := startService(t, map[string]string{"JWT_SECRET": testSecret, "LOGIN_CODE_INTERVAL": "1ms"})
	c := client(srv)
	const phone = "13300004446"
	s := login(t, c, phone)

	info, err := os.Stat(service.EmbeddedRedisFile(svc.Config))
	if err != nil {
		t.Fatalf("the server published no embedded Redis address: %v", err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("address file mode %v, want 0600", info.Mode().Perm())
	}

	adm, err := service.OpenAdmin(context.Background(), svc.Config, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	if !adm.Attached {
		t.Fatal("admin did not attach to the running server's Redis")
	}
	if _, err := adm.Ops.GrantAdmin.Handle(context.Background(), phone); err != nil {
		t.Fatal(err)
	}
	c.Token = s.AccessToken
	if resp := c.Do(t, adminOnly, nil); len(resp.Errors) > 0 {
		t.Fatalf("admin query after `admin grant`: %+v", resp.Errors)
	}
	if _, err := adm.Ops.BlockUser.Handle(context.Background(), phone, true); err != nil {
		t.Fatal(err)
	}
	_, resp := me(t, c, s.AccessToken)
	wantCode(t, "token after `admin block`", resp, "UNAUTHENTICATED")
	_, resp = refresh(t, c, s.RefreshToken)
	wantCode(t, "refresh after `admin block`", resp, "UNAUTHENTICATED")
}

// Administrators manage accounts over GraphQL: blockUser ends the user's sessions at once,
// unblockUser lets them back in, setRole reaches their existing tokens.
func TestAdminMutationsManageUsers(t *testing.T) {
	t.Parallel()
	const adminPhone, userPhone = "13300004447", "13300004448"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "LOGIN_CODE_INTERVAL": "1ms", "ADMIN_PHONES": adminPhone})
	adm, usr := client(srv), client(srv)
	a := login(t, adm, adminPhone)
	u := login(t, usr, userPhone)
	adm.Token, usr.Token = a.AccessToken, u.AccessToken
	vars := map[string]any{"u": u.User.ID}
	const block = `mutation($u: ID!) { blockUser(userId: $u) { id role } }`

	wantCode(t, "blockUser by a USER", usr.Do(t, block, map[string]any{"u": a.User.ID}), "FORBIDDEN")
	wantCode(t, "setRole by a USER", usr.Do(t, `mutation($u: ID!) { setRole(userId: $u, role: ADMIN) { id } }`, vars), "FORBIDDEN")
	wantCode(t, "blocking oneself", adm.Do(t, block, map[string]any{"u": a.User.ID}), "BAD_USER_INPUT")
	wantCode(t, "blocking an unknown user", adm.Do(t, block, map[string]any{"u": "999999"}), "NOT_FOUND")

	var out struct{ BlockUser struct{ ID string } }
	adm.Do(t, block, vars).Decode(t, &out)
	if out.BlockUser.ID != u.User.ID {
		t.Fatalf("blockUser returned %+v", out)
	}
	_, resp := me(t, usr, u.AccessToken)
	wantCode(t, "token of a user blocked by blockUser", resp, "UNAUTHENTICATED")
	_, resp = refresh(t, usr, u.RefreshToken)
	wantCode(t, "refresh of a user blocked by blockUser", resp, "UNAUTHENTICATED")

	adm.Do(t, `mutation($u: ID!) { unblockUser(userId: $u) { id } }`, vars).Decode(t, &struct{}{})
	u = login(t, usr, userPhone)
	usr.Token = u.AccessToken
	wantCode(t, "admin query as USER", usr.Do(t, adminOnly, nil), "FORBIDDEN")
	var role struct{ SetRole struct{ Role string } }
	adm.Do(t, `mutation($u: ID!) { setRole(userId: $u, role: ADMIN) { role } }`, vars).Decode(t, &role)
	if role.SetRole.Role != "ADMIN" {
		t.Fatalf("setRole returned %+v", role)
	}
	if resp := usr.Do(t, adminOnly, nil); len(resp.Errors) > 0 {
		t.Fatalf("admin query after setRole ADMIN: %+v", resp.Errors)
	}
	adm.Do(t, `mutation($u: ID!) { setRole(userId: $u, role: USER) { role } }`, vars).Decode(t, &role)
	wantCode(t, "admin query after setRole USER", usr.Do(t, adminOnly, nil), "FORBIDDEN")
}
