package auth

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/dealspot/dealspot/internal/domain"
)

// wrongPassword is the one answer to a wrong password, an unknown phone and an account
// without a password alike, so that it tells nobody which phones have accounts.
const wrongPassword = "wrong phone or password"

// LoginWithPassword exchanges a phone and its account's password for a new session.
// Unlike a code login it never creates an account: a password is set by a logged-in user
// (SetPassword).
type LoginWithPassword struct{ c *core }

// Handle logs in the owner of phone for a caller at clientIP (empty when unknown).
// Errors: BAD_USER_INPUT for a malformed phone, a password of the wrong length (not
// counted), or a wrong password — "wrong phone or password" with TriesLeft, the same
// for an unknown phone or an account without a password, which cost a hash too;
// RATE_LIMITED with RetryAfterSeconds past a limit of PasswordConfig (per phone and
// address, per phone) or the per-address ones shared with codes, checked before the
// password is; FORBIDDEN for a blocked account (after a right password only).
func (h *LoginWithPassword) Handle(ctx context.Context, phone, password, clientIP string) (Session, error) {
	c := h.c
	phone, err := normalizePhone(phone)
	if err != nil {
		return Session{}, err
	}
	if err := c.passwords.checkLength(password); err != nil {
		return Session{}, err
	}
	clientIP = ClientKey(clientIP) // an IPv6 client is its /64
	if ok, retry, err := c.allowIP(ctx, "login", clientIP, c.cfg.LoginPerIP); err != nil {
		return Session{}, err
	} else if !ok {
		return Session{}, rateLimited("too many logins from this address; try again later", retry)
	}
	charges, err := c.chargePassword(ctx, phone, clientIP)
	if err != nil {
		return Session{}, err
	}
	u, hash, err := c.users.Credentials(ctx, phone)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		charges.refund(ctx)
		return Session{}, fmt.Errorf("load credentials: %w", err)
	}
	match, stale, err := c.passwords.check(ctx, hash, password)
	if err != nil {
		charges.refund(ctx)
		return Session{}, fmt.Errorf("check password of user %d: %w", u.ID, err)
	}
	if !match {
		return Session{}, wrongGuess(wrongPassword, charges.left)
	}
	charges.refund(ctx)
	if u.Blocked {
		return Session{}, domain.Errorf(domain.CodeForbidden, "this account is blocked")
	}
	if stale {
		// Made with older parameters: made again with the current ones. Should this
		// fail, the old hash still works and the next login tries again.
		if h, err := c.passwords.hash(ctx, password); err == nil {
			_ = c.users.SetPasswordHash(ctx, u.ID, h)
		}
	}
	if u, err = c.grantConfiguredAdmin(ctx, u); err != nil {
		return Session{}, err
	}
	return c.startSession(ctx, u)
}

// SetPassword sets or changes the password of a logged-in user.
type SetPassword struct{ c *core }

// Handle gives p's account password. When the account has one already, currentPassword
// must be it: a wrong one is counted and answered as a wrong password login is (per phone
// and address, and per phone), so a stolen session cannot guess it faster than a login
// could. Setting a password ends no session. Errors: UNAUTHENTICATED for an anonymous
// principal; BAD_USER_INPUT for a password of the wrong length, a missing or wrong
// currentPassword (with TriesLeft); RATE_LIMITED past a limit.
func (h *SetPassword) Handle(ctx context.Context, p Principal, password string, currentPassword *string, clientIP string) error {
	c := h.c
	if p.UserID <= 0 {
		return unauthenticated("log in first", nil)
	}
	if err := c.passwords.checkLength(password); err != nil {
		return err
	}
	u, err := c.users.User(ctx, p.UserID)
	if err != nil {
		return fmt.Errorf("load user %d: %w", p.UserID, err)
	}
	_, stored, err := c.users.Credentials(ctx, u.Phone)
	if err != nil {
		return fmt.Errorf("load credentials of user %d: %w", u.ID, err)
	}
	if stored != "" {
		if currentPassword == nil || *currentPassword == "" {
			return badInput("currentPassword is required to change a password")
		}
		if err := c.passwords.checkLength(*currentPassword); err != nil {
			// No password of that length can be the current one: refused unhashed and
			// uncounted, as such a guess at login is.
			return badInput("wrong current password")
		}
		clientIP = ClientKey(clientIP)
		charges, err := c.chargePassword(ctx, u.Phone, clientIP)
		if err != nil {
			return err
		}
		match, _, err := c.passwords.check(ctx, stored, *currentPassword)
		if err != nil {
			charges.refund(ctx)
			return fmt.Errorf("check password of user %d: %w", u.ID, err)
		}
		if !match {
			return wrongGuess("wrong current password", charges.left)
		}
		charges.refund(ctx)
	}
	hash, err := c.passwords.hash(ctx, password)
	if err != nil {
		return err
	}
	if err := c.users.SetPasswordHash(ctx, u.ID, hash); err != nil {
		return fmt.Errorf("store password of user %d: %w", u.ID, err)
	}
	return nil
}

