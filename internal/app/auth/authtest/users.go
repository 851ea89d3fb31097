package authtest

import (
	"context"
	"errors"
	"testing"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// UsersContract is what every auth.Users must do, as its doc comments say. newUsers
// returns a store; stores of one test may share their database.
func UsersContract(t *testing.T, newUsers func(t *testing.T) auth.Users) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, users auth.Users)
	}{
		{"a created user is found by id and by phone", usersCreateAndFind},
		{"a taken phone number is a conflict", usersConflict},
		{"unknown users are not found", usersNotFound},
		{"role and blocked change by phone and by id", usersChange},
		{"a password hash is stored and read back", usersPassword},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newUsers(t))
		})
	}
}

// sameUser compares what the caller chose of a user.
func sameUser(a, b domain.User) bool {
	return a.ID == b.ID && a.Phone == b.Phone && a.NickName == b.NickName && a.Role == b.Role && a.Blocked == b.Blocked
}

func createUser(t *testing.T, users auth.Users) domain.User {
	t.Helper()
	want := domain.User{Phone: newPhone(), NickName: "nick", Role: domain.RoleUser}
	u, err := users.CreateUser(context.Background(), want)
	if err != nil {
		t.Fatalf("create user: %v", err)
	}
	if want.ID = u.ID; u.ID == 0 || !sameUser(u, want) {
		t.Fatalf("created %+v, want %+v with an id", u, want)
	}
	return u
}

func usersCreateAndFind(t *testing.T, users auth.Users) {
	ctx := context.Background()
	a, b := createUser(t, users), createUser(t, users)
	if a.ID == b.ID {
		t.Fatalf("two users share id %d", a.ID)
	}
	for _, u := range []domain.User{a, b} {
		if got, err := users.User(ctx, u.ID); err != nil || !sameUser(got, u) {
			t.Fatalf("user %d = %+v, %v; want %+v", u.ID, got, err, u)
		}
		if got, err := users.UserByPhone(ctx, u.Phone); err != nil || !sameUser(got, u) {
			t.Fatalf("user by phone %s = %+v, %v; want %+v", u.Phone, got, err, u)
		}
	}
}

func usersConflict(t *testing.T, users auth.Users) {
	a := createUser(t, users)
	_, err := users.CreateUser(context.Background(), domain.User{Phone: a.Phone, NickName: "other", Role: domain.RoleUser})
	if !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("second user with phone %s: %v, want domain.ErrConflict", a.Phone, err)
	}
	if got, err := users.UserByPhone(context.Background(), a.Phone); err != nil || !sameUser(got, a) {
		t.Fatalf("user by phone after the conflict = %+v, %v; want %+v", got, err, a)
	}
}

func usersNotFound(t *testing.T, users auth.Users) {
	ctx := context.Background()
	unknown, phone := newID(), newPhone()
	for name, call := range map[string]func() error{
		"User":            func() error { _, err := users.User(ctx, unknown); return err },
		"UserByPhone":     func() error { _, err := users.UserByPhone(ctx, phone); return err },
		"SetBlocked":      func() error { _, err := users.SetBlocked(ctx, phone, true); return err },
		"SetRoleByID":     func() error { _, err := users.SetRoleByID(ctx, unknown, domain.RoleAdmin); return err },
		"SetBlockedByID":  func() error { _, err := users.SetBlockedByID(ctx, unknown, true); return err },
		"Credentials":     func() error { _, _, err := users.Credentials(ctx, phone); return err },
		"SetPasswordHash": func() error { return users.SetPasswordHash(ctx, unknown, "$argon2id$x") },
	} {
		if err := call(); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("%s of an unknown user: %v, want domain.ErrNotFound", name, err)
		}
	}
	// SetRole of an unknown phone: the port says domain.ErrNotFound; the database store
	// creates the user instead (GrantAdmin copes with both). Either way nothing else
	// changes and what comes back is the phone's user with the role.
	u, err := users.SetRole(ctx, phone, domain.RoleAdmin)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("SetRole of an unknown phone: %v", err)
	}
	if err == nil && (u.Phone != phone || u.Role != domain.RoleAdmin || u.ID == 0) {
		t.Fatalf("SetRole of an unknown phone returned %+v", u)
	}
}

func usersChange(t *testing.T, users auth.Users) {
	ctx := context.Background()
	a, other := createUser(t, users), createUser(t, users)
	step := func(name string, got domain.User, err error, want domain.User) {
		t.Helper()
		if err != nil || !sameUser(got, want) {
			t.Fatalf("%s: %+v, %v; want %+v", name, got, err, want)
		}
		if stored, err := users.User(ctx, want.ID); err != nil || !sameUser(stored, want) {
			t.Fatalf("after %s the user is %+v, %v; want %+v", name, stored, err, want)
		}
	}
	want := a
	want.Role = domain.RoleAdmin
	u, err := users.SetRole(ctx, a.Phone, domain.RoleAdmin)
	step("SetRole", u, err, want)
	want.Blocked = true
	u, err = users.SetBlocked(ctx, a.Phone, true)
	step("SetBlocked", u, err, want)
	want.Role = domain.RoleUser
	u, err = users.SetRoleByID(ctx, a.ID, domain.RoleUser)
	step("SetRoleByID", u, err, want)
	want.Blocked = false
	u, err = users.SetBlockedByID(ctx, a.ID, false)
	step("SetBlockedByID", u, err, want)
	if got, err := users.User(ctx, other.ID); err != nil || !sameUser(got, other) {
		t.Fatalf("another user changed: %+v, %v; want %+v", got, err, other)
	}
}

func usersPassword(t *testing.T, users auth.Users) {
	ctx := context.Background()
	a, other := createUser(t, users), createUser(t, users)
	if u, hash, err := users.Credentials(ctx, a.Phone); err != nil || hash != "" || u.HasPassword || !sameUser(u, a) {
		t.Fatalf("credentials of a new user: %+v, %q, %v", u, hash, err)
	}
	const hash = "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5"
	if err := users.SetPasswordHash(ctx, a.ID, hash); err != nil {
		t.Fatalf("SetPasswordHash: %v", err)
	}
	if u, got, err := users.Credentials(ctx, a.Phone); err != nil || got != hash || !u.HasPassword || !sameUser(u, a) {
		t.Fatalf("credentials after SetPasswordHash: %+v, %q, %v", u, got, err)
	}
	if u, err := users.User(ctx, a.ID); err != nil || !u.HasPassword {
		t.Fatalf("User after SetPasswordHash: %+v, %v; want HasPassword", u, err)
	}
	if u, hash, err := users.Credentials(ctx, other.Phone); err != nil || hash != "" || u.HasPassword {
		t.Fatalf("another user's credentials: %+v, %q, %v", u, hash, err)
	}
}
