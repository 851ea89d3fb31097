package auth

import (
	"context"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Users reads and writes accounts in the relational store.
type Users interface {
	// UserByPhone returns the user with that phone number, or domain.ErrNotFound.
	UserByPhone(ctx context.Context, phone string) (domain.User, error)
	// User returns one user, or domain.ErrNotFound.
	User(ctx context.Context, id int64) (domain.User, error)
	// CreateUser stores a new user and returns it with its id; domain.ErrConflict when the
	// phone number is taken.
	CreateUser(ctx context.Context, u domain.User) (domain.User, error)
	// SetRole changes the role of the user with that phone number and returns the user, or
	// domain.ErrNotFound.
	SetRole(ctx context.Context, phone string, role domain.Role) (domain.User, error)
	// SetBlocked blocks or unblocks the user with that phone number and returns the user,
	// or domain.ErrNotFound.
	SetBlocked(ctx context.Context, phone string, blocked bool) (domain.User, error)
	// SetRoleByID changes the role of user id and returns the user, or domain.ErrNotFound.
	SetRoleByID(ctx context.Context, id int64, role domain.Role) (domain.User, error)
	// SetBlockedByID blocks or unblocks user id and returns the user, or
	// domain.ErrNotFound.
	SetBlockedByID(ctx context.Context, id int64, blocked bool) (domain.User, error)
	// Credentials returns the user with that phone number and their password hash (""
	// when they have none), or domain.ErrNotFound.
	Credentials(ctx context.Context, phone string) (u domain.User, passwordHash string, err error)
	// DemoteMerchantWithoutShops makes user id a USER if they are a MERCHANT who owns no
	// shop, in one transaction that locks the user's row (as setting a shop's owner does),
	// and returns the user and whether they were demoted; domain.ErrNotFound for an
	// unknown user.
	DemoteMerchantWithoutShops(ctx context.Context, id int64) (u domain.User, demoted bool, err error)
	// SetPasswordHash stores user id's password hash, or returns domain.ErrNotFound.
	SetPasswordHash(ctx context.Context, id int64, passwordHash string) error
}

// CodeSender delivers a login code to a phone.
type CodeSender interface {
	// Send delivers code to phone; any error means it may not have arrived.
	Send(ctx context.Context, phone, code string) error
}

// SendLimits bound how often one client (an IP address or network) has login codes sent
// to one phone. They never count sends by other clients, so nobody can spend someone
// else's allowance: a phone's owner asking from an address of their own always gets a
// code. The tiers are checked in this order: the lock, the interval, the day, the window.
type SendLimits struct {
	// CodeTTL is how long a code stays valid.
	CodeTTL time.Duration
	// Interval is the least time between two codes.
	Interval time.Duration
	// Window and WindowMax: at most WindowMax codes in any Window (sliding; a code exactly
	// one Window old still counts).
	Window    time.Duration
	WindowMax int
	// Lock is how long the client gets no codes for the phone after asking beyond
	// WindowMax.
	Lock time.Duration
	// Day and DayMax: at most DayMax codes in any Day (sliding); asking beyond waits until
	// the oldest of them is Day old, without a lock.
	Day    time.Duration
	DayMax int
}

// VerifyLimits bound wrong guesses of one login code.
type VerifyLimits struct {
	// MaxWrong wrong guesses of one code discard it; its owner asks for a new one within
	// the send limits. Guesses with no live code count against nothing.
	MaxWrong int
}

// Verdict is the outcome of checking a login code.
type Verdict int

// Verdicts.
const (
	// CodeRejected: no live code, or a wrong guess that was counted against the code.
	CodeRejected Verdict = iota
	// CodeAccepted: the code matched and has been consumed.
	CodeAccepted
	// CodeDiscarded: a wrong guess that was the code's last allowed one; the code is gone.
	CodeDiscarded
)

// CodeStore keeps the login codes and the limits around them. A code belongs to the phone
// it was sent to and to the client (an IP address or network) that asked for it: only a
// guess from that client is checked against it, so what one client does — asking for
// codes, guessing wrong — never replaces, discards or locks a code another client asked
// for. Each (phone, client) pair has at most one live code, its own send limits and its
// code's count of wrong guesses; the store also counts wrong guesses per client.
// Codes are stored as digests only; Issue and Verify are atomic per pair.
type CodeStore interface {
	// Issue makes digest the current code of (phone, client), replacing an earlier one of
	// the pair and its count of wrong guesses, and records the send, if l allows the pair
	// a send now. Otherwise it stores nothing and returns issued=false and how long until
	// a send could succeed. Errors are infrastructure failures only.
	Issue(ctx context.Context, phone, client, digest string, l SendLimits) (issued bool, retryAfter time.Duration, err error)
	// Verify consumes the current code of (phone, client) if it equals digest and has not
	// expired. A wrong digest counts against that code; its l.MaxWrong-th wrong guess
	// discards it (CodeDiscarded). With no live code nothing is counted. triesLeft is how
	// many more wrong guesses the code survives after a wrong one counted against it (0
	// when it was discarded, accepted, or none was live). Errors are infrastructure
	// failures only.
	Verify(ctx context.Context, phone, client, digest string, l VerifyLimits) (v Verdict, triesLeft int, err error)
	// ChargeGuess counts one guess (a login code's or a password's) under key as wrong
	// before it is checked, unless l.Max wrong guesses were counted under key within
	// l.Window: then it records nothing and returns OK false and how long until a guess
	// would be allowed. Keys are a client ("ip:<address>") or what the caller limits
	// (a phone, a phone and a client). Errors are infrastructure failures only.
	ChargeGuess(ctx context.Context, key string, l Limit) (GuessCharge, error)
	// RefundGuess takes back the charge id under key (its guess was right, or was not
	// checked). Refunding an unknown or expired charge is not an error.
	RefundGuess(ctx context.Context, key, id string) error
}

// GuessCharge is the outcome of CodeStore.ChargeGuess.
type GuessCharge struct {
	// OK: the guess was counted; ID names the charge for RefundGuess and Left is how many
	// more guesses the window allows after it.
	OK   bool
	ID   string
	Left int
	// RetryAfter is how long until a guess would be allowed, when not OK.
	RetryAfter time.Duration
}

// Rotation is the outcome of presenting a refresh token.
type Rotation int

// Rotations.
const (
	// RefreshUnknown: no live family has this token as current or former token.
	RefreshUnknown Rotation = iota
	// RefreshRotated: the token was current and has been replaced.
	RefreshRotated
	// RefreshReused: the token had already been rotated; the whole family is now revoked.
	RefreshReused
)

// RefreshStore keeps refresh-token families. A family is one login session: a chain of
// refresh tokens, each replacing the one before. Tokens are stored as hashes only. It is
// how the use cases see sessions; New composes it from SessionRecords (the durable copy)
// and SessionCache (see sessionStore).
type RefreshStore interface {
	// Create starts family familyID of userID with tokenHash as its current token, valid
	// for ttl. Errors are infrastructure failures only.
	Create(ctx context.Context, userID int64, familyID, tokenHash string, ttl time.Duration) error
	// Rotate replaces the family's current token oldHash by newHash, valid for ttl from
	// now. Presenting a former token revokes the family (RefreshReused). Errors are
	// infrastructure failures only.
	Rotate(ctx context.Context, userID int64, familyID, oldHash, newHash string, ttl time.Duration) (Rotation, error)
	// Check reports whether the family exists and has not been revoked, together with the
	// user's account state cached next to the families (Known false when none is
	// cached). It is the check every authenticated request makes.
	Check(ctx context.Context, userID int64, familyID string) (SessionCheck, error)
	// SetAccount caches the user's account state for ttl, replacing what was cached:
	// called after the account changed in the database.
	SetAccount(ctx context.Context, userID int64, a AccountState, ttl time.Duration) error
	// RememberAccount caches the user's account state for ttl unless one is cached
	// already (a change written meanwhile by SetAccount wins over a rebuild from an
	// older read of the database).
	RememberAccount(ctx context.Context, userID int64, a AccountState, ttl time.Duration) error
	// Revoke ends one family; revoking an unknown family is not an error.
	Revoke(ctx context.Context, userID int64, familyID string) error
	// RevokeAll ends every family of userID.
	RevokeAll(ctx context.Context, userID int64) error
}

// SessionRecords is the durable store of refresh-token families: the source of truth for
// which sessions are live. Tokens are stored as hashes only; times are the caller's.
type SessionRecords interface {
	// CreateFamily stores family familyID of userID with tokenHash as its current token,
	// valid until expiresAt.
	CreateFamily(ctx context.Context, userID int64, familyID, tokenHash string, expiresAt time.Time) error
	// RotateFamily replaces the current token oldHash of a live family by newHash, valid
	// until expiresAt, and remembers oldHash as spent; compare and replace are atomic, so
	// of two calls presenting the same token one rotates and the other sees it spent.
	// Presenting a spent token of a live family revokes the family (RefreshReused); a
	// family that is unknown, revoked or expired at now is RefreshUnknown.
	RotateFamily(ctx context.Context, userID int64, familyID, oldHash, newHash string, now, expiresAt time.Time) (Rotation, error)
	// Family reports whether the family is live at now (known, not revoked, not
	// expired) and, if so, when it expires.
	Family(ctx context.Context, userID int64, familyID string, now time.Time) (live bool, expiresAt time.Time, err error)
	// RevokeFamily revokes one family at now; an unknown or revoked family is not an
	// error.
	RevokeFamily(ctx context.Context, userID int64, familyID string, now time.Time) error
	// RevokeFamilies revokes every family of userID at now and returns the ids of the
	// user's families not yet expired (those revoked just now and before).
	RevokeFamilies(ctx context.Context, userID int64, now time.Time) ([]string, error)
	// DeleteExpired deletes up to limit families (with their spent tokens) that expired
	// before now, and returns how many it deleted.
	DeleteExpired(ctx context.Context, now time.Time, limit int) (int, error)
}

// CachedFamily is what the session cache knows of a family.
type CachedFamily int

// Cached family states.
const (
	// FamilyUncached: the cache holds nothing; ask SessionRecords.
	FamilyUncached CachedFamily = iota
	// FamilyLive: the family was live when cached.
	FamilyLive
	// FamilyEnded: the family is revoked, expired or unknown.
	FamilyEnded
)

// CachedSession is the outcome of SessionCache.Check.
type CachedSession struct {
	Family CachedFamily
	// Account is the cached account state, valid when Known.
	Account AccountState
	Known   bool
}

// SessionCache caches, in front of SessionRecords and the users table, whether families
// are live and each user's account state. It may lose anything at any time.
type SessionCache interface {
	// Check returns what is cached of the family and of the user's account state: the
	// check every authenticated request makes, one round trip.
	Check(ctx context.Context, userID int64, familyID string) (CachedSession, error)
	// PutLive caches the family as live for ttl, unless it is cached as ended (an end
	// cached meanwhile wins over a rebuild from an older read).
	PutLive(ctx context.Context, userID int64, familyID string, ttl time.Duration) error
	// PutEnded caches the families as ended for ttl, replacing what was cached.
	PutEnded(ctx context.Context, userID int64, ttl time.Duration, familyIDs ...string) error
	// SetAccount caches the user's account state for ttl, replacing what was cached:
	// called after the account changed in the database.
	SetAccount(ctx context.Context, userID int64, a AccountState, ttl time.Duration) error
	// RememberAccount caches the user's account state for ttl unless one is cached
	// already (a change written meanwhile by SetAccount wins over a rebuild from an
	// older read of the database).
	RememberAccount(ctx context.Context, userID int64, a AccountState, ttl time.Duration) error
}

// AccountState is what authorisation needs to know of an account now: its role and
// whether it is blocked. The database holds it; the session store caches it.
type AccountState struct {
	Role    domain.Role
	Blocked bool
}

// SessionCheck is the outcome of RefreshStore.Check.
type SessionCheck struct {
	// Live: the session exists and has not been revoked.
	Live bool
	// Account is the cached account state, valid when Known.
	Account AccountState
	Known   bool
}

// RateLimiter counts events per key in a sliding window.
type RateLimiter interface {
	// Allow records one event for key if fewer than limit were recorded in the last
	// window; otherwise it records nothing and returns ok=false and how long until an
	// event would be allowed. Errors are infrastructure failures only.
	Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error)
}

// VerifiedTokens remembers access tokens that passed every check, until they expire, so
// that a token presented again is not parsed and its signature not checked again. It is
// bounded (it may forget anything at any time) and safe for concurrent use. Whether the
// token's session is still live is checked on every request all the same.
type VerifiedTokens interface {
	// Get returns what Set stored under key, if it is still there.
	Get(key string) (any, bool)
	// Set stores value under key for ttl.
	Set(key string, value any, ttl time.Duration)
}
