package domain_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/domain"
)

func TestCreditLevelFollowsTheThresholds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ credits, level int }{
		{0, 0}, {9, 0}, {10, 1}, {49, 1}, {50, 2}, {149, 2}, {150, 3}, {400, 4}, {999, 4}, {1000, 5}, {2500, 6}, {5999, 6}, {6000, 7}, {1 << 30, 7},
	} {
		if got := domain.CreditLevel(tc.credits); got != tc.level {
			t.Errorf("CreditLevel(%d) = %d, want %d", tc.credits, got, tc.level)
		}
		if got := (domain.Profile{Credits: tc.credits}).Level(); got != tc.level {
			t.Errorf("Level of %d credits = %d, want %d", tc.credits, got, tc.level)
		}
	}
}

func TestCreditAwards(t *testing.T) {
	t.Parallel()
	for streak, want := range map[int]int{1: 1, 6: 1, 7: 6, 8: 1, 14: 6, 21: 6} {
		if a := domain.SignInAward(3, 20300607, streak); a.Amount != want || a.Reason != domain.CreditSignIn || a.Ref != 20300607 || a.UserID != 3 {
			t.Errorf("sign-in on day %d in a row = %+v, want %d credits", streak, a, want)
		}
	}
	if a := domain.NoteAward(domain.Blog{ID: 8, UserID: 3}); a.Amount != 5 || a.Reason != domain.CreditNote || a.Ref != 8 || a.UserID != 3 {
		t.Errorf("note award = %+v", a)
	}
	for amount, want := range map[int64]int{0: 0, 99: 0, 100: 1, 2599: 25, 5000: 50} {
		if a := domain.OrderAward(domain.VoucherOrder{ID: 9, UserID: 3, Amount: amount}); a.Amount != want || a.Reason != domain.CreditOrder || a.Ref != 9 {
			t.Errorf("order of %d cents = %+v, want %d credits", amount, a, want)
		}
	}
}
