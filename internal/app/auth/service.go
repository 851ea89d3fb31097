// Package auth holds the login use cases: login codes sent to a phone, access tokens
// (HS256 JWTs) and refresh-token sessions, roles, and the limits that keep guessing and
// flooding out.
//
// A session is a refresh-token family. Every access token names its family (claim sid),
// and Authenticate checks that the family is still live, so logging out, presenting a
// stolen (already rotated) refresh token, or ending a blocked user's sessions stops the
// matching access tokens at once, not only when they expire. That check is one cheap
// cache look-up per authenticated request. The same look-up returns the account's
// current role and blocked state, cached in the session store next to the families and
// rebuilt from the database when missing, so a role change or a block reaches every
// existing token at once; the role claim in a token is informational only.
//
// Sessions are kept in the database (SessionRecords); Redis (SessionCache) caches them
// and the account states, and may lose them at any time: a miss is answered from the
// database and cached again (see sessionStore).
package auth

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dealspot/dealspot/internal/domain"
)

// Deps are the adapters the use cases need.
type Deps struct {
	Users  Users
	Sender CodeSender
	Codes  CodeStore
	// SessionRecords keeps the sessions (the source of truth); SessionCache answers the
	// session check of every request in front of it.
	SessionRecords SessionRecords
	SessionCache   SessionCache
	// Limiter enforces the per-IP limits; it may be nil when Config.IPLimits is off.
	Limiter RateLimiter
	// Tokens remembers verified access tokens; nil checks every token in full.
	Tokens VerifiedTokens
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service gathers the login use cases.
type Service struct {
	SendLoginCode *SendLoginCode
	Login         *Login
	// LoginWithPassword and SetPassword are login by password, beside codes.
	LoginWithPassword *LoginWithPassword
	SetPassword       *SetPassword
	Refresh           *Refresh
	Logout            *Logout
	Authenticate      *Authenticate
	CurrentUser       *CurrentUser
	GrantAdmin        *GrantAdmin
	EndSessions       *EndSessions
	BlockUser         *BlockUser
	// SetUserBlocked and SetUserRole are the administrators' versions, by user id.
	SetUserBlocked *SetUserBlocked
	SetUserRole    *SetUserRole
	// MerchantRoles makes a shop's new owner a MERCHANT, and its previous one a USER
	// when it was their last.
	MerchantRoles *MerchantRoles
}

// New validates cfg and builds the use cases; it refuses missing dependencies.
func New(cfg Config, d Deps) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("auth config: %w", err)
	}
	switch {
	case d.Users == nil:
		return nil, errors.New("auth: nil Users")
	case d.Sender == nil:
		return nil, errors.New("auth: nil CodeSender")
	case d.Codes == nil:
		return nil, errors.New("auth: nil CodeStore")
	case d.SessionRecords == nil:
		return nil, errors.New("auth: nil SessionRecords")
	case d.SessionCache == nil:
		return nil, errors.New("auth: nil SessionCache")
	case d.Limiter == nil && cfg.IPLimits:
		return nil, errors.New("auth: per-IP limits are on but the RateLimiter is nil")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	c := &core{
		cfg:       cfg,
		users:     d.Users,
		sender:    d.Sender,
		codes:     d.Codes,
		sessions:  newSessionStore(d.SessionRecords, d.SessionCache, d.Now, cfg.AccessTTL+cfg.Leeway),
		limiter:   d.Limiter,
		tokens:    d.Tokens,
		now:       d.Now,
		admins:    make(map[string]bool, len(cfg.AdminPhones)),
		secret:    append([]byte(nil), cfg.JWTSecret...),
		codeKey:   derivedKey(cfg.JWTSecret, "dealspot login code digest"),
		passwords: newPasswordHasher(cfg.Password),
	}
	for _, p := range cfg.AdminPhones {
		p, _ = domain.NormalizePhone(p) // Validate accepted it
		c.admins[p] = true
	}
	c.parser = jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithLeeway(cfg.Leeway),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithIssuer(cfg.Issuer),
		jwt.WithTimeFunc(d.Now),
	)
	c.quick = newQuickVerifier(c.secret, cfg.Issuer, cfg.Leeway)
	return &Service{
		SendLoginCode:     &SendLoginCode{c: c},
		Login:             &Login{c: c},
		LoginWithPassword: &LoginWithPassword{c: c},
		SetPassword:       &SetPassword{c: c},
		Refresh:           &Refresh{c: c},
		Logout:            &Logout{c: c},
		Authenticate:      &Authenticate{c: c},
		CurrentUser:       &CurrentUser{c: c},
		GrantAdmin:        &GrantAdmin{c: c},
		EndSessions:       &EndSessions{c: c},
		BlockUser:         &BlockUser{c: c},
		SetUserBlocked:    &SetUserBlocked{c: c},
		SetUserRole:       &SetUserRole{c: c},
		MerchantRoles:     &MerchantRoles{c: c},
	}, nil
}

// core is what the use cases share.
type core struct {
	cfg      Config
	users    Users
	sender   CodeSender
	codes    CodeStore
	sessions RefreshStore
	limiter  RateLimiter
	tokens   VerifiedTokens
	now      func() time.Time
	admins   map[string]bool
	secret   []byte
	codeKey  []byte
	// passwords hashes and checks passwords.
	passwords *passwordHasher
	parser    *jwt.Parser
	// quick verifies the tokens this service signs before parser is asked.
	quick *quickVerifier
}
