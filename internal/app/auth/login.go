package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// Login exchanges a phone and its login code for a new session, creating the account on
// first login.
type Login struct{ c *core }

// Handle logs in the owner of phone for a caller at clientIP (empty when unknown).
// Errors: BAD_USER_INPUT for a malformed phone or code, or a wrong or expired code (a
// code's last allowed wrong guess discards it, and its owner asks for a new one);
// RATE_LIMITED with RetryAfterSeconds when a per-IP limit refuses (wrong codes from the
// address included); FORBIDDEN for a blocked account. Wrong guesses never lock the
// phone itself, so nobody can lock someone else out.
func (h *Login) Handle(ctx context.Context, phone, code, clientIP string) (Session, error) {
	c := h.c
	if !ValidPhone(phone) {
		return Session{}, badInput("phone must be a mainland China mobile number")
	}
	if !validCode(code) {
		return Session{}, badInput("code must be 6 digits")
	}
	clientIP = limitKey(clientIP) // an IPv6 client is its /64
	if err := c.limitIP(ctx, "login", clientIP, c.cfg.LoginPerIP); err != nil {
		return Session{}, err
	}
	refund, err := c.chargeGuess(ctx, clientIP)
	if err != nil {
		return Session{}, err
	}
	verdict, err := c.codes.Verify(ctx, phone, c.codeDigest(phone, code), c.cfg.Verify)
	if err != nil {
		return Session{}, fmt.Errorf("verify login code: %w", err)
	}
	switch verdict {
	case CodeAccepted:
		refund(ctx)
	case CodeDiscarded:
		return Session{}, badInput("wrong code; that was its last try: ask for a new code")
	default:
		return Session{}, badInput("wrong or expired code")
	}
	u, err := c.userForLogin(ctx, phone)
	if err != nil {
		return Session{}, err
	}
	if u.Blocked {
		return Session{}, domain.Errorf(domain.CodeForbidden, "this account is blocked")
	}
	return c.startSession(ctx, u)
}

// userForLogin returns the account of phone, creating it on first login and granting
// ADMIN to the configured admin phones.
func (c *core) userForLogin(ctx context.Context, phone string) (domain.User, error) {
	u, err := c.users.UserByPhone(ctx, phone)
	if errors.Is(err, domain.ErrNotFound) {
		role := domain.RoleUser
		if c.admins[phone] {
			role = domain.RoleAdmin
		}
		u, err = c.users.CreateUser(ctx, domain.User{Phone: phone, NickName: newNickName(), Role: role})
		if errors.Is(err, domain.ErrConflict) { // a concurrent first login won
			u, err = c.users.UserByPhone(ctx, phone)
		}
	}
	if err != nil {
		return domain.User{}, fmt.Errorf("load user for login: %w", err)
	}
	if c.admins[phone] && u.Role != domain.RoleAdmin {
		if u, err = c.users.SetRole(ctx, phone, domain.RoleAdmin); err != nil {
			return domain.User{}, fmt.Errorf("grant admin on login: %w", err)
		}
		if err := c.accountChanged(ctx, u); err != nil {
			return domain.User{}, err
		}
	}
	return u, nil
}

// newNickName is the nickname of a new account: "user_" and 10 random characters.
func newNickName() string {
	return "user_" + randomString(10, "abcdefghijklmnopqrstuvwxyz0123456789")
}

// chargeGuess counts a code guess from clientIP as wrong before it is checked, so that
// concurrent guesses cannot slip past the per-IP limit; the returned refund takes it back
// once the code proved right. Callers without a known address are not limited here.
func (c *core) chargeGuess(ctx context.Context, clientIP string) (refund func(context.Context), err error) {
	// clientIP is already a limit key (limitKey).
	if !c.cfg.IPLimits || clientIP == "" {
		return func(context.Context) {}, nil
	}
	client := "ip:" + clientIP
	id, ok, retry, err := c.codes.ChargeGuess(ctx, client, c.cfg.WrongCodesPerIP)
	if err != nil {
		return nil, fmt.Errorf("per-IP wrong code limit: %w", err)
	}
	if !ok {
		return nil, rateLimited("too many wrong codes from this address; try again later", retry)
	}
	return func(ctx context.Context) {
		// A failed refund costs the address one guess of its allowance, no more: the
		// login itself goes on.
		_ = c.codes.RefundGuess(ctx, client, id)
	}, nil
}
