package auth

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// BlockUser blocks or unblocks an account. Blocking ends every session at once: the
// user's refresh and access tokens stop working, and login is refused until unblocked.
// It is meant for operators (the command line), so it checks no caller.
type BlockUser struct{ c *core }

// Handle sets phone's account blocked or not. Errors: BAD_USER_INPUT for a malformed
// phone; NOT_FOUND when no account has that phone.
func (h *BlockUser) Handle(ctx context.Context, phone string, blocked bool) (domain.User, error) {
	phone, err := normalizePhone(phone)
	if err != nil {
		return domain.User{}, err
	}
	u, err := h.c.users.SetBlocked(ctx, phone, blocked)
	if err != nil {
		return domain.User{}, fmt.Errorf("block user: %w", err)
	}
	if err := h.c.accountChanged(ctx, u); err != nil {
		return domain.User{}, err
	}
	return u, nil
}
