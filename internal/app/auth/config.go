package auth

import (
	"errors"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// MinSecretLen is the shortest JWT secret accepted (256 bits, as RFC 7518 asks for HS256).
const MinSecretLen = 32

// Limit allows Max events per sliding Window.
type Limit struct {
	Max    int
	Window time.Duration
}

// Config holds every setting and limit of the login use cases.
type Config struct {
	// DevMode returns the login code in the API response, so demos and load tests can
	// log in without an SMS gateway. Never set it in production.
	DevMode bool
	// AdminPhones are granted the ADMIN role when they log in; any form
	// domain.NormalizePhone accepts.
	AdminPhones []string

	// JWTSecret signs access tokens (HS256); at least MinSecretLen bytes.
	JWTSecret []byte
	// Issuer is the access tokens' iss claim; tokens of another issuer are refused.
	Issuer string
	// AccessTTL is the lifetime of an access token.
	AccessTTL time.Duration
	// RefreshTTL is the lifetime of a refresh token; each rotation starts it anew.
	RefreshTTL time.Duration
	// Leeway tolerates clock skew when checking exp and iat.
	Leeway time.Duration
	// AccountCacheTTL is how long a user's role and blocked state stay cached next to the
	// sessions before the database is read again. Changes made through the use cases
	// replace the cached state at once; the TTL only bounds a missed update.
	AccountCacheTTL time.Duration

	// Send limits login codes per (client IP, phone) pair.
	Send SendLimits
	// Verify limits wrong guesses per code.
	Verify VerifyLimits

	// IPLimits turns on the per-client-IP limits below.
	IPLimits bool
	// SendCodePerIP limits sendLoginCode calls per client IP.
	SendCodePerIP Limit
	// LoginPerIP limits login calls per client IP, and WrongCodesPerIP wrong codes per
	// client IP (right codes do not count). Past either, a login is still checked — a
	// right code is never refused — but a wrong guess discards the code it was meant for
	// and is refused as RATE_LIMITED.
	LoginPerIP      Limit
	WrongCodesPerIP Limit

	// Password configures login with a password (loginWithPassword, setPassword).
	Password PasswordConfig
}

// PasswordConfig holds the settings and limits of password login. Wrong passwords are
// limited as wrong codes are: per (phone, client address), and per client address
// together with wrong codes (Config.WrongCodesPerIP, Config.LoginPerIP); and, since a
// password, unlike a code, lives on, also per phone from every address. Past the
// per-phone limit only password login is refused: the owner still logs in with a code.
type PasswordConfig struct {
	// MinLength and MaxLength bound a password, in characters (Unicode code points).
	// MaxLength also bounds what a guess may cost: longer guesses are refused unhashed.
	MinLength int
	MaxLength int
	// Argon2 is the cost of new hashes; a stored hash keeps the parameters it was made
	// with, and is made again with these at its owner's next password login.
	Argon2 Argon2Params
	// HashConcurrency bounds the hashes computed at once, each Argon2.MemoryKiB of
	// memory and a core; a login waits for its turn (within its request's deadline).
	HashConcurrency int
	// WrongPerClient limits wrong passwords per phone from one client address (IPv6: its
	// /64); past it that address's password logins for the phone are refused, the right
	// password too, until the window lets one more in.
	WrongPerClient Limit
	// WrongPerPhone limits wrong passwords per phone from all addresses together.
	WrongPerPhone Limit
}

// Argon2Params are argon2id's cost parameters (RFC 9106).
type Argon2Params struct {
	// MemoryKiB is the memory one hash takes, in KiB.
	MemoryKiB uint32
	// Iterations is the number of passes over the memory.
	Iterations uint32
	// Parallelism is the number of lanes (threads) of one hash.
	Parallelism uint8
}

// Bounds of PasswordConfig.
const (
	// MinPasswordLength is the least MinLength accepted (NIST SP 800-63B asks for 8).
	MinPasswordLength = 8
	// MaxPasswordLength is the largest MaxLength accepted.
	MaxPasswordLength = 1024
	// maxArgon2MemoryKiB (4 GiB) and maxArgon2Iterations keep a typo, or a damaged
	// stored hash, from taking the machine.
	maxArgon2MemoryKiB  = 4 << 20
	maxArgon2Iterations = 1000
)

// DefaultConfig returns the production limits; the caller supplies JWTSecret.
func DefaultConfig() Config {
	return Config{
		Issuer:     "dealspot",
		AccessTTL:  30 * time.Minute,
		RefreshTTL: 30 * 24 * time.Hour,
		Leeway:     30 * time.Second,
		// AccountCacheTTL bounds how long a missed update could linger.
		AccountCacheTTL: 10 * time.Minute,
		Send: SendLimits{
			CodeTTL:   2 * time.Minute,
			Interval:  time.Minute,
			Window:    time.Hour,
			WindowMax: 5,
			Lock:      time.Hour,
			Day:       24 * time.Hour,
			DayMax:    10,
		},
		Verify:          VerifyLimits{MaxWrong: 5},
		IPLimits:        true,
		SendCodePerIP:   Limit{Max: 30, Window: 10 * time.Minute},
		LoginPerIP:      Limit{Max: 60, Window: 10 * time.Minute},
		WrongCodesPerIP: Limit{Max: 30, Window: time.Hour},
		Password: PasswordConfig{
			MinLength: MinPasswordLength,
			MaxLength: 128,
			// OWASP's first argon2id setting (19 MiB, 2 passes, 1 lane): about 30 ms of
			// one core; HashConcurrency bounds the memory at 4 × 19 MiB.
			Argon2:          Argon2Params{MemoryKiB: 19456, Iterations: 2, Parallelism: 1},
			HashConcurrency: 4,
			WrongPerClient:  Limit{Max: 5, Window: time.Hour},
			WrongPerPhone:   Limit{Max: 20, Window: time.Hour},
		},
	}
}

// ValidPhone reports whether phone is a mainland China mobile number in any form
// domain.NormalizePhone accepts.
func ValidPhone(phone string) bool {
	_, ok := domain.NormalizePhone(phone)
	return ok
}

// normalizePhone is phone in its stored form (domain.NormalizePhone), or BAD_USER_INPUT.
// Every use case that takes a phone starts with it, so that the accounts, the codes and
// every limit know one phone by one key however it was typed.
func normalizePhone(phone string) (string, error) {
	p, ok := domain.NormalizePhone(phone)
	if !ok {
		return "", badInput("phone must be a mainland China mobile number (11 digits, optionally +86, spaces or dashes)")
	}
	return p, nil
}

// Validate reports the first setting that cannot work.
func (c Config) Validate() error {
	var errs []error
	if len(c.JWTSecret) < MinSecretLen {
		errs = append(errs, fmt.Errorf("JWT secret must be at least %d bytes", MinSecretLen))
	}
	positive := []struct {
		name string
		d    time.Duration
	}{
		{"access token TTL", c.AccessTTL},
		{"refresh token TTL", c.RefreshTTL},
		{"account cache TTL", c.AccountCacheTTL},
		{"code TTL", c.Send.CodeTTL},
		{"code send window", c.Send.Window},
		{"code send lock", c.Send.Lock},
		{"code send day", c.Send.Day},
	}
	for _, p := range positive {
		if p.d <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive", p.name))
		}
	}
	if c.Leeway < 0 || c.Send.Interval < 0 {
		errs = append(errs, errors.New("leeway and code send interval must not be negative"))
	}
	if c.Send.WindowMax < 1 || c.Send.DayMax < 1 || c.Verify.MaxWrong < 1 {
		errs = append(errs, errors.New("code send and wrong code limits must be at least 1"))
	}
	// A window that WindowMax codes at the least interval cannot fill would never lock.
	if c.Send.Window > 0 && time.Duration(c.Send.WindowMax)*c.Send.Interval > c.Send.Window {
		errs = append(errs, fmt.Errorf("code send window (%s) must be at least %d × the code interval (%s), or its limit is never reached",
			c.Send.Window, c.Send.WindowMax, c.Send.Interval))
	}
	if c.IPLimits {
		for _, l := range []Limit{c.SendCodePerIP, c.LoginPerIP, c.WrongCodesPerIP} {
			if l.Max < 1 || l.Window <= 0 {
				errs = append(errs, errors.New("per-IP limits need a positive maximum and window"))
				break
			}
		}
	}
	errs = append(errs, c.Password.validate()...)
	for _, p := range c.AdminPhones {
		if !ValidPhone(p) {
			errs = append(errs, fmt.Errorf("admin phone %q is not a mobile number", p))
		}
	}
	return errors.Join(errs...)
}

