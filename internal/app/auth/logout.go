package auth

import (
	"context"
	"fmt"
)

// Logout ends the caller's session: its refresh token and its access tokens stop working.
type Logout struct{ c *core }

// Handle ends p's session. Errors: UNAUTHENTICATED for an anonymous principal.
func (h *Logout) Handle(ctx context.Context, p Principal) error {
	if p.UserID <= 0 || p.FamilyID == "" {
		return unauthenticated("log in first", nil)
	}
	if err := h.c.sessions.Revoke(ctx, p.UserID, p.FamilyID); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// EndSessions ends every session of a user, e.g. right after blocking the account: all
// of the user's refresh and access tokens stop working. (Login and refresh refuse blocked
// accounts themselves.)
type EndSessions struct{ c *core }

// Handle ends every session of userID.
func (h *EndSessions) Handle(ctx context.Context, userID int64) error {
	if err := h.c.sessions.RevokeAll(ctx, userID); err != nil {
		return fmt.Errorf("end sessions of user %d: %w", userID, err)
	}
	return nil
}
