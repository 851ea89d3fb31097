package authtest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// CodeStoreContract is what every auth.CodeStore must do, as its doc comments say, apart
// from the passing of time (the adapters' own tests walk the limits through time).
// newStore returns a store; stores of one test may share their server.
func CodeStoreContract(t *testing.T, newStore func(t *testing.T) auth.CodeStore) {
	t.Helper()
	for _, c := range []struct {
		name string
		run  func(t *testing.T, s auth.CodeStore)
	}{
		{"an issued code is accepted once", codesAcceptOnce},
		{"a send within the interval is refused and stores nothing", codesInterval},
		{"a new code replaces the old one and its wrong guesses", codesReplace},
		{"the last allowed wrong guess discards the code", codesDiscard},
		{"guesses with no live code count against nothing", codesNoCode},
		{"a wrong guess says how many more the code survives", codesTriesLeft},
		{"guess charges stop at the limit; a refund gives one back", codesCharges},
		{"each client has its own code and send limits for a phone", codesPerClient},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newStore(t))
		})
	}
}

// codeLimits allow a send a minute, plenty a day.
var codeLimits = auth.SendLimits{CodeTTL: 2 * time.Minute, Interval: time.Minute, Window: time.Hour, WindowMax: 5,
	Lock: time.Hour, Day: 24 * time.Hour, DayMax: 20}

// issue and verify act for client A; issueFrom and verifyFrom for any client.
func issue(t *testing.T, s auth.CodeStore, phone, digest string, l auth.SendLimits, want bool) time.Duration {
	t.Helper()
	return issueFrom(t, s, phone, clientA, digest, l, want)
}

func verify(t *testing.T, s auth.CodeStore, phone, digest string, maxWrong int, want auth.Verdict) {
	t.Helper()
	verifyFrom(t, s, phone, clientA, digest, maxWrong, want)
}

// Clients of the contract: an IPv4 address and an IPv6 /64, as the service names them.
const (
	clientA = "192.0.2.1"
	clientB = "2001:db8:1:2::/64"
)

func issueFrom(t *testing.T, s auth.CodeStore, phone, client, digest string, l auth.SendLimits, want bool) time.Duration {
	t.Helper()
	issued, retry, err := s.Issue(context.Background(), phone, client, digest, l)
	if err != nil || issued != want {
		t.Fatalf("issue %s to %s: issued %v, %v; want %v", digest, phone, issued, err, want)
	}
	return retry
}

func verifyFrom(t *testing.T, s auth.CodeStore, phone, client, digest string, maxWrong int, want auth.Verdict) {
	t.Helper()
	got, _, err := s.Verify(context.Background(), phone, client, digest, auth.VerifyLimits{MaxWrong: maxWrong})
	if err != nil || got != want {
		t.Fatalf("verify %s of %s: %v, %v; want %v", digest, phone, got, err, want)
	}
}

func codesAcceptOnce(t *testing.T, s auth.CodeStore) {
	phone := newPhone()
	issue(t, s, phone, "d1", codeLimits, true)
	verify(t, s, phone, "d1", 5, auth.CodeAccepted)
	verify(t, s, phone, "d1", 5, auth.CodeRejected)
	verify(t, s, newPhone(), "d1", 5, auth.CodeRejected) // another phone
}

func codesInterval(t *testing.T, s auth.CodeStore) {
	phone := newPhone()
	issue(t, s, phone, "d1", codeLimits, true)
	if retry := issue(t, s, phone, "d2", codeLimits, false); retry <= 0 || retry > codeLimits.Interval {
		t.Fatalf("retry after %s, want within the interval %s", retry, codeLimits.Interval)
	}
	verify(t, s, phone, "d2", 5, auth.CodeRejected) // not stored
	verify(t, s, phone, "d1", 5, auth.CodeAccepted)
}

func codesReplace(t *testing.T, s auth.CodeStore) {
	phone := newPhone()
	l := codeLimits
	l.Interval = 0
	issue(t, s, phone, "d1", l, true)
	verify(t, s, phone, "wrong", 3, auth.CodeRejected)
	verify(t, s, phone, "wrong", 3, auth.CodeRejected)
	issue(t, s, phone, "d2", l, true)
	verify(t, s, phone, "d1", 3, auth.CodeRejected)
	verify(t, s, phone, "wrong", 3, auth.CodeRejected) // the count started again with d2
	verify(t, s, phone, "d2", 3, auth.CodeAccepted)
}

