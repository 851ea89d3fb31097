package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"hash"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// hs256Header is the header segment of every access token this service signs
// ({"alg":"HS256","typ":"JWT"}, as golang-jwt writes it).
const hs256Header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"

// quickVerifier checks the access tokens this service signs without golang-jwt's
// general parser: every claim carries a token, most of them seen for the first time, and
// the general parser (a map for the header, reflection-driven JSON for the claims) was a
// tenth of a claim's server CPU. It knows one shape only — the exact header above, a
// flat claims object of strings and integers without escapes — and says "unsure" for
// anything else, which parseAccess then hands to the general parser: so it can only
// accept what the general parser accepts (a differential test holds it to that) and
// never decides a refusal.
type quickVerifier struct {
	issuer string
	leeway time.Duration
	pool   sync.Pool // *quickScratch
}

// quickScratch is one verification's buffers, reused.
type quickScratch struct {
	mac     hash.Hash
	sum     [sha256.Size]byte
	sig     [sha256.Size]byte
	payload [512]byte
}

func newQuickVerifier(secret []byte, issuer string, leeway time.Duration) *quickVerifier {
	key := append([]byte(nil), secret...)
	v := &quickVerifier{issuer: issuer, leeway: leeway}
	v.pool.New = func() any { return &quickScratch{mac: hmac.New(sha256.New, key)} }
	return v
}

// quickClaims are the claims parseAccess needs.
type quickClaims struct {
	role      string
	sid       string
	sub       string
	iss       string
	hasIss    bool
	exp       int64
	hasExp    bool
	iat, nbf  int64
	hasIat    bool
	hasNbf    bool
	unhandled bool
}

// verify checks token at now. ok is false when the token is not of the one shape it
// knows or does not pass: the caller then asks the general parser, which decides.
func (v *quickVerifier) verify(token string, now time.Time) (p Principal, exp time.Time, ok bool) {
	head, rest, found := strings.Cut(token, ".")
	if !found || head != hs256Header {
		return Principal{}, time.Time{}, false
	}
	body, sig, found := strings.Cut(rest, ".")
	if !found || len(sig) != base64.RawURLEncoding.EncodedLen(sha256.Size) ||
		len(body) > base64.RawURLEncoding.EncodedLen(len(quickScratch{}.payload)) {
		return Principal{}, time.Time{}, false
	}
	s := v.pool.Get().(*quickScratch)
	defer v.pool.Put(s)
	if n, err := base64.RawURLEncoding.Decode(s.sig[:], []byte(sig)); err != nil || n != sha256.Size {
		return Principal{}, time.Time{}, false
	}
	s.mac.Reset()
	_, _ = s.mac.Write([]byte(token[:len(head)+1+len(body)]))
	if !hmac.Equal(s.mac.Sum(s.sum[:0]), s.sig[:]) {
		return Principal{}, time.Time{}, false
	}
	n, err := base64.RawURLEncoding.Decode(s.payload[:], []byte(body))
	if err != nil {
		return Principal{}, time.Time{}, false
	}
	c, ok := parseQuickClaims(s.payload[:n])
	if !ok || c.unhandled {
		return Principal{}, time.Time{}, false
	}
	// The general parser's rules, as configured in New: issuer required and equal,
	// expiry required, issued-at and not-before checked when present, all with leeway.
	if !c.hasIss || c.iss != v.issuer || !c.hasExp {
		return Principal{}, time.Time{}, false
	}
	exp = time.Unix(c.exp, 0)
	if !now.Before(exp.Add(v.leeway)) {
		return Principal{}, time.Time{}, false
	}
	if c.hasIat && now.Before(time.Unix(c.iat, 0).Add(-v.leeway)) {
		return Principal{}, time.Time{}, false
	}
	if c.hasNbf && now.Before(time.Unix(c.nbf, 0).Add(-v.leeway)) {
		return Principal{}, time.Time{}, false
	}
	id, err := strconv.ParseInt(c.sub, 10, 64)
	role := domain.Role(c.role)
	if err != nil || id <= 0 || !role.Valid() || c.sid == "" {
		return Principal{}, time.Time{}, false
	}
	return Principal{UserID: id, Role: role, FamilyID: c.sid, ExpiresAt: exp.Add(v.leeway)}, exp, true
}

// parseQuickClaims reads a flat JSON object whose values are strings without escapes or
// non-negative integers. ok is false for anything else (the general parser decides
// those); a later duplicate key wins, as with encoding/json.
func parseQuickClaims(b []byte) (c quickClaims, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return c, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return c, skipSpace(b, i+1) == len(b)
	}
	for {
		var key []byte
		if key, i, ok = quickString(b, i); !ok {
			return c, false
		}
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return c, false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return c, false
		}
		if b[i] == '"' {
			var val []byte
			if val, i, ok = quickString(b, i); !ok {
				return c, false
			}
			switch string(key) {
			case "role":
				c.role = string(val)
			case "sid":
				c.sid = string(val)
			case "sub":
				c.sub = string(val)
			case "iss":
				c.iss, c.hasIss = string(val), true
			case "exp", "iat", "nbf":
				return c, false
			case "aud", "jti":
			default:
				// Claims this service never writes: leave them to the general parser.
				c.unhandled = true
			}
		} else {
			start := i
			for i < len(b) && b[i] >= '0' && b[i] <= '9' {
				i++
			}
			if i == start || i-start > 12 || (b[start] == '0' && i-start > 1) {
				return c, false
			}
			num, err := strconv.ParseInt(string(b[start:i]), 10, 64)
			if err != nil {
				return c, false
			}
			switch string(key) {
			case "exp":
				c.exp, c.hasExp = num, true
			case "iat":
				c.iat, c.hasIat = num, true
			case "nbf":
				c.nbf, c.hasNbf = num, true
			default:
				return c, false
			}
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return c, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return c, skipSpace(b, i+1) == len(b)
		default:
			return c, false
		}
	}
}

// quickString reads a JSON string at b[i] that holds no escape and no control byte.
func quickString(b []byte, i int) (s []byte, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, i, false
		}
	}
	return nil, i, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
