package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// The same phone as people type it: with the country prefix, spaced, dashed.
var phoneVariants = []string{"+8613800000009", "86 138 0000 0009", "138-0000-0009", "13800000009"}

const storedPhone = "13800000009"

// TestPhoneFormatsLogIn: every variant gets a code and logs in to the one account
// stored under the 11-digit form.
func TestPhoneFormatsLogIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, func(c *auth.Config) { c.Send.Interval = 0 })
	var id int64
	for _, variant := range phoneVariants {
		if _, err := e.svc.SendLoginCode.Handle(ctx, variant, ""); err != nil {
			t.Fatalf("SendLoginCode(%q): %v", variant, err)
		}
		sent := e.sender.Sent(storedPhone)
		if len(sent) == 0 {
			t.Fatalf("SendLoginCode(%q) sent no code to %s", variant, storedPhone)
		}
		s, err := e.svc.Login.Handle(ctx, variant, sent[len(sent)-1], "")
		if err != nil {
			t.Fatalf("Login(%q): %v", variant, err)
		}
		if s.User.Phone != storedPhone || (id != 0 && s.User.ID != id) {
			t.Fatalf("Login(%q) = user %d with phone %q, want user %d with %s", variant, s.User.ID, s.User.Phone, id, storedPhone)
		}
		id = s.User.ID
		e.clock.Advance(time.Second)
	}
	if n := e.users.Count(); n != 1 {
		t.Fatalf("%d accounts for one phone", n)
	}
}

// TestPhoneFormatsShareTheLimits: writing the phone another way is the same phone to
// every limit: the send interval, the code's wrong guesses.
func TestPhoneFormatsShareTheLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("send interval", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		e.code(t, storedPhone)
		for _, variant := range phoneVariants {
			_, err := e.svc.SendLoginCode.Handle(ctx, variant, "")
			wantCode(t, err, domain.CodeRateLimited)
		}
		if n := len(e.sender.Sent(storedPhone)); n != 1 {
			t.Fatalf("%d codes sent within the interval", n)
		}
	})
	t.Run("wrong guesses", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		code := e.code(t, storedPhone)
		for i := range e.cfg.Verify.MaxWrong {
			variant := phoneVariants[i%len(phoneVariants)]
			_, err := e.svc.Login.Handle(ctx, variant, otherCode(code), "")
			wantCode(t, err, domain.CodeBadUserInput)
		}
		// The code is gone, whichever way the phone is written.
		for _, variant := range phoneVariants {
			_, err := e.svc.Login.Handle(ctx, variant, code, "")
			wantCode(t, err, domain.CodeBadUserInput)
		}
	})
}

// TestAdminPhonesInAnyFormat: the configured admin phones and the operator's commands
// take the same variants.
func TestAdminPhonesInAnyFormat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, func(c *auth.Config) { c.AdminPhones = []string{"+86 138-0000-0009"} })
	if s := e.login(t, storedPhone); s.User.Role != domain.RoleAdmin {
		t.Fatalf("admin phone logged in as %s", s.User.Role)
	}
	other := "139 0000 0001"
	u, err := e.svc.GrantAdmin.Handle(ctx, other)
	if err != nil || u.Phone != "13900000001" || u.Role != domain.RoleAdmin {
		t.Fatalf("GrantAdmin(%q) = (%+v, %v)", other, u, err)
	}
	u, err = e.svc.BlockUser.Handle(ctx, "+8613900000001", true)
	if err != nil || u.Phone != "13900000001" || !u.Blocked {
		t.Fatalf("BlockUser = (%+v, %v)", u, err)
	}
	cfg := e.cfg
	cfg.AdminPhones = []string{"+1 555 0100"}
	if err := cfg.Validate(); err == nil {
		t.Fatal("a foreign admin phone was accepted")
	}
}