// passwordCharges are the wrong-guess charges one password check made before it ran:
// given back when the password proves right (or was not checked), kept when it is wrong.
type passwordCharges struct {
	c     *core
	taken []charge
	// left is how many more wrong passwords the caller has: the least of what the
	// address's limits and the (phone, address) limit allow after this one. The
	// per-phone limit is left out: it would tell the caller about others' guesses.
	left int
}

type charge struct{ key, id string }

// guessLimit is one limit a password guess is charged against.
type guessLimit struct {
	key     string
	limit   Limit
	counted bool // passwordCharges.left reports it
	refusal string
}

func (g *passwordCharges) refund(ctx context.Context) {
	for _, ch := range g.taken {
		// A failed refund costs one guess of an allowance, no more.
		_ = g.c.codes.RefundGuess(ctx, ch.key, ch.id)
	}
	g.taken = nil
}

// chargePassword counts a password guess as wrong before it is checked — per client
// address (shared with wrong codes), per (phone, address) and per phone — so that
// concurrent guesses cannot slip past a limit. Past any limit it takes back what it
// counted and returns RATE_LIMITED. clientIP is a limit key already (ClientKey).
func (c *core) chargePassword(ctx context.Context, phone, clientIP string) (*passwordCharges, error) {
	g := &passwordCharges{c: c, left: math.MaxInt}
	var steps []guessLimit
	if c.cfg.IPLimits && clientIP != "" {
		// The key of the per-address wrong codes (chargeGuess): one allowance for both.
		steps = append(steps, guessLimit{"ip:" + clientIP, c.cfg.WrongCodesPerIP, true,
			"too many wrong codes or passwords from this address; try again later"})
	}
	steps = append(steps,
		guessLimit{"pw:" + phone + ":" + clientIP, c.cfg.Password.WrongPerClient, true,
			"too many wrong passwords for this phone from this address; try again later, or log in with a code"},
		guessLimit{"pw:" + phone, c.cfg.Password.WrongPerPhone, false,
			"too many wrong passwords for this phone; try again later, or log in with a code"})
	for _, s := range steps {
		res, err := c.codes.ChargeGuess(ctx, s.key, s.limit)
		if err != nil {
			g.refund(ctx)
			return nil, fmt.Errorf("wrong password limit: %w", err)
		}
		if !res.OK {
			g.refund(ctx)
			return nil, rateLimited(s.refusal, res.RetryAfter)
		}
		g.taken = append(g.taken, charge{s.key, res.ID})
		if s.counted {
			g.left = min(g.left, res.Left)
		}
	}
	return g, nil
}

// grantConfiguredAdmin makes u an ADMIN when its phone is one of Config.AdminPhones.
func (c *core) grantConfiguredAdmin(ctx context.Context, u domain.User) (domain.User, error) {
	if !c.admins[u.Phone] || u.Role == domain.RoleAdmin {
		return u, nil
	}
	u, err := c.users.SetRole(ctx, u.Phone, domain.RoleAdmin)
	if err != nil {
		return domain.User{}, fmt.Errorf("grant admin on login: %w", err)
	}
	if err := c.accountChanged(ctx, u); err != nil {
		return domain.User{}, err
	}
	return u, nil
}
