package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealspot/dealspot/internal/domain"
)

// SendCodeResult reports a sent login code.
type SendCodeResult struct {
	Sent bool
	// RetryAfterSeconds is how long until another code may be asked for.
	RetryAfterSeconds int
	// DevCode is the code itself, in dev mode only.
	DevCode string
}

// SendLoginCode sends a fresh login code to a phone, within the per-(address, phone) and
// per-address limits. Nothing is limited per phone alone: that would let anyone lock a
// phone's owner out by asking for codes in their name.
type SendLoginCode struct{ c *core }

// Handle sends a code to phone for a caller at clientIP (empty when unknown); the code is
// good only for a login from clientIP, and replaces only clientIP's earlier code. Errors:
// BAD_USER_INPUT for a malformed phone; RATE_LIMITED with RetryAfterSeconds when a limit
// refuses; FORBIDDEN for a blocked account. Once issued, a code counts against the
// limits even if delivery fails.
func (h *SendLoginCode) Handle(ctx context.Context, phone, clientIP string) (SendCodeResult, error) {
	c := h.c
	phone, err := normalizePhone(phone)
	if err != nil {
		return SendCodeResult{}, err
	}
	clientIP = ClientKey(clientIP) // an IPv6 client is its /64
	if err := c.limitIP(ctx, "send-login-code", clientIP, c.cfg.SendCodePerIP); err != nil {
		return SendCodeResult{}, err
	}
	// A blocked account gets no code: it could not log in with it anyway.
	switch u, err := c.users.UserByPhone(ctx, phone); {
	case err == nil && u.Blocked:
		return SendCodeResult{}, domain.Errorf(domain.CodeForbidden, "this account is blocked")
	case err != nil && !errors.Is(err, domain.ErrNotFound):
		return SendCodeResult{}, fmt.Errorf("load user for login code: %w", err)
	}
	code := newCode()
	issued, retry, err := c.codes.Issue(ctx, phone, clientIP, c.codeDigest(phone, code), c.cfg.Send)
	if err != nil {
		return SendCodeResult{}, fmt.Errorf("issue login code: %w", err)
	}
	if !issued {
		return SendCodeResult{}, rateLimited("too many codes asked for this phone from this address; try again later", retry)
	}
	if err := c.sender.Send(ctx, phone, code); err != nil {
		return SendCodeResult{}, fmt.Errorf("deliver login code: %w", err)
	}
	res := SendCodeResult{Sent: true, RetryAfterSeconds: seconds(c.cfg.Send.Interval)}
	if c.cfg.DevMode {
		res.DevCode = code
	}
	return res, nil
}
