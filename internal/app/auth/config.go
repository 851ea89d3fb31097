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
}

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
	for _, p := range c.AdminPhones {
		if !ValidPhone(p) {
			errs = append(errs, fmt.Errorf("admin phone %q is not a mobile number", p))
		}
	}
	return errors.Join(errs...)
}
