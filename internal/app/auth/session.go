package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dealspot/dealspot/internal/domain"
)

// Session is what a successful login or refresh hands to the client.
type Session struct {
	AccessToken string
	// ExpiresAt is when AccessToken expires.
	ExpiresAt time.Time
	// RefreshToken is opaque; it is valid once, until RefreshExpiresAt.
	RefreshToken     string
	RefreshExpiresAt time.Time
	User             domain.User
}

// Principal is the caller an access token speaks for.
type Principal struct {
	UserID int64
	// Role is the role the account holds now (Authenticate reads it with the session
	// check), not the one the token was issued with.
	Role domain.Role
	// FamilyID names the session (refresh-token family) the token belongs to.
	FamilyID string
	// ExpiresAt is when the access token stops being accepted (its expiry plus the
	// clock leeway); zero for principals not made from a token.
	ExpiresAt time.Time
}

// Allows reports whether the principal may act with role: admins may do everything,
// merchants what users may.
func (p Principal) Allows(role domain.Role) bool {
	return p.UserID > 0 && p.Role.AtLeast(role)
}

// accessClaims are the claims of an access token.
type accessClaims struct {
	Role domain.Role `json:"role"`
	// SessionID is the refresh-token family.
	SessionID string `json:"sid"`
	jwt.RegisteredClaims
}

// maxTokenLen bounds what is parsed at all.
const maxTokenLen = 4096

// startSession creates a new refresh-token family for u and returns its first tokens.
func (c *core) startSession(ctx context.Context, u domain.User) (Session, error) {
	family := randomHex(16)
	refresh := newRefreshToken(u.ID, family)
	if err := c.sessions.Create(ctx, u.ID, family, hashToken(refresh), c.cfg.RefreshTTL); err != nil {
		return Session{}, fmt.Errorf("create session: %w", err)
	}
	// The account as just read: the session's first requests find it cached instead of
	// each reading the users table (a state cached meanwhile wins). Should this fail,
	// the first check reads the database as it would anyway.
	_ = c.sessions.RememberAccount(ctx, u.ID, AccountState{Role: u.Role, Blocked: u.Blocked}, c.cfg.AccountCacheTTL)
	return c.session(u, family, refresh)
}

// session signs an access token for u in family and wraps it with refresh.
func (c *core) session(u domain.User, family, refresh string) (Session, error) {
	now := c.now()
	exp := now.Add(c.cfg.AccessTTL).Truncate(time.Second)
	claims := accessClaims{
		Role:      u.Role,
		SessionID: family,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    c.cfg.Issuer,
			Subject:   strconv.FormatInt(u.ID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(exp),
			ID:        randomHex(16),
		},
	}
	access, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(c.secret)
	if err != nil {
		return Session{}, fmt.Errorf("sign access token: %w", err)
	}
	return Session{
		AccessToken:      access,
		ExpiresAt:        exp,
		RefreshToken:     refresh,
		RefreshExpiresAt: now.Add(c.cfg.RefreshTTL),
		User:             u,
	}, nil
}

// verifiedToken is a checked access token as VerifiedTokens remembers it.
type verifiedToken struct {
	p Principal
	// until is when the token stops being accepted: its expiry plus the leeway.
	until time.Time
}

// verifyAccess is parseAccess remembered: a token verified before and not yet expired is
// not parsed and its signature not checked again.
func (c *core) verifyAccess(token string) (Principal, error) {
	if c.tokens == nil {
		p, _, err := c.parseAccess(token)
		return p, err
	}
	now := c.now()
	if v, ok := c.tokens.Get(token); ok {
		if vt, ok := v.(verifiedToken); ok && now.Before(vt.until) {
			return vt.p, nil
		}
	}
	p, exp, err := c.parseAccess(token)
	if err != nil {
		return Principal{}, err
	}
	until := exp.Add(c.cfg.Leeway)
	if ttl := until.Sub(now); ttl > 0 {
		c.tokens.Set(token, verifiedToken{p: p, until: until}, ttl)
	}
	return p, nil
}

// parseAccess checks an access token and returns its principal and expiry; every
// failure is UNAUTHENTICATED.
func (c *core) parseAccess(token string) (Principal, time.Time, error) {
	if token == "" || len(token) > maxTokenLen {
		return Principal{}, time.Time{}, unauthenticated("missing or oversized access token", nil)
	}
	if c.quick != nil {
		if p, exp, ok := c.quick.verify(token, c.now()); ok {
			return p, exp, nil
		}
	}
	var claims accessClaims
	_, err := c.parser.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) {
		return c.secret, nil
	})
	if err != nil {
		return Principal{}, time.Time{}, unauthenticated("invalid or expired access token", err)
	}
	id, err := strconv.ParseInt(claims.Subject, 10, 64)
	if err != nil || id <= 0 {
		return Principal{}, time.Time{}, unauthenticated("invalid access token", errors.New("subject is not a user id"))
	}
	if !claims.Role.Valid() || claims.SessionID == "" || claims.ExpiresAt == nil {
		return Principal{}, time.Time{}, unauthenticated("invalid access token", errors.New("role, session or expiry missing"))
	}
	exp := claims.ExpiresAt.Time
	return Principal{UserID: id, Role: claims.Role, FamilyID: claims.SessionID, ExpiresAt: exp.Add(c.cfg.Leeway)}, exp, nil
}

