package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// TestSendLimitsAreReachableAtTheDefaults drives one phone through every send tier at the
// default settings, asking as a client would that waits what it is told plus a second.
func TestSendLimitsAreReachableAtTheDefaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	phone := randomPhone()
	send := func() error {
		_, err := e.svc.SendLoginCode.Handle(ctx, phone, "")
		return err
	}
	start := e.clock.Now()
	sendAll := func(n int) {
		t.Helper()
		for i := range n {
			if err := send(); err != nil {
				t.Fatalf("code %d: %v", i+1, err)
			}
			// The per-minute tier: a second code right away is refused.
			e.clock.Advance(20 * time.Second)
			wantRetryAfter(t, send(), 40)
			e.clock.Advance(41 * time.Second)
		}
	}

	// The window tier: five codes, then the sixth ask locks the phone for an hour.
	sendAll(5)
	wantRetryAfter(t, send(), 60*60)
	e.clock.Advance(30 * time.Minute)
	wantRetryAfter(t, send(), 30*60)
	e.clock.Advance(30 * time.Minute)

	// The daily tier: five more codes make ten, and the eleventh waits until the first
	// code is a day old.
	sendAll(5)
	elapsed := e.clock.Now().Sub(start)
	wantRetryAfter(t, send(), int((24*time.Hour - elapsed).Seconds()))
	e.clock.Advance(24*time.Hour - elapsed)
	if err := send(); err != nil {
		t.Fatalf("a day after the first code: %v", err)
	}
	if n := len(e.sender.Sent(phone)); n != 11 {
		t.Fatalf("%d codes sent, want 11", n)
	}
}

func TestBlockedPhoneGetsNoCode(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	phone := randomPhone()
	u := e.login(t, phone).User
	e.users.Block(u.ID)
	e.clock.Advance(time.Hour)
	_, err := e.svc.SendLoginCode.Handle(context.Background(), phone, "")
	wantCode(t, err, domain.CodeForbidden)
	if n := len(e.sender.Sent(phone)); n != 1 {
		t.Fatalf("%d codes sent, want only the one before the block", n)
	}
}
