package auth_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// fastArgon2 keeps the tests quick; the defaults are tested for what they are.
var fastArgon2 = auth.Argon2Params{MemoryKiB: 64, Iterations: 1, Parallelism: 1}

func newPasswordEnv(t *testing.T, configure func(*auth.Config)) *env {
	t.Helper()
	return newEnv(t, func(c *auth.Config) {
		c.Password.Argon2 = fastArgon2
		if configure != nil {
			configure(c)
		}
	})
}

// withPassword logs phone in with a code and gives the account password.
func (e *env) withPassword(t *testing.T, phone, password string) auth.Session {
	t.Helper()
	s := e.login(t, phone)
	if err := e.svc.SetPassword.Handle(context.Background(), principalOf(t, e, s), password, nil, ""); err != nil {
		t.Fatalf("SetPassword: %v", err)
	}
	return s
}

func (e *env) passwordLogin(phone, password, ip string) (auth.Session, error) {
	return e.svc.LoginWithPassword.Handle(context.Background(), phone, password, ip)
}

func TestLoginWithPassword(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newPasswordEnv(t, nil)
	phone := "13700000021"
	s := e.withPassword(t, phone, "correct horse")
	for _, variant := range []string{phone, "+86 137-0000-0021", "86 137 0000 0021"} {
		got, err := e.passwordLogin(variant, "correct horse", "")
		if err != nil || got.User.ID != s.User.ID || got.AccessToken == "" || got.RefreshToken == "" {
			t.Fatalf("LoginWithPassword(%q) = (%+v, %v)", variant, got.User, err)
		}
		if p := principalOf(t, e, got); p.UserID != s.User.ID {
			t.Fatalf("the session's principal is %+v", p)
		}
	}
	me, err := e.svc.CurrentUser.Handle(ctx, principalOf(t, e, s))
	if err != nil || !me.HasPassword {
		t.Fatalf("CurrentUser = (%+v, %v), want HasPassword", me, err)
	}
	_, err = e.passwordLogin(phone, "correct horsE", "")
	wantCode(t, err, domain.CodeBadUserInput)
}

func TestPasswordIsStoredAsArgon2id(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newPasswordEnv(t, nil)
	a := e.withPassword(t, "13700000031", "same password")
	b := e.withPassword(t, "13700000032", "same password")
	_, ha, err := e.users.Credentials(ctx, a.User.Phone)
	if err != nil {
		t.Fatal(err)
	}
	_, hb, _ := e.users.Credentials(ctx, b.User.Phone)
	if !strings.HasPrefix(ha, "$argon2id$v=19$m=64,t=1,p=1$") || strings.Contains(ha, "same password") {
		t.Fatalf("stored hash %q", ha)
	}
	if ha == hb {
		t.Fatal("two accounts with one password have one hash: no salt")
	}
	// New parameters apply to a password at its next login.
	e2 := newEnvSharing(t, e, func(c *auth.Config) {
		c.Password.Argon2 = auth.Argon2Params{MemoryKiB: 128, Iterations: 2, Parallelism: 1}
	})
	if _, err := e2.passwordLogin(a.User.Phone, "same password", ""); err != nil {
		t.Fatalf("login after the parameters changed: %v", err)
	}
	_, ha2, _ := e.users.Credentials(ctx, a.User.Phone)
	if !strings.HasPrefix(ha2, "$argon2id$v=19$m=128,t=2,p=1$") {
		t.Fatalf("hash after a login under new parameters: %q", ha2)
	}
	if _, err := e2.passwordLogin(a.User.Phone, "same password", ""); err != nil {
		t.Fatalf("login with the rehashed password: %v", err)
	}
}

func TestSetPassword(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newPasswordEnv(t, nil)
	phone := "13700000041"
	s := e.withPassword(t, phone, "first password")
	p := principalOf(t, e, s)
	ptr := func(s string) *string { return &s }

	err := e.svc.SetPassword.Handle(ctx, p, "second password", nil, "")
	wantCode(t, err, domain.CodeBadUserInput)
	err = e.svc.SetPassword.Handle(ctx, p, "second password", ptr("wrong password"), "")
	if left := triesLeft(t, err); left != 4 {
		t.Fatalf("a wrong current password: triesLeft %d, want 4", left)
	}
	if err := e.svc.SetPassword.Handle(ctx, p, "second password", ptr("first password"), ""); err != nil {
		t.Fatalf("SetPassword with the current password: %v", err)
	}
	_, err = e.passwordLogin(phone, "first password", "")
	wantCode(t, err, domain.CodeBadUserInput)
	if _, err := e.passwordLogin(phone, "second password", ""); err != nil {
		t.Fatalf("login with the new password: %v", err)
	}
	err = e.svc.SetPassword.Handle(ctx, auth0(), "some password", nil, "")
	wantCode(t, err, domain.CodeUnauthenticated)
}

func TestPasswordLengthLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newPasswordEnv(t, nil)
	s := e.login(t, "13700000051")
	p := principalOf(t, e, s)
	for _, pw := range []string{"", "1234567", strings.Repeat("x", 129), strings.Repeat("密", 129), "bad\xffutf8"} {
		err := e.svc.SetPassword.Handle(ctx, p, pw, nil, "")
		wantCode(t, err, domain.CodeBadUserInput)
	}
	var current *string
	for _, pw := range []string{"12345678", strings.Repeat("密", 128)} {
		if err := e.svc.SetPassword.Handle(ctx, p, pw, current, ""); err != nil {
			t.Fatalf("SetPassword(%d characters): %v", len([]rune(pw)), err)
		}
		if _, err := e.passwordLogin(s.User.Phone, pw, ""); err != nil {
			t.Fatalf("login with a %d-character password: %v", len([]rune(pw)), err)
		}
		current = &pw
	}
	// An overlong guess is refused before it is hashed, and counts against nothing.
	for range 10 {
		_, err := e.passwordLogin(s.User.Phone, strings.Repeat("x", 10_000), "")
		wantCode(t, err, domain.CodeBadUserInput)
		var de *domain.Error
		if errors.As(err, &de) && de.TriesLeft != nil {
			t.Fatalf("an overlong guess was counted: %v", err)
		}
	}
}

// TestWrongPasswordsLockTheAddressOut: the code rules, for passwords: each address has
// WrongPerClient wrong passwords per phone (triesLeft counts them down); past them it is
// refused, the right password too, until the window passes. The owner, from an address
// of their own, still logs in; so does a code.
func TestWrongPasswordsLockTheAddressOut(t *testing.T) {
	t.Parallel()
	e := newPasswordEnv(t, nil)
	phone := "13700000061"
	e.withPassword(t, phone, "owner's password")
	attacker, owner := "192.0.2.7", "198.51.100.7"
	for want := 4; want >= 0; want-- {
		_, err := e.passwordLogin(phone, fmt.Sprintf("wrong guess %d", want), attacker)
		if got := triesLeft(t, err); got != want {
			t.Fatalf("triesLeft %d, want %d", got, want)
		}
	}
	_, err := e.passwordLogin(phone, "owner's password", attacker)
	wantRetryAfter(t, err, 3600)
	if _, err := e.passwordLogin(phone, "owner's password", owner); err != nil {
		t.Fatalf("the owner from another address: %v", err)
	}
	e.loginFrom(t, phone, attacker) // codes are not locked
	e.clock.Advance(time.Hour)
	if _, err := e.passwordLogin(phone, "owner's password", attacker); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}

// TestWrongPasswordsPerPhone: guesses spread over many addresses are stopped per phone;
// the owner then logs in with a code.
func TestWrongPasswordsPerPhone(t *testing.T) {
	t.Parallel()
	e := newPasswordEnv(t, nil)
	phone := "13700000071"
	e.withPassword(t, phone, "owner's password")
	limit := e.cfg.Password.WrongPerPhone
	for i := range limit.Max {
		ip := fmt.Sprintf("203.0.113.%d", 1+i/e.cfg.Password.WrongPerClient.Max)
		_, err := e.passwordLogin(phone, fmt.Sprintf("wrong guess %d", i), ip)
		wantCode(t, err, domain.CodeBadUserInput)
	}
	_, err := e.passwordLogin(phone, "owner's password", "198.51.100.99")
	wantCode(t, err, domain.CodeRateLimited)
	e.loginFrom(t, phone, "198.51.100.99")
}

// TestUnknownPhonesLookLikeWrongPasswords: an unknown phone, an account without a
// password and a wrong password get one answer, and are counted alike.
func TestUnknownPhonesLookLikeWrongPasswords(t *testing.T) {
	t.Parallel()
	e := newPasswordEnv(t, nil)
	e.withPassword(t, "13700000081", "a password")
	e.login(t, "13700000082") // no password
	answers := map[string][]string{}
	for _, phone := range []string{"13700000081", "13700000082", "13700000083"} {
		for range e.cfg.Password.WrongPerClient.Max {
			_, err := e.passwordLogin(phone, "not it at all", "192.0.2.9")
			var de *domain.Error
			if !errors.As(err, &de) || de.TriesLeft == nil {
				t.Fatalf("%s: %v", phone, err)
			}
			answers[phone] = append(answers[phone], fmt.Sprintf("%s %s %d", de.Code, de.Message, *de.TriesLeft))
		}
		_, err := e.passwordLogin(phone, "not it at all", "192.0.2.9")
		wantCode(t, err, domain.CodeRateLimited)
	}
	if !slices.Equal(answers["13700000081"], answers["13700000082"]) || !slices.Equal(answers["13700000081"], answers["13700000083"]) {
		t.Fatalf("the answers tell the phones apart: %v", answers)
	}
}

