package authtest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/app/contracttest"
)

// CodeStoreLimitsContract is what every auth.CodeStore must do as time passes, and under
// many simultaneous calls: the send limits, the life of a code and its wrong guesses, and
// the per-client guess charges, walked through on a settable clock. newStore returns a
// store reading time from now; stores of one test may share their server.
func CodeStoreLimitsContract(t *testing.T, newStore func(t *testing.T, now func() time.Time) auth.CodeStore) {
	t.Helper()
	t.Run("issue limits", func(t *testing.T) {
		t.Parallel()
		codesIssueLimits(t, newStore)
	})
	t.Run("verify", func(t *testing.T) {
		t.Parallel()
		codesVerifySteps(t, newStore)
	})
	t.Run("guess charges through time", func(t *testing.T) {
		t.Parallel()
		clock := contracttest.NewClock()
		codesGuessCharges(t, newStore(t, clock.Now), clock)
	})
	t.Run("under concurrency", func(t *testing.T) {
		t.Parallel()
		codesUnderConcurrency(t, newStore(t, time.Now))
	})
	t.Run("invalid limits are refused", func(t *testing.T) {
		t.Parallel()
		codesInvalidLimits(t, newStore(t, time.Now))
	})
}

var (
	sendLimits   = auth.DefaultConfig().Send
	verifyLimits = auth.DefaultConfig().Verify
)

type issueStep struct {
	after      time.Duration // clock advance before the step
	wantIssued bool
	wantRetry  time.Duration
}

func codesIssueLimits(t *testing.T, newStore func(t *testing.T, now func() time.Time) auth.CodeStore) {
	noInterval := sendLimits
	noInterval.Interval = 0
	cases := []struct {
		name   string
		limits auth.SendLimits
		steps  []issueStep
	}{
		{"first code is issued", sendLimits, []issueStep{{0, true, 0}}},
		{"second code within a minute is refused", sendLimits, []issueStep{
			{0, true, 0}, {30 * time.Second, false, 30 * time.Second}, {29 * time.Second, false, time.Second},
		}},
		{"one code a minute is fine", sendLimits, []issueStep{
			{0, true, 0}, {time.Minute, true, 0}, {time.Minute, true, 0},
		}},
		{"sixth code within an hour locks for an hour", sendLimits, []issueStep{
			{0, true, 0}, {61 * time.Second, true, 0}, {61 * time.Second, true, 0}, {61 * time.Second, true, 0}, {61 * time.Second, true, 0},
			{61 * time.Second, false, time.Hour},
			{30 * time.Minute, false, 30 * time.Minute},
			{30*time.Minute - time.Millisecond, false, time.Millisecond},
			{time.Millisecond, true, 0},
		}},
		{"window slides without an interval", noInterval, []issueStep{
			{0, true, 0}, {time.Second, true, 0}, {time.Second, true, 0}, {time.Second, true, 0}, {time.Second, true, 0},
			{time.Hour - 4*time.Second + time.Millisecond, true, 0}, // the first send has left the window
			{time.Millisecond, false, time.Hour},
		}},
		{"eleventh code within a day waits for the first to be a day old", noInterval, []issueStep{
			{0, true, 0}, {time.Second, true, 0}, {time.Second, true, 0}, {time.Second, true, 0}, {time.Second, true, 0},
			{time.Hour, true, 0}, {time.Second, true, 0}, {time.Second, true, 0}, {time.Second, true, 0}, {time.Second, true, 0},
			{time.Hour, false, 22*time.Hour - 8*time.Second},
			{22*time.Hour - 8*time.Second - time.Millisecond, false, time.Millisecond},
			{time.Millisecond, true, 0},
			{0, false, time.Second}, // the second code of the first hour is still within the day
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := contracttest.NewClock()
			store := newStore(t, clock.Now)
			phone := newPhone()
			for i, s := range tc.steps {
				clock.Advance(s.after)
				issued, retry, err := store.Issue(context.Background(), phone, "client-a", fmt.Sprint("digest", i), tc.limits)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if issued != s.wantIssued || retry != s.wantRetry {
					t.Fatalf("step %d: Issue = (%v, %v), want (%v, %v)", i, issued, retry, s.wantIssued, s.wantRetry)
				}
			}
		})
	}
}

