package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// GrantAdmin makes the owner of a phone an administrator. It is meant for operators (the
// command line), so it checks no caller.
type GrantAdmin struct{ c *core }

// Handle grants ADMIN to phone's account, creating the account if there is none yet. The
// role reaches existing sessions at once. Errors: BAD_USER_INPUT for a
// malformed phone.
func (h *GrantAdmin) Handle(ctx context.Context, phone string) (domain.User, error) {
	c := h.c
	phone, err := normalizePhone(phone)
	if err != nil {
		return domain.User{}, err
	}
	u, err := c.users.SetRole(ctx, phone, domain.RoleAdmin)
	if errors.Is(err, domain.ErrNotFound) {
		u, err = c.users.CreateUser(ctx, domain.User{Phone: phone, NickName: newNickName(), Role: domain.RoleAdmin})
		if errors.Is(err, domain.ErrConflict) { // created meanwhile by a first login
			u, err = c.users.SetRole(ctx, phone, domain.RoleAdmin)
		}
	}
	if err != nil {
		return domain.User{}, fmt.Errorf("grant admin: %w", err)
	}
	if err := c.accountChanged(ctx, u); err != nil {
		return domain.User{}, err
	}
	return u, nil
}