// TestUnknownPhonesTakeAsLong: an unknown phone costs one hash, as a known one does.
func TestUnknownPhonesTakeAsLong(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *auth.Config) {
		c.Password.Argon2 = auth.Argon2Params{MemoryKiB: 8 << 10, Iterations: 2, Parallelism: 1}
		c.Password.WrongPerClient = auth.Limit{Max: 100, Window: time.Hour}
		c.Password.WrongPerPhone = auth.Limit{Max: 100, Window: time.Hour}
	})
	e.withPassword(t, "13700000091", "a password")
	// Interleaved, so that both see the same machine (and heap).
	times := map[string][]time.Duration{}
	for range 9 {
		for _, phone := range []string{"13700000091", "13700000092"} {
			start := time.Now()
			_, err := e.passwordLogin(phone, "wrong password", "")
			times[phone] = append(times[phone], time.Since(start))
			wantCode(t, err, domain.CodeBadUserInput)
		}
	}
	median := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[len(d)/2]
	}
	known, unknown := median(times["13700000091"]), median(times["13700000092"])
	if unknown < known/2 {
		t.Fatalf("an unknown phone is answered in %s, a known one in %s", unknown, known)
	}
}

func TestBlockedAccountsLogInWithNoPassword(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newPasswordEnv(t, nil)
	s := e.withPassword(t, "13700000101", "a password")
	if _, err := e.svc.BlockUser.Handle(ctx, s.User.Phone, true); err != nil {
		t.Fatal(err)
	}
	_, err := e.passwordLogin(s.User.Phone, "a password", "")
	wantCode(t, err, domain.CodeForbidden)
	_, err = e.passwordLogin(s.User.Phone, "not the password", "")
	wantCode(t, err, domain.CodeBadUserInput)
}

// TestWrongPasswordsCountPerIP: wrong passwords and wrong codes share the address's
// allowance; past it the address is refused before any password is checked.
func TestWrongPasswordsCountPerIP(t *testing.T) {
	t.Parallel()
	e := newPasswordEnv(t, func(c *auth.Config) {
		withIPLimits(c)
		c.WrongCodesPerIP = auth.Limit{Max: 6, Window: time.Hour}
	})
	e.withPassword(t, "13700000111", "a password")
	ip := "192.0.2.33"
	for i := range 6 {
		_, err := e.passwordLogin(fmt.Sprintf("137000002%02d", i), "wrong password", ip)
		wantCode(t, err, domain.CodeBadUserInput)
	}
	_, err := e.passwordLogin("13700000111", "a password", ip)
	wantCode(t, err, domain.CodeRateLimited)
}

func TestPasswordConfigIsValidated(t *testing.T) {
	t.Parallel()
	d := auth.DefaultConfig()
	if d.Password.MinLength != 8 || d.Password.MaxLength != 128 ||
		d.Password.Argon2 != (auth.Argon2Params{MemoryKiB: 19456, Iterations: 2, Parallelism: 1}) ||
		d.Password.WrongPerClient != (auth.Limit{Max: 5, Window: time.Hour}) ||
		d.Password.WrongPerPhone != (auth.Limit{Max: 20, Window: time.Hour}) || d.Password.HashConcurrency != 4 {
		t.Fatalf("password defaults differ from the documented ones: %+v", d.Password)
	}
	d.JWTSecret = testSecret
	for name, change := range map[string]func(*auth.PasswordConfig){
		"min below 8":       func(p *auth.PasswordConfig) { p.MinLength = 7 },
		"max below min":     func(p *auth.PasswordConfig) { p.MaxLength = p.MinLength - 1 },
		"max above 1024":    func(p *auth.PasswordConfig) { p.MaxLength = 1025 },
		"no memory":         func(p *auth.PasswordConfig) { p.Argon2.MemoryKiB = 0 },
		"no iterations":     func(p *auth.PasswordConfig) { p.Argon2.Iterations = 0 },
		"no parallelism":    func(p *auth.PasswordConfig) { p.Argon2.Parallelism = 0 },
		"no concurrency":    func(p *auth.PasswordConfig) { p.HashConcurrency = 0 },
		"no per-client max": func(p *auth.PasswordConfig) { p.WrongPerClient.Max = 0 },
		"no per-phone max":  func(p *auth.PasswordConfig) { p.WrongPerPhone.Window = 0 },
	} {
		c := d
		change(&c.Password)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