func (p PasswordConfig) validate() []error {
	var errs []error
	if p.MinLength < MinPasswordLength || p.MaxLength < p.MinLength || p.MaxLength > MaxPasswordLength {
		errs = append(errs, fmt.Errorf("password length limits must satisfy %d ≤ min (%d) ≤ max (%d) ≤ %d",
			MinPasswordLength, p.MinLength, p.MaxLength, MaxPasswordLength))
	}
	a := p.Argon2
	if a.Iterations < 1 || a.Iterations > maxArgon2Iterations || a.Parallelism < 1 ||
		a.MemoryKiB < 8*uint32(a.Parallelism) || a.MemoryKiB > maxArgon2MemoryKiB {
		errs = append(errs, fmt.Errorf("argon2 parameters need 1 to %d iterations, at least 1 lane, and 8 KiB per lane to %d KiB: got %+v",
			maxArgon2Iterations, maxArgon2MemoryKiB, a))
	}
	if p.HashConcurrency < 1 {
		errs = append(errs, errors.New("password hash concurrency must be at least 1"))
	}
	for _, l := range []Limit{p.WrongPerClient, p.WrongPerPhone} {
		if l.Max < 1 || l.Window <= 0 {
			errs = append(errs, errors.New("wrong password limits need a positive maximum and window"))
			break
		}
	}
	return errs
}
