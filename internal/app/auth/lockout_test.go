package auth_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// The attacks of these tests come from one address (or a few) and aim at a victim's
// phone; the victim asks for codes and logs in from an address of their own, or from the
// attacker's when both sit behind one proxy. The limits are the production defaults.

// withIPLimits is the production configuration: per-IP limits on.
func withIPLimits(c *auth.Config) { c.IPLimits = true }

// randomIP is an IPv4 address no other test uses (most likely).
func randomIP() string {
	return fmt.Sprintf("10.%d.%d.%d", rand.IntN(250), rand.IntN(250), 1+rand.IntN(250))
}

// wrongCode is the i-th six-digit code that is not right.
func wrongCode(i int, right string) string {
	c := fmt.Sprintf("%06d", i)
	if c == right {
		c = fmt.Sprintf("%06d", i+500_000)
	}
	return c
}

// codeFrom asks for a code for phone from ip and returns it.
func (e *env) codeFrom(t *testing.T, phone, ip string) string {
	t.Helper()
	if _, err := e.svc.SendLoginCode.Handle(context.Background(), phone, ip); err != nil {
		t.Fatalf("SendLoginCode(%s) from %s: %v", phone, ip, err)
	}
	sent := e.sender.Sent(phone)
	return sent[len(sent)-1]
}

// loginFrom asks for a code for phone from ip and logs in with it from ip.
func (e *env) loginFrom(t *testing.T, phone, ip string) {
	t.Helper()
	code := e.codeFrom(t, phone, ip)
	if _, err := e.svc.Login.Handle(context.Background(), phone, code, ip); err != nil {
		t.Fatalf("Login(%s) from %s with the code it asked for: %v", phone, ip, err)
	}
}

// TestSendsFromAnotherAddressNeverLockTheOwnerOut: six sendLoginCode(victim) 61 s apart
// from one address used to lock the victim's phone for an hour, and sends from a few
// addresses through the day used to spend the victim's daily allowance. The attacker is
// still throttled; the owner, asking from an address of their own, is not.
func TestSendsFromAnotherAddressNeverLockTheOwnerOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("the window lock", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		victim, attacker, owner := randomPhone(), randomIP(), randomIP()
		for i := range 5 {
			if _, err := e.svc.SendLoginCode.Handle(ctx, victim, attacker); err != nil {
				t.Fatalf("attacker's code %d: %v", i+1, err)
			}
			e.clock.Advance(61 * time.Second)
		}
		// The attacker is locked out of the victim's phone for an hour...
		_, err := e.svc.SendLoginCode.Handle(ctx, victim, attacker)
		wantRetryAfter(t, err, 60*60)
		// ...the owner is not.
		e.loginFrom(t, victim, owner)
		e.clock.Advance(30 * time.Minute)
		_, err = e.svc.SendLoginCode.Handle(ctx, victim, attacker)
		wantRetryAfter(t, err, 30*60)
		e.clock.Advance(time.Minute)
		e.loginFrom(t, victim, owner)
	})
	t.Run("the daily cap", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		victim, owner := randomPhone(), randomIP()
		attackers := []string{randomIP(), randomIP(), randomIP()}
		// Twelve codes in twelve minutes from three addresses: more than a phone's day.
		for i := range 12 {
			if _, err := e.svc.SendLoginCode.Handle(ctx, victim, attackers[i%3]); err != nil {
				t.Fatalf("attacker's code %d: %v", i+1, err)
			}
			e.clock.Advance(61 * time.Second)
		}
		e.loginFrom(t, victim, owner)
	})
	t.Run("an attacker's send does not replace the owner's code", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		victim, attacker, owner := randomPhone(), randomIP(), randomIP()
		code := e.codeFrom(t, victim, owner)
		e.codeFrom(t, victim, attacker)
		if _, err := e.svc.Login.Handle(ctx, victim, code, owner); err != nil {
			t.Fatalf("the owner's code after the attacker asked for one: %v", err)
		}
	})
}

// TestWrongGuessesFromAnotherAddressNeverDiscardTheOwnersCode: five wrong guesses used to
// discard the victim's live code, whoever made them.
func TestWrongGuessesFromAnotherAddressNeverDiscardTheOwnersCode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, withIPLimits)
	victim, attacker, owner := randomPhone(), randomIP(), randomIP()
	code := e.codeFrom(t, victim, owner)
	for i := range 5 {
		_, err := e.svc.Login.Handle(ctx, victim, wrongCode(i, code), attacker)
		wantCode(t, err, domain.CodeBadUserInput)
	}
	if _, err := e.svc.Login.Handle(ctx, victim, code, owner); err != nil {
		t.Fatalf("the owner's code after five wrong guesses from another address: %v", err)
	}
}