// verifyStep issues a code (issue != ""), or verifies one (verify != "").
type verifyStep struct {
	after       time.Duration
	issue       string
	verify      string
	wantVerdict auth.Verdict
}

func codesVerifySteps(t *testing.T, newStore func(t *testing.T, now func() time.Time) auth.CodeStore) {
	wrong := verifyStep{verify: "wrong", wantVerdict: auth.CodeRejected}
	cases := []struct {
		name  string
		steps []verifyStep
	}{
		{"right code is accepted once", []verifyStep{
			{issue: "right"},
			{verify: "right", wantVerdict: auth.CodeAccepted},
			{verify: "right", wantVerdict: auth.CodeRejected},
		}},
		{"no code is rejected", []verifyStep{
			{verify: "right", wantVerdict: auth.CodeRejected},
		}},
		{"expired code is rejected", []verifyStep{
			{issue: "right"},
			{after: 2 * time.Minute, verify: "right", wantVerdict: auth.CodeRejected},
		}},
		{"code just before expiry is accepted", []verifyStep{
			{issue: "right"},
			{after: 2*time.Minute - time.Millisecond, verify: "right", wantVerdict: auth.CodeAccepted},
		}},
		{"a newer code replaces the older", []verifyStep{
			{issue: "first"},
			{after: time.Minute, issue: "second"},
			{verify: "first", wantVerdict: auth.CodeRejected},
			{verify: "second", wantVerdict: auth.CodeAccepted},
		}},
		{"four wrong codes then the right one", []verifyStep{
			{issue: "right"}, wrong, wrong, wrong, wrong,
			{verify: "right", wantVerdict: auth.CodeAccepted},
		}},
		{"fifth wrong code discards the code, and a new code works at once", []verifyStep{
			{issue: "right"}, wrong, wrong, wrong, wrong,
			{verify: "wrong", wantVerdict: auth.CodeDiscarded},
			{verify: "right", wantVerdict: auth.CodeRejected},
			{after: time.Minute, issue: "again"},
			{verify: "again", wantVerdict: auth.CodeAccepted},
		}},
		{"guesses with no code count against nothing", []verifyStep{
			wrong, wrong, wrong, wrong, wrong, wrong, wrong, wrong, wrong, wrong,
			{issue: "right"}, wrong, wrong, wrong, wrong,
			{verify: "right", wantVerdict: auth.CodeAccepted},
		}},
		{"a new code starts with no wrong guesses", []verifyStep{
			{issue: "right"}, wrong, wrong, wrong, wrong,
			{after: time.Minute, issue: "later"}, wrong, wrong, wrong, wrong,
			{verify: "later", wantVerdict: auth.CodeAccepted},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			clock := contracttest.NewClock()
			store := newStore(t, clock.Now)
			phone := newPhone()
			for i, s := range tc.steps {
				clock.Advance(s.after)
				if s.issue != "" {
					issued, _, err := store.Issue(ctx, phone, "client-a", s.issue, sendLimits)
					if err != nil || !issued {
						t.Fatalf("step %d: Issue = (%v, %v)", i, issued, err)
					}
					continue
				}
				v, _, err := store.Verify(ctx, phone, "client-a", s.verify, verifyLimits)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if v != s.wantVerdict {
					t.Fatalf("step %d: Verify(%q) = %v, want %v", i, s.verify, v, s.wantVerdict)
				}
			}
		})
	}
}

