package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dealspot/dealspot/internal/domain"
)

// Authenticate tells who is calling from an access token.
type Authenticate struct{ c *core }

// Handle checks an access token, given bare or as an Authorization header value
// ("Bearer <token>"), and that its session is still live. Errors: UNAUTHENTICATED for
// anything wrong with the token or an ended session.
func (h *Authenticate) Handle(ctx context.Context, bearer string) (Principal, error) {
	token := strings.TrimSpace(bearer)
	if len(token) > 7 && strings.EqualFold(token[:7], "bearer ") {
		token = strings.TrimSpace(token[7:])
	}
	p, err := h.c.verifyAccess(token)
	if err != nil {
		return Principal{}, err
	}
	live, err := h.c.sessions.Active(ctx, p.UserID, p.FamilyID)
	if err != nil {
		return Principal{}, fmt.Errorf("check session: %w", err)
	}
	if !live {
		return Principal{}, unauthenticated("the session has ended", nil)
	}
	return p, nil
}

// CurrentUser returns the caller's account.
type CurrentUser struct{ c *core }

// Handle returns p's account. Errors: UNAUTHENTICATED for an anonymous principal or an
// account that is gone or blocked.
func (h *CurrentUser) Handle(ctx context.Context, p Principal) (domain.User, error) {
	if p.UserID <= 0 {
		return domain.User{}, unauthenticated("log in first", nil)
	}
	u, err := h.c.users.User(ctx, p.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, unauthenticated("the account no longer exists", nil)
	}
	if err != nil {
		return domain.User{}, fmt.Errorf("load current user: %w", err)
	}
	if u.Blocked {
		return domain.User{}, unauthenticated("this account is blocked", nil)
	}
	return u, nil
}