// TestWrongCodesFromAnAddressNeverRefuseARightCodeFromIt: 30 wrong codes from one address
// used to refuse the next right code from it for an hour — behind a proxy without
// TRUSTED_PROXIES, everybody's.
func TestWrongCodesFromAnAddressNeverRefuseARightCodeFromIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wrongLimit := auth.DefaultConfig().WrongCodesPerIP.Max
	t.Run("a code asked for after the wrong ones", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		proxy := randomIP()
		for i := range wrongLimit {
			_, err := e.svc.Login.Handle(ctx, randomPhone(), wrongCode(i, ""), proxy)
			wantCode(t, err, domain.CodeBadUserInput)
		}
		_, err := e.svc.Login.Handle(ctx, randomPhone(), "000000", proxy)
		wantCode(t, err, domain.CodeRateLimited) // the guesser is throttled
		e.loginFrom(t, randomPhone(), proxy)
	})
	t.Run("a code asked for before the wrong ones", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		proxy, owner := randomIP(), randomPhone()
		code := e.codeFrom(t, owner, proxy)
		for i := range wrongLimit + 10 {
			_, err := e.svc.Login.Handle(ctx, randomPhone(), wrongCode(i, ""), proxy)
			if domain.ErrorCode(err) != domain.CodeBadUserInput {
				wantCode(t, err, domain.CodeRateLimited)
			}
		}
		if _, err := e.svc.Login.Handle(ctx, owner, code, proxy); err != nil {
			t.Fatalf("the right code after %d wrong ones from its address: %v", wrongLimit+10, err)
		}
	})
	t.Run("more logins than the per-IP login limit", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		proxy, owner := randomIP(), randomPhone()
		code := e.codeFrom(t, owner, proxy)
		for i := range auth.DefaultConfig().LoginPerIP.Max {
			_, _ = e.svc.Login.Handle(ctx, randomPhone(), wrongCode(i, ""), proxy)
		}
		if _, err := e.svc.Login.Handle(ctx, owner, code, proxy); err != nil {
			t.Fatalf("the right code after the address's login allowance: %v", err)
		}
	})
}

// TestAttackersAreStillThrottled: what the fixes above must not give away.
func TestAttackersAreStillThrottled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("five wrong guesses discard the code of the address that asked", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		victim, attacker := randomPhone(), randomIP()
		code := e.codeFrom(t, victim, attacker) // reaches the victim, not the attacker
		for i := range 5 {
			_, err := e.svc.Login.Handle(ctx, victim, wrongCode(i, code), attacker)
			wantCode(t, err, domain.CodeBadUserInput)
		}
		_, err := e.svc.Login.Handle(ctx, victim, code, attacker)
		wantCode(t, err, domain.CodeBadUserInput)
	})
	t.Run("codes per address and phone", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		victim, attacker := randomPhone(), randomIP()
		e.codeFrom(t, victim, attacker)
		_, err := e.svc.SendLoginCode.Handle(ctx, victim, attacker)
		wantRetryAfter(t, err, 60) // one a minute
		// Ten a day, at one a minute and five an hour.
		sent := 1
		for sent < 10 {
			e.clock.Advance(61 * time.Second)
			if _, err := e.svc.SendLoginCode.Handle(ctx, victim, attacker); err == nil {
				sent++
			} else {
				wantCode(t, err, domain.CodeRateLimited)
			}
		}
		e.clock.Advance(2 * time.Hour)
		_, err = e.svc.SendLoginCode.Handle(ctx, victim, attacker)
		wantCode(t, err, domain.CodeRateLimited)
		if n := len(e.sender.Sent(victim)); n != 10 {
			t.Fatalf("%d codes sent to the victim from one address, want 10", n)
		}
	})
	t.Run("codes per address", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		attacker := randomIP()
		for range auth.DefaultConfig().SendCodePerIP.Max {
			e.codeFrom(t, randomPhone(), attacker)
		}
		_, err := e.svc.SendLoginCode.Handle(ctx, randomPhone(), attacker)
		wantCode(t, err, domain.CodeRateLimited)
	})
	t.Run("past the address's wrong codes, a wrong guess discards its code", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		victim, attacker := randomPhone(), randomIP()
		code := e.codeFrom(t, victim, attacker)
		for i := range auth.DefaultConfig().WrongCodesPerIP.Max {
			_, err := e.svc.Login.Handle(ctx, randomPhone(), wrongCode(i, ""), attacker)
			wantCode(t, err, domain.CodeBadUserInput)
		}
		_, err := e.svc.Login.Handle(ctx, victim, wrongCode(1, code), attacker)
		wantCode(t, err, domain.CodeRateLimited)
		// One guess, and the code was gone: the right code is not accepted either.
		_, err = e.svc.Login.Handle(ctx, victim, code, attacker)
		wantCode(t, err, domain.CodeRateLimited)
	})
	t.Run("a code is good only from the address that asked for it", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, withIPLimits)
		victim, owner := randomPhone(), randomIP()
		code := e.codeFrom(t, victim, owner)
		_, err := e.svc.Login.Handle(ctx, victim, code, randomIP())
		wantCode(t, err, domain.CodeBadUserInput)
		if _, err := e.svc.Login.Handle(ctx, victim, code, owner); err != nil {
			t.Fatalf("from the address that asked: %v", err)
		}
	})
}