// newRefreshToken returns "<user id>.<family id>.<secret>". The ids let the store find
// the family (and keep one user's sessions together) without an index; the 256-bit
// secret is what makes the token unguessable.
func newRefreshToken(userID int64, family string) string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return strconv.FormatInt(userID, 10) + "." + family + "." + base64.RawURLEncoding.EncodeToString(b)
}

// parseRefreshToken splits a refresh token made by newRefreshToken.
func parseRefreshToken(token string) (userID int64, family string, ok bool) {
	if len(token) > maxTokenLen {
		return 0, "", false
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 || len(parts[1]) != 32 || len(parts[2]) != 43 {
		return 0, "", false
	}
	id, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil || id <= 0 {
		return 0, "", false
	}
	if _, err := hex.DecodeString(parts[1]); err != nil {
		return 0, "", false
	}
	return id, parts[1], true
}

// hashToken is how refresh tokens are stored: a leaked store holds no usable token.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// codeDigest is how login codes are stored and compared: a keyed hash, so the store
// never holds a code and comparing digests reveals nothing about the code.
func (c *core) codeDigest(phone, code string) string {
	m := hmac.New(sha256.New, c.codeKey)
	m.Write([]byte(phone + ":" + code))
	return hex.EncodeToString(m.Sum(nil))
}

// derivedKey derives a key for one purpose from the main secret.
func derivedKey(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// newCode returns 6 uniformly random decimal digits.
func newCode() string {
	return randomString(6, "0123456789")
}

// validCode reports whether code has the form of a login code.
func validCode(code string) bool {
	if len(code) != 6 {
		return false
	}
	for _, r := range code {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// randomString returns n characters drawn uniformly from alphabet (at most 256 long).
func randomString(n int, alphabet string) string {
	limit := 256 - 256%len(alphabet) // reject bytes that would bias the draw
	out := make([]byte, 0, n)
	buf := make([]byte, n+8)
	for len(out) < n {
		_, _ = rand.Read(buf)
		for _, b := range buf {
			if int(b) < limit && len(out) < n {
				out = append(out, alphabet[int(b)%len(alphabet)])
			}
		}
	}
	return string(out)
}

// randomHex returns 2n hex characters from n random bytes.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func unauthenticated(msg string, cause error) error {
	return &domain.Error{Code: domain.CodeUnauthenticated, Message: msg, Err: cause}
}

func badInput(msg string) error {
	return &domain.Error{Code: domain.CodeBadUserInput, Message: msg}
}

// wrongGuess is the BAD_USER_INPUT of a wrong login code or password, with how many more
// wrong guesses the caller has.
func wrongGuess(msg string, triesLeft int) error {
	return domain.Errorf(domain.CodeBadUserInput, "%s", msg).WithTriesLeft(triesLeft)
}

func rateLimited(msg string, retryAfter time.Duration) error {
	return &domain.Error{Code: domain.CodeRateLimited, Message: msg, RetryAfterSeconds: seconds(retryAfter)}
}

// seconds rounds d up to whole seconds, so a client that waits that long is let in.
func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(math.Ceil(d.Seconds()))
}

// limitIP applies a per-client-IP limit to action. Callers without a known address are
// not limited here (the per-(address, phone) limits still apply).
func (c *core) limitIP(ctx context.Context, action, clientIP string, l Limit) error {
	ok, retry, err := c.allowIP(ctx, action, clientIP, l)
	if err != nil {
		return err
	}
	if !ok {
		return rateLimited("too many requests from this address; try again later", retry)
	}
	return nil
}

// allowIP records one action by clientIP and reports whether it was within l, and if not
// how long until it would be. Callers without a known address are always within.
func (c *core) allowIP(ctx context.Context, action, clientIP string, l Limit) (ok bool, retry time.Duration, err error) {
	if !c.cfg.IPLimits || clientIP == "" {
		return true, 0, nil
	}
	ok, retry, err = c.limiter.Allow(ctx, "ip:"+action+":"+clientIP, l.Max, l.Window)
	if err != nil {
		return false, 0, fmt.Errorf("per-IP limit: %w", err)
	}
	return ok, retry, nil
}
