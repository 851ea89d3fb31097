package socialtest

import (
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// CreditStore is a credit store under test, with users to award and their credits.
type CreditStore struct {
	notes.Credits
	// NewUser makes a user without credits and returns their id.
	NewUser func(t *testing.T) int64
	// Balance reads a user's credits.
	Balance func(t *testing.T, userID int64) int
	// Unknown is the id of no user, for stores that know their users (0: none).
	Unknown int64
}

// CreditsContract is what every store of credit awards must do, as notes.Credits says:
// an award is made once per key and adds to the user's credits; a take-back takes the
// amount off once and keeps the key taken, also before the award came; an award to a
// user who does not exist is nothing, not an error; concurrent awards and take-backs of
// one key leave the credits exact.
func CreditsContract(t *testing.T, newStore func(t *testing.T) CreditStore) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[CreditStore]{Name: "awards are made once and taken back once", Run: creditsOnce},
		contracttest.Case[CreditStore]{Name: "concurrent awards and take-backs keep the credits exact", Run: creditsConcurrent},
	)
}

func creditsOnce(t *testing.T, s CreditStore) {
	ctx := t.Context()
	u, other := s.NewUser(t), s.NewUser(t)
	want := func(what string, userID int64, credits int) {
		t.Helper()
		if got := s.Balance(t, userID); got != credits {
			t.Fatalf("%s: %d credits, want %d", what, got, credits)
		}
	}
	award := func(a domain.CreditAward, want bool) {
		t.Helper()
		if got, err := s.Award(ctx, a); err != nil || got != want {
			t.Fatalf("award %+v = %v, %v; want %v", a, got, err, want)
		}
	}
	award(domain.CreditAward{UserID: u, Reason: domain.CreditSignIn, Ref: 20300601, Amount: 1}, true)
	award(domain.CreditAward{UserID: u, Reason: domain.CreditSignIn, Ref: 20300601, Amount: 6}, false)
	award(domain.CreditAward{UserID: u, Reason: domain.CreditSignIn, Ref: 20300602, Amount: 6}, true)
	award(domain.CreditAward{UserID: u, Reason: domain.CreditNote, Ref: 20300602, Amount: 5}, true)
	award(domain.CreditAward{UserID: other, Reason: domain.CreditSignIn, Ref: 20300601, Amount: 1}, true)
	award(domain.CreditAward{UserID: u, Reason: domain.CreditOrder, Ref: 9, Amount: 0}, false)
	want("three awards", u, 12)
	want("another user's award", other, 1)

	if got, err := s.Revoke(ctx, u, domain.CreditNote, 20300602); err != nil || !got {
		t.Fatalf("take back = %v, %v; want true", got, err)
	}
	if got, err := s.Revoke(ctx, u, domain.CreditNote, 20300602); err != nil || got {
		t.Fatalf("take back again = %v, %v; want false", got, err)
	}
	want("a note's credits taken back", u, 7)
	award(domain.CreditAward{UserID: u, Reason: domain.CreditNote, Ref: 20300602, Amount: 5}, false)
	want("an award taken back is not made again", u, 7)
	// Taken back before it was made: the late award adds nothing.
	if got, err := s.Revoke(ctx, u, domain.CreditOrder, 77); err != nil || got {
		t.Fatalf("take back of an award not made = %v, %v; want false", got, err)
	}
	award(domain.CreditAward{UserID: u, Reason: domain.CreditOrder, Ref: 77, Amount: 30}, false)
	want("a late award", u, 7)
	if _, err := s.Award(ctx, domain.CreditAward{UserID: u, Reason: domain.CreditOrder, Ref: 78, Amount: -1}); err == nil {
		t.Fatal("a negative award was made")
	}
	if s.Unknown > 0 {
		if got, err := s.Award(ctx, domain.CreditAward{UserID: s.Unknown, Reason: domain.CreditOrder, Ref: 79, Amount: 3}); err != nil || got {
			t.Fatalf("award to an unknown user = %v, %v; want nothing, no error", got, err)
		}
		if got, err := s.Revoke(ctx, s.Unknown, domain.CreditOrder, 79); err != nil || got {
			t.Fatalf("take back from an unknown user = %v, %v; want nothing, no error", got, err)
		}
	}
}

func creditsConcurrent(t *testing.T, s CreditStore) {
	ctx := t.Context()
	u := s.NewUser(t)
	var wg sync.WaitGroup
	// Ten keys, each awarded five times at once; keys 0–4 also taken back twice.
	for k := range int64(10) {
		for range 5 {
			wg.Go(func() {
				if _, err := s.Award(ctx, domain.CreditAward{UserID: u, Reason: domain.CreditOrder, Ref: k, Amount: 3}); err != nil {
					t.Error(err)
				}
			})
		}
		if k < 5 {
			for range 2 {
				wg.Go(func() {
					if _, err := s.Revoke(ctx, u, domain.CreditOrder, k); err != nil {
						t.Error(err)
					}
				})
			}
		}
	}
	wg.Wait()
	if got := s.Balance(t, u); got != 15 {
		t.Fatalf("%d credits, want 15 (keys 5–9, 3 each)", got)
	}
}
