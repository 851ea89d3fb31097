package auth_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// triesLeft returns the TriesLeft a BAD_USER_INPUT error carries, failing without one.
func triesLeft(t *testing.T, err error) int {
	t.Helper()
	wantCode(t, err, domain.CodeBadUserInput)
	var e *domain.Error
	if !errors.As(err, &e) || e.TriesLeft == nil {
		t.Fatalf("%v carries no triesLeft", err)
	}
	return *e.TriesLeft
}

// TestWrongCodeSaysTriesLeft: a wrong code says how many more wrong guesses its code
// survives, down to 0 when it is discarded; a guess with no live code (never sent,
// expired, used) says 0: ask for a new one.
func TestWrongCodeSaysTriesLeft(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, nil)
	phone := randomPhone()
	code := e.code(t, phone)
	for want := e.cfg.Verify.MaxWrong - 1; want >= 0; want-- {
		_, err := e.svc.Login.Handle(ctx, phone, otherCode(code), "")
		if got := triesLeft(t, err); got != want {
			t.Fatalf("triesLeft %d, want %d", got, want)
		}
	}
	_, err := e.svc.Login.Handle(ctx, phone, code, "")
	if got := triesLeft(t, err); got != 0 {
		t.Fatalf("after the code was discarded: triesLeft %d, want 0", got)
	}
	_, err = e.svc.Login.Handle(ctx, randomPhone(), code, "")
	if got := triesLeft(t, err); got != 0 {
		t.Fatalf("with no code sent: triesLeft %d, want 0", got)
	}
	e.clock.Advance(time.Minute)
	code = e.code(t, phone)
	e.clock.Advance(2 * time.Minute)
	_, err = e.svc.Login.Handle(ctx, phone, otherCode(code), "")
	if got := triesLeft(t, err); got != 0 {
		t.Fatalf("with an expired code: triesLeft %d, want 0", got)
	}
}
