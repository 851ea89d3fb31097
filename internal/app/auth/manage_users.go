package auth

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// SetUserBlocked blocks or unblocks an account for an administrator. Blocking ends every
// session of the account at once and refuses its logins until it is unblocked.
type SetUserBlocked struct{ c *core }

// Handle blocks (or unblocks) userID on behalf of p. Errors: UNAUTHENTICATED for an
// anonymous caller; FORBIDDEN unless p is ADMIN; BAD_USER_INPUT for blocking oneself;
// NOT_FOUND for an unknown user.
func (h *SetUserBlocked) Handle(ctx context.Context, p Principal, userID int64, blocked bool) (domain.User, error) {
	if err := requireAdmin(p); err != nil {
		return domain.User{}, err
	}
	if blocked && userID == p.UserID {
		return domain.User{}, badInput("administrators cannot block themselves")
	}
	u, err := h.c.users.SetBlockedByID(ctx, userID, blocked)
	if err != nil {
		return domain.User{}, fmt.Errorf("set user blocked: %w", err)
	}
	if err := h.c.accountChanged(ctx, u); err != nil {
		return domain.User{}, err
	}
	return u, nil
}

// SetUserRole changes an account's role for an administrator; the new role applies to
// the account's existing tokens at once.
type SetUserRole struct{ c *core }

// Handle gives userID the role on behalf of p. Errors: UNAUTHENTICATED for an anonymous
// caller; FORBIDDEN unless p is ADMIN; BAD_USER_INPUT for an unknown role or for
// administrators taking their own role away; NOT_FOUND for an unknown user.
func (h *SetUserRole) Handle(ctx context.Context, p Principal, userID int64, role domain.Role) (domain.User, error) {
	if err := requireAdmin(p); err != nil {
		return domain.User{}, err
	}
	if !role.Valid() {
		return domain.User{}, badInput("unknown role")
	}
	if userID == p.UserID && role != domain.RoleAdmin {
		return domain.User{}, badInput("administrators cannot take their own ADMIN role away")
	}
	u, err := h.c.users.SetRoleByID(ctx, userID, role)
	if err != nil {
		return domain.User{}, fmt.Errorf("set user role: %w", err)
	}
	if err := h.c.accountChanged(ctx, u); err != nil {
		return domain.User{}, err
	}
	return u, nil
}

// requireAdmin refuses callers other than administrators.
func requireAdmin(p Principal) error {
	if p.UserID <= 0 {
		return unauthenticated("log in first", nil)
	}
	if !p.Allows(domain.RoleAdmin) {
		return domain.Errorf(domain.CodeForbidden, "this needs the ADMIN role")
	}
	return nil
}

// MerchantRoles gives and takes the MERCHANT role as shops change hands: a USER made
// the owner of a shop becomes a MERCHANT, a MERCHANT whose last shop goes to someone else
// a USER again; an ADMIN stays one. The new role applies to the user's next request, as
// with SetUserRole.
type MerchantRoles struct{ c *core }

// PromoteToMerchant makes userID a MERCHANT if they are a USER. Errors:
// domain.ErrNotFound for an unknown user.
func (h *MerchantRoles) PromoteToMerchant(ctx context.Context, userID int64) (domain.User, error) {
	u, err := h.c.users.User(ctx, userID)
	if err != nil {
		return domain.User{}, err
	}
	if u.Role != domain.RoleUser {
		return u, nil
	}
	if u, err = h.c.users.SetRoleByID(ctx, userID, domain.RoleMerchant); err != nil {
		return domain.User{}, fmt.Errorf("promote user %d: %w", userID, err)
	}
	if err := h.c.accountChanged(ctx, u); err != nil {
		return domain.User{}, err
	}
	return u, nil
}

// DemoteIfNoShops makes userID a USER if they are a MERCHANT who runs no shop. Errors:
// domain.ErrNotFound for an unknown user.
func (h *MerchantRoles) DemoteIfNoShops(ctx context.Context, userID int64) (domain.User, error) {
	u, demoted, err := h.c.users.DemoteMerchantWithoutShops(ctx, userID)
	if err != nil {
		return domain.User{}, fmt.Errorf("demote user %d: %w", userID, err)
	}
	if demoted {
		if err := h.c.accountChanged(ctx, u); err != nil {
			return domain.User{}, err
		}
	}
	return u, nil
}
