package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// Refresh exchanges a refresh token for new tokens of the same session. Each refresh
// token works once; presenting one again means it was copied, so the whole session ends.
type Refresh struct{ c *core }

// Handle rotates token. Errors: UNAUTHENTICATED for a malformed, unknown, expired,
// revoked or reused token, and for a blocked or deleted account (whose session is then
// ended).
func (h *Refresh) Handle(ctx context.Context, token string) (Session, error) {
	c := h.c
	userID, family, ok := parseRefreshToken(token)
	if !ok {
		return Session{}, unauthenticated("invalid refresh token", nil)
	}
	next := newRefreshToken(userID, family)
	rot, err := c.sessions.Rotate(ctx, userID, family, hashToken(token), hashToken(next), c.cfg.RefreshTTL)
	if err != nil {
		return Session{}, fmt.Errorf("rotate refresh token: %w", err)
	}
	switch rot {
	case RefreshRotated:
	case RefreshReused:
		return Session{}, unauthenticated("refresh token was already used; the session has ended", nil)
	default:
		return Session{}, unauthenticated("invalid or expired refresh token", nil)
	}
	u, err := c.users.User(ctx, userID)
	if err == nil && !u.Blocked {
		// As at login: the account as just read serves the next requests' checks.
		_ = c.sessions.RememberAccount(ctx, u.ID, AccountState{Role: u.Role, Blocked: u.Blocked}, c.cfg.AccountCacheTTL)
		return c.session(u, family, next)
	}
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return Session{}, fmt.Errorf("load user for refresh: %w", err)
	}
	if err := c.sessions.Revoke(ctx, userID, family); err != nil {
		return Session{}, fmt.Errorf("end session of blocked user: %w", err)
	}
	return Session{}, unauthenticated("the session has ended", nil)
}