func codesGuessCharges(t *testing.T, store auth.CodeStore, clock *contracttest.Clock) {
	ctx := context.Background()
	limit := auth.Limit{Max: 3, Window: time.Hour}
	client := "ip:" + newPhone()
	charge := func(wantOK bool, wantRetry time.Duration) string {
		t.Helper()
		g, err := store.ChargeGuess(ctx, client, limit)
		if err != nil || g.OK != wantOK || g.RetryAfter != wantRetry {
			t.Fatalf("ChargeGuess = (%+v, %v), want (%v, %v)", g, err, wantOK, wantRetry)
		}
		return g.ID
	}
	charge(true, 0)
	clock.Advance(time.Minute)
	refunded := charge(true, 0)
	must(t, store.RefundGuess(ctx, client, refunded))
	charge(true, 0)
	charge(true, 0)
	charge(false, 59*time.Minute)
	if err := store.RefundGuess(ctx, client, "unknown"); err != nil {
		t.Fatalf("refunding an unknown charge: %v", err)
	}
	clock.Advance(59 * time.Minute)
	charge(true, 0)
}

func codesUnderConcurrency(t *testing.T, store auth.CodeStore) {
	const n = 50
	ctx := context.Background()
	t.Run("one code for 50 simultaneous requests", func(t *testing.T) {
		t.Parallel()
		phone := newPhone()
		issued := count(n, func(i int) bool {
			ok, _, err := store.Issue(ctx, phone, "client-a", fmt.Sprint("digest", i), sendLimits)
			if err != nil {
				t.Error(err)
			}
			return ok
		})
		if issued != 1 {
			t.Fatalf("%d codes issued, want 1", issued)
		}
	})
	t.Run("one login for 50 simultaneous uses of a code", func(t *testing.T) {
		t.Parallel()
		phone := newPhone()
		if ok, _, err := store.Issue(ctx, phone, "client-a", "right", sendLimits); err != nil || !ok {
			t.Fatalf("Issue = (%v, %v)", ok, err)
		}
		accepted := count(n, func(int) bool {
			v, _, err := store.Verify(ctx, phone, "client-a", "right", verifyLimits)
			if err != nil {
				t.Error(err)
			}
			return v == auth.CodeAccepted
		})
		if accepted != 1 {
			t.Fatalf("%d verifications accepted, want 1", accepted)
		}
	})
	t.Run("50 simultaneous wrong codes discard the code once", func(t *testing.T) {
		t.Parallel()
		phone := newPhone()
		if ok, _, err := store.Issue(ctx, phone, "client-a", "right", sendLimits); err != nil || !ok {
			t.Fatalf("Issue = (%v, %v)", ok, err)
		}
		discarded := count(n, func(i int) bool {
			v, _, err := store.Verify(ctx, phone, "client-a", fmt.Sprint("wrong", i), verifyLimits)
			if err != nil {
				t.Error(err)
			}
			return v == auth.CodeDiscarded
		})
		if discarded != 1 {
			t.Fatalf("%d guesses discarded the code, want 1", discarded)
		}
		if v, _, _ := store.Verify(ctx, phone, "client-a", "right", verifyLimits); v != auth.CodeRejected {
			t.Fatalf("right code after it was discarded: verdict %v, want rejected", v)
		}
	})
	t.Run("50 simultaneous guesses from one client are charged up to the limit", func(t *testing.T) {
		t.Parallel()
		client := "ip:" + newPhone()
		charged := count(n, func(int) bool {
			g, err := store.ChargeGuess(ctx, client, auth.Limit{Max: 7, Window: time.Hour})
			if err != nil {
				t.Error(err)
			}
			return g.OK
		})
		if charged != 7 {
			t.Fatalf("%d guesses charged, want 7", charged)
		}
	})
}

func codesInvalidLimits(t *testing.T, store auth.CodeStore) {
	ctx := context.Background()
	if _, _, err := store.Issue(ctx, newPhone(), "client-a", "d", auth.SendLimits{}); err == nil {
		t.Error("Issue with zero limits succeeded")
	}
	if _, _, err := store.Verify(ctx, newPhone(), "client-a", "d", auth.VerifyLimits{}); err == nil {
		t.Error("Verify with zero limits succeeded")
	}
	if _, err := store.ChargeGuess(ctx, "ip:x", auth.Limit{}); err == nil {
		t.Error("ChargeGuess with a zero limit succeeded")
	}
}

// count runs fn(0..n-1) at once, released together, and counts the true results.
func count(n int, fn func(i int) bool) int {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int
		start = make(chan struct{})
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if fn(i) {
				mu.Lock()
				total++
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	return total
}