func codesDiscard(t *testing.T, s auth.CodeStore) {
	phone := newPhone()
	issue(t, s, phone, "d1", codeLimits, true)
	verify(t, s, phone, "wrong", 3, auth.CodeRejected)
	verify(t, s, phone, "wrong", 3, auth.CodeRejected)
	verify(t, s, phone, "wrong", 3, auth.CodeDiscarded)
	verify(t, s, phone, "d1", 3, auth.CodeRejected)
}

func codesNoCode(t *testing.T, s auth.CodeStore) {
	phone := newPhone()
	for range 5 {
		verify(t, s, phone, "wrong", 2, auth.CodeRejected)
	}
	issue(t, s, phone, "d1", codeLimits, true)
	verify(t, s, phone, "wrong", 2, auth.CodeRejected)
	verify(t, s, phone, "d1", 2, auth.CodeAccepted)
}

func codesPerClient(t *testing.T, s auth.CodeStore) {
	phone := newPhone()
	issueFrom(t, s, phone, clientA, "a1", codeLimits, true)
	// B's send is not within A's interval, and does not replace A's code.
	issueFrom(t, s, phone, clientB, "b1", codeLimits, true)
	issueFrom(t, s, phone, clientB, "b2", codeLimits, false)
	// A code is checked only against its own client's guesses.
	verifyFrom(t, s, phone, clientB, "a1", 5, auth.CodeRejected)
	verifyFrom(t, s, phone, "", "a1", 5, auth.CodeRejected)
	// B's wrong guesses count against B's code, never against A's.
	for range 3 { // B's guess of "a1" above was its first wrong one
		verifyFrom(t, s, phone, clientB, "wrong", 5, auth.CodeRejected)
	}
	verifyFrom(t, s, phone, clientB, "wrong", 5, auth.CodeDiscarded)
	verifyFrom(t, s, phone, clientB, "b1", 5, auth.CodeRejected)
	verifyFrom(t, s, phone, clientA, "a1", 5, auth.CodeAccepted)
}

func codesCharges(t *testing.T, s auth.CodeStore) {
	ctx := context.Background()
	client := "client-" + strconv.FormatInt(newID(), 10)
	l := auth.Limit{Max: 2, Window: time.Hour}
	var ids []string
	for i := range 2 {
		g, err := s.ChargeGuess(ctx, client, l)
		if err != nil || !g.OK || g.ID == "" || g.Left != 1-i {
			t.Fatalf("charge %d within the limit: %+v, %v; want OK with %d left", i, g, err, 1-i)
		}
		ids = append(ids, g.ID)
	}
	if ids[0] == ids[1] {
		t.Fatalf("two charges named %q", ids[0])
	}
	g, err := s.ChargeGuess(ctx, client, l)
	if err != nil || g.OK || g.RetryAfter <= 0 || g.RetryAfter > l.Window || g.Left != 0 {
		t.Fatalf("charge beyond the limit: %+v, %v; want refused within the window", g, err)
	}
	if g, err := s.ChargeGuess(ctx, client+"-other", l); err != nil || !g.OK {
		t.Fatalf("another client's charge: %+v, %v", g, err)
	}
	must(t, s.RefundGuess(ctx, client, ids[0]))
	must(t, s.RefundGuess(ctx, client, "unknown"))
	must(t, s.RefundGuess(ctx, "client-never-seen", ids[1]))
	if g, err := s.ChargeGuess(ctx, client, l); err != nil || !g.OK || g.Left != 0 {
		t.Fatalf("charge after a refund: %+v, %v; want allowed, none left", g, err)
	}
	if g, err := s.ChargeGuess(ctx, client, l); err != nil || g.OK {
		t.Fatalf("charge beyond the limit after the refund: %+v, %v; want refused", g, err)
	}
}

func codesTriesLeft(t *testing.T, s auth.CodeStore) {
	ctx := context.Background()
	phone := newPhone()
	l := auth.VerifyLimits{MaxWrong: 3}
	check := func(digest string, wantV auth.Verdict, wantLeft int) {
		t.Helper()
		v, left, err := s.Verify(ctx, phone, clientA, digest, l)
		if err != nil || v != wantV || left != wantLeft {
			t.Fatalf("Verify(%s) = (%v, %d, %v), want (%v, %d)", digest, v, left, err, wantV, wantLeft)
		}
	}
	check("d1", auth.CodeRejected, 0) // no code yet
	issue(t, s, phone, "d1", codeLimits, true)
	check("wrong", auth.CodeRejected, 2)
	check("wrong", auth.CodeRejected, 1)
	check("wrong", auth.CodeDiscarded, 0)
	check("d1", auth.CodeRejected, 0)
}
