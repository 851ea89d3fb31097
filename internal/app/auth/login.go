package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Login exchanges a phone and its login code for a new session, creating the account on
// first login.
type Login struct{ c *core }

// Handle logs in the owner of phone for a caller at clientIP (empty when unknown), with a
// code that clientIP asked for: a code is checked only against guesses from the client
// that asked for it, so nobody else's guesses can discard it. Errors: BAD_USER_INPUT for
// a malformed phone or code, or a wrong or expired code (a code's last allowed wrong guess
// discards it, and its owner asks for a new one); RATE_LIMITED with RetryAfterSeconds for
// a wrong code from an address past a per-IP limit (LoginPerIP calls, WrongCodesPerIP
// wrong codes) — such a guess is still checked, so a right code is never refused, but a
// wrong one discards the code it was meant for at once; FORBIDDEN for a blocked account.
// Wrong guesses never lock the phone itself, so nobody can lock someone else out.
func (h *Login) Handle(ctx context.Context, phone, code, clientIP string) (Session, error) {
	c := h.c
	phone, err := normalizePhone(phone)
	if err != nil {
		return Session{}, err
	}
	if !validCode(code) {
		return Session{}, badInput("code must be 6 digits")
	}
	clientIP = ClientKey(clientIP) // an IPv6 client is its /64
	callsOK, callsRetry, err := c.allowIP(ctx, "login", clientIP, c.cfg.LoginPerIP)
	if err != nil {
		return Session{}, err
	}
	refund, guessOK, guessRetry, err := c.chargeGuess(ctx, clientIP)
	if err != nil {
		return Session{}, err
	}
	limits := c.cfg.Verify
	if !callsOK || !guessOK {
		// Past a per-address limit the address gets one guess per code: a right code
		// still logs in (it may be someone else's behind the same proxy), a wrong one
		// discards the code, so the address can try no more than it asks codes for.
		limits.MaxWrong = 1
	}
	verdict, left, err := c.codes.Verify(ctx, phone, clientIP, c.codeDigest(phone, code), limits)
	if err != nil {
		return Session{}, fmt.Errorf("verify login code: %w", err)
	}
	switch {
	case verdict == CodeAccepted:
		refund(ctx)
	case !callsOK || !guessOK:
		return Session{}, rateLimited("too many wrong codes or logins from this address; try again later", max(callsRetry, guessRetry))
	case verdict == CodeDiscarded:
		return Session{}, wrongGuess("wrong code; that was its last try: ask for a new code", 0)
	case left == 0:
		return Session{}, wrongGuess("wrong or expired code: ask for a new code", 0)
	default:
		return Session{}, wrongGuess("wrong code", left)
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
	return c.grantConfiguredAdmin(ctx, u)
}

// newNickName is the nickname of a new account: "user_" and 10 random characters.
func newNickName() string {
	return "user_" + randomString(10, "abcdefghijklmnopqrstuvwxyz0123456789")
}

// chargeGuess counts a code guess from clientIP as wrong before it is checked, so that
// concurrent guesses cannot slip past the per-IP limit; the returned refund takes it back
// once the code proved right. ok=false (with how long to wait) when clientIP is past
// its limit: then nothing was charged. Callers without a known address are not limited.
func (c *core) chargeGuess(ctx context.Context, clientIP string) (refund func(context.Context), ok bool, retry time.Duration, err error) {
	// clientIP is already a limit key (ClientKey).
	noRefund := func(context.Context) {}
	if !c.cfg.IPLimits || clientIP == "" {
		return noRefund, true, 0, nil
	}
	client := "ip:" + clientIP
	g, err := c.codes.ChargeGuess(ctx, client, c.cfg.WrongCodesPerIP)
	if err != nil {
		return nil, false, 0, fmt.Errorf("per-IP wrong code limit: %w", err)
	}
	if !g.OK {
		return noRefund, false, g.RetryAfter, nil
	}
	return func(ctx context.Context) {
		// A failed refund costs the address one guess of its allowance, no more: the
		// login itself goes on.
		_ = c.codes.RefundGuess(ctx, client, g.ID)
	}, true, 0, nil
}
