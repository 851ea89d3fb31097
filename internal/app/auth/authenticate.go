package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dealspot/dealspot/internal/domain"
)

// ErrBlocked is the cause of the UNAUTHENTICATED error Authenticate returns for a blocked
// account (test with errors.Is), so that transports can tell a block from an ended
// session.
var ErrBlocked = errors.New("account blocked")

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
	return h.c.checkSession(ctx, p)
}

// checkSession checks that p's session is live and gives p the role the account holds
// now (not the one frozen in the token). The account state comes with the session check
// from the session store; when the store has none cached, it is read from the database
// and cached (also for an ended session, so that a blocked user is told so after the
// cache was lost). Errors: UNAUTHENTICATED for an ended session or a blocked or deleted
// account.
func (c *core) checkSession(ctx context.Context, p Principal) (Principal, error) {
	st, err := c.sessions.Check(ctx, p.UserID, p.FamilyID)
	if err != nil {
		return Principal{}, fmt.Errorf("check session: %w", err)
	}
	acct := st.Account
	if !st.Known {
		u, err := c.users.User(ctx, p.UserID)
		switch {
		case errors.Is(err, domain.ErrNotFound):
			return Principal{}, unauthenticated("the account no longer exists", nil)
		case err != nil && !st.Live:
			return Principal{}, unauthenticated("the session has ended", nil)
		case err != nil:
			return Principal{}, fmt.Errorf("load account for session check: %w", err)
		}
		acct = AccountState{Role: u.Role, Blocked: u.Blocked}
		if err := c.sessions.RememberAccount(ctx, p.UserID, acct, c.cfg.AccountCacheTTL); err != nil && st.Live {
			return Principal{}, fmt.Errorf("cache account state: %w", err)
		}
	}
	if acct.Blocked { // blocking also ends the sessions; say why
		return Principal{}, unauthenticated("this account is blocked", ErrBlocked)
	}
	if !st.Live {
		return Principal{}, unauthenticated("the session has ended", nil)
	}
	if acct.Role.Valid() {
		p.Role = acct.Role
	}
	return p, nil
}

// accountChanged caches u's new role and blocked state for the session checks, right
// after the database took the change, and ends every session of a blocked account.
func (c *core) accountChanged(ctx context.Context, u domain.User) error {
	err := c.sessions.SetAccount(ctx, u.ID, AccountState{Role: u.Role, Blocked: u.Blocked}, c.cfg.AccountCacheTTL)
	if err != nil {
		return fmt.Errorf("publish account state of user %d: %w", u.ID, err)
	}
	if u.Blocked {
		if err := c.sessions.RevokeAll(ctx, u.ID); err != nil {
			return fmt.Errorf("end sessions of blocked user %d: %w", u.ID, err)
		}
	}
	return nil
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
