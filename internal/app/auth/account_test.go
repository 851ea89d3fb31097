package auth_test

import (
	"context"
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

// Authorisation reads the role the account holds now, not the token's claim.
func TestAuthenticateReadsTheCurrentRole(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	roleOf := func(t *testing.T, e *env, access string) domain.Role {
		t.Helper()
		p, err := e.svc.Authenticate.Handle(ctx, access)
		if err != nil {
			t.Fatalf("Authenticate: %v", err)
		}
		return p.Role
	}
	t.Run("a grant reaches a token issued before it", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		s := e.login(t, phone)
		if got := roleOf(t, e, s.AccessToken); got != domain.RoleUser {
			t.Fatalf("role before the grant = %s", got)
		}
		if _, err := e.svc.GrantAdmin.Handle(ctx, phone); err != nil {
			t.Fatal(err)
		}
		if got := roleOf(t, e, s.AccessToken); got != domain.RoleAdmin {
			t.Fatalf("role after the grant = %s, want ADMIN", got)
		}
	})
	t.Run("the cached role is rebuilt from the database", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, randomPhone())
		if _, err := e.users.SetRoleByID(ctx, s.User.ID, domain.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		// The login cached the account as it was: a change made outside the use cases
		// is not seen …
		if got := roleOf(t, e, s.AccessToken); got != domain.RoleUser {
			t.Fatalf("role cached at login = %s, want USER", got)
		}
		// … until the cache has lost it: then the database's role is read.
		e.cache.ForgetAccount(s.User.ID)
		if got := roleOf(t, e, s.AccessToken); got != domain.RoleAdmin {
			t.Fatalf("role read from the database = %s, want ADMIN", got)
		}
		// Once cached, a change made outside the use cases waits for the cache TTL …
		if _, err := e.users.SetRoleByID(ctx, s.User.ID, domain.RoleUser); err != nil {
			t.Fatal(err)
		}
		if got := roleOf(t, e, s.AccessToken); got != domain.RoleAdmin {
			t.Fatalf("role served from the cache = %s, want ADMIN", got)
		}
		// … and is read again once the cache has lost it.
		e.cache.ForgetAccount(s.User.ID)
		if got := roleOf(t, e, s.AccessToken); got != domain.RoleUser {
			t.Fatalf("role after the cache was lost = %s, want USER", got)
		}
	})
	t.Run("a blocked account is refused even if its sessions survived", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, randomPhone())
		e.users.Block(s.User.ID)
		e.cache.ForgetAccount(s.User.ID) // the cached state is lost (say, Redis restarted empty)
		_, err := e.svc.Authenticate.Handle(ctx, s.AccessToken)
		wantCode(t, err, domain.CodeUnauthenticated)
	})
}
