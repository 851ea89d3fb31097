package socialtest

import (
	"context"
	"sync"

	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/app/social/signins"
	"github.com/dealspot/dealspot/internal/domain"
)

// creditKey is an award's key.
type creditKey struct {
	user   int64
	reason domain.CreditReason
	ref    int64
}

// MemCredits is an in-memory store of credit awards (notes.Credits and
// signins.Credits).
type MemCredits struct {
	mu      sync.Mutex
	awards  map[creditKey]int
	credits map[int64]int
}

var (
	_ notes.Credits   = (*MemCredits)(nil)
	_ signins.Credits = (*MemCredits)(nil)
)

// NewMemCredits returns a store without awards.
func NewMemCredits() *MemCredits {
	return &MemCredits{awards: map[creditKey]int{}, credits: map[int64]int{}}
}

// Award implements notes.Credits.
func (m *MemCredits) Award(_ context.Context, a domain.CreditAward) (bool, error) {
	if a.UserID <= 0 || a.Reason == "" || a.Amount < 0 {
		return false, domain.Errorf(domain.CodeBadUserInput, "an award needs a user, a reason and an amount")
	}
	if a.Amount == 0 {
		return false, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := creditKey{a.UserID, a.Reason, a.Ref}
	if _, taken := m.awards[k]; taken {
		return false, nil
	}
	m.awards[k] = a.Amount
	m.credits[a.UserID] += a.Amount
	return true, nil
}

// Revoke implements notes.Credits.
func (m *MemCredits) Revoke(_ context.Context, userID int64, reason domain.CreditReason, ref int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := creditKey{userID, reason, ref}
	amount := m.awards[k]
	m.awards[k] = 0
	m.credits[userID] -= amount
	return amount > 0, nil
}

// Balance returns a user's credits.
func (m *MemCredits) Balance(userID int64) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.credits[userID]
}
