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
// Errors: BAD_USER_INPUT for a malformed phone or code, or a wrong or expired code;
// RATE_LIMITED with RetryAfterSeconds when the phone is locked after too many wrong codes
// (the attempt that reaches the limit already gets it) or a per-IP limit refuses;
// FORBIDDEN for a blocked account.
func (h *Login) Handle(ctx context.Context, phone, code, clientIP string) (Session, error) {
	c := h.c
	if !ValidPhone(phone) {
		return Session{}, badInput("phone must be a mainland China mobile number")
	}
	if !validCode(code) {
		return Session{}, badInput("code must be 6 digits")
	}
	if err := c.limitIP(ctx, "login", clientIP, c.cfg.LoginPerIP); err != nil {
		return Session{}, err
	}
	verdict, retry, err := c.codes.Verify(ctx, phone, c.codeDigest(phone, code), c.cfg.Verify)
	if err != nil {
		return Session{}, fmt.Errorf("verify login code: %w", err)
	}
	switch verdict {
	case CodeAccepted:
	case CodeLocked:
		return Session{}, rateLimited("too many wrong codes for this phone; try again later", retry)
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
