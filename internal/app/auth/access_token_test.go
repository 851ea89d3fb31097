package auth

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dealspot/dealspot/internal/domain"
)

var quickSecret = []byte("0123456789abcdef0123456789abcdef")

// quickCore is a core as New builds it, on a fixed clock.
func quickCore(now time.Time) *core {
	c := &core{cfg: Config{Issuer: "dealspot", Leeway: 30 * time.Second}, secret: quickSecret, now: func() time.Time { return now }}
	c.parser = jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithLeeway(c.cfg.Leeway),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithIssuer(c.cfg.Issuer),
		jwt.WithTimeFunc(c.now),
	)
	c.quick = newQuickVerifier(c.secret, c.cfg.Issuer, c.cfg.Leeway)
	return c
}

// generalParse is parseAccess without the quick path.
func generalParse(c *core, token string) (Principal, time.Time, error) {
	q := c.quick
	c.quick = nil
	defer func() { c.quick = q }()
	return c.parseAccess(token)
}

// agree fails unless the quick path either declines token or answers exactly what the
// general parser answers; it reports whether the quick path decided.
func agree(t *testing.T, c *core, token string) bool {
	t.Helper()
	p, exp, ok := c.quick.verify(token, c.now())
	gp, gexp, gerr := generalParse(c, token)
	if !ok {
		return false
	}
	if gerr != nil {
		t.Fatalf("quick path accepted %q, the general parser refused it: %v", token, gerr)
	}
	if p != gp || !exp.Equal(gexp) {
		t.Fatalf("token %q: quick (%+v, %v), general (%+v, %v)", token, p, exp, gp, gexp)
	}
	return true
}

func TestQuickAccessTokenCheckAgreesWithTheGeneralParser(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	c := quickCore(now)

	// The tokens this service signs take the quick path.
	u := domain.User{ID: 42, Role: domain.RoleMerchant}
	s, err := c.session(u, "0123456789abcdef0123456789abcdef", "refresh")
	if err != nil {
		t.Fatal(err)
	}
	if !agree(t, c, s.AccessToken) {
		t.Fatal("a token this service signed did not take the quick path")
	}
	if _, _, ok := c.quick.verify(s.AccessToken, now.Add(31*time.Minute)); ok {
		t.Fatal("quick path accepted a token past its expiry and leeway")
	}

	base := func() jwt.MapClaims {
		return jwt.MapClaims{"iss": "dealspot", "sub": "7", "role": "USER", "sid": "fam", "iat": now.Unix(), "exp": now.Add(time.Minute).Unix(), "jti": "x"}
	}
	sign := func(m jwt.SigningMethod, key any, claims jwt.MapClaims) string {
		tok, err := jwt.NewWithClaims(m, claims).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	with := func(change func(jwt.MapClaims)) string {
		m := base()
		change(m)
		return sign(jwt.SigningMethodHS256, quickSecret, m)
	}
	raw := func(payload string) string {
		h := hs256Header + "." + base64.RawURLEncoding.EncodeToString([]byte(payload))
		sig, err := jwt.SigningMethodHS256.Sign(h, quickSecret)
		if err != nil {
			t.Fatal(err)
		}
		return h + "." + base64.RawURLEncoding.EncodeToString(sig)
	}
	good := with(func(jwt.MapClaims) {})
	parts := strings.Split(good, ".")
	exp := now.Add(time.Minute).Unix()
	cases := map[string]string{
		"genuine":                 good,
		"expired within leeway":   with(func(m jwt.MapClaims) { m["exp"] = now.Add(-29 * time.Second).Unix() }),
		"expired beyond leeway":   with(func(m jwt.MapClaims) { m["exp"] = now.Add(-31 * time.Second).Unix() }),
		"expires at the leeway":   with(func(m jwt.MapClaims) { m["exp"] = now.Add(-30 * time.Second).Unix() }),
		"issued in the future":    with(func(m jwt.MapClaims) { m["iat"] = now.Add(time.Minute).Unix() }),
		"issued within leeway":    with(func(m jwt.MapClaims) { m["iat"] = now.Add(29 * time.Second).Unix() }),
		"not yet valid":           with(func(m jwt.MapClaims) { m["nbf"] = now.Add(time.Minute).Unix() }),
		"valid from the past":     with(func(m jwt.MapClaims) { m["nbf"] = now.Add(-time.Minute).Unix() }),
		"no iat":                  with(func(m jwt.MapClaims) { delete(m, "iat") }),
		"no exp":                  with(func(m jwt.MapClaims) { delete(m, "exp") }),
		"no iss":                  with(func(m jwt.MapClaims) { delete(m, "iss") }),
		"another issuer":          with(func(m jwt.MapClaims) { m["iss"] = "other" }),
		"no sub":                  with(func(m jwt.MapClaims) { delete(m, "sub") }),
		"sub not a number":        with(func(m jwt.MapClaims) { m["sub"] = "abc" }),
		"sub zero":                with(func(m jwt.MapClaims) { m["sub"] = "0" }),
		"sub negative":            with(func(m jwt.MapClaims) { m["sub"] = "-3" }),
		"unknown role":            with(func(m jwt.MapClaims) { m["role"] = "ROOT" }),
		"no sid":                  with(func(m jwt.MapClaims) { delete(m, "sid") }),
		"audience string":         with(func(m jwt.MapClaims) { m["aud"] = "someone" }),
		"audience list":           with(func(m jwt.MapClaims) { m["aud"] = []string{"a", "b"} }),
		"float exp":               with(func(m jwt.MapClaims) { m["exp"] = float64(exp) + 0.5 }),
		"string exp":              with(func(m jwt.MapClaims) { m["exp"] = "123" }),
		"numeric role":            with(func(m jwt.MapClaims) { m["role"] = 1 }),
		"extra claim":             with(func(m jwt.MapClaims) { m["admin"] = true }),
		"escaped sid":             with(func(m jwt.MapClaims) { m["sid"] = "a\"b" }),
		"unicode sid":             with(func(m jwt.MapClaims) { m["sid"] = "fämily" }),
		"wrong secret":            sign(jwt.SigningMethodHS256, []byte("another-secret-another-secret-!!"), base()),
		"HS512":                   sign(jwt.SigningMethodHS512, quickSecret, base()),
		"alg none":                sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, base()),
		"tampered payload":        parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"1","role":"ADMIN","iss":"dealspot","sid":"f","exp":9999999999}`)) + "." + parts[2],
		"signature cut":           parts[0] + "." + parts[1] + "." + parts[2][:42],
		"signature with a dot":    parts[0] + "." + parts[1] + "." + parts[2][:42] + ".",
		"four segments":           good + ".x",
		"padded payload":          parts[0] + "." + parts[1] + "==" + "." + parts[2],
		"duplicate sub":           raw(`{"iss":"dealspot","sub":"7","sub":"8","role":"USER","sid":"f","exp":` + itoa64(exp) + `}`),
		"spaces":                  raw(` { "iss" : "dealspot" , "sub":"7","role":"USER","sid":"f","exp": ` + itoa64(exp) + ` } `),
		"leading zero":            raw(`{"iss":"dealspot","sub":"7","role":"USER","sid":"f","exp":0` + itoa64(exp) + `}`),
		"trailing garbage":        raw(`{"iss":"dealspot","sub":"7","role":"USER","sid":"f","exp":` + itoa64(exp) + `}x`),
		"not an object":           raw(`["dealspot"]`),
		"empty object":            raw(`{}`),
		"null sid":                raw(`{"iss":"dealspot","sub":"7","role":"USER","sid":null,"exp":` + itoa64(exp) + `}`),
		"huge exp":                raw(`{"iss":"dealspot","sub":"7","role":"USER","sid":"f","exp":99999999999999999999}`),
		"exponent exp":            raw(`{"iss":"dealspot","sub":"7","role":"USER","sid":"f","exp":1e12}`),
		"empty":                   "",
		"header only":             hs256Header,
		"two segments":            parts[0] + "." + parts[1],
		"another header encoding": base64.RawURLEncoding.EncodeToString([]byte(`{"typ":"JWT","alg":"HS256"}`)) + "." + parts[1] + "." + parts[2],
	}
	decided := 0
	for name, tok := range cases {
		t.Run(name, func(t *testing.T) {
			if agree(t, c, tok) {
				decided++
			}
		})
	}
	// The quick path must decide the shapes this service writes, or it saves nothing.
	for _, name := range []string{"genuine", "expired within leeway", "no iat", "valid from the past", "audience string", "duplicate sub", "spaces"} {
		if _, _, ok := c.quick.verify(cases[name], now); !ok {
			t.Errorf("%s: the quick path declined a token the general parser accepts", name)
		}
	}
	if decided == 0 {
		t.Fatal("the quick path decided nothing")
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// FuzzQuickAccessTokenCheck holds the quick path to the general parser on any payload
// signed with the right key.
func FuzzQuickAccessTokenCheck(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	for _, s := range []string{
		`{"iss":"dealspot","sub":"7","role":"USER","sid":"f","exp":1800000060,"iat":1800000000}`,
		`{"iss":"dealspot","sub":"7","role":"ADMIN","sid":"f","exp":1800000060,"nbf":1800000100}`,
		`{"exp":1800000060,"iss":"dealspot","aud":"x","sub":"9","role":"USER","sid":"q"}`,
	} {
		f.Add([]byte(s))
	}
	c := quickCore(now)
	f.Fuzz(func(t *testing.T, payload []byte) {
		h := hs256Header + "." + base64.RawURLEncoding.EncodeToString(payload)
		sig, err := jwt.SigningMethodHS256.Sign(h, quickSecret)
		if err != nil {
			t.Fatal(err)
		}
		agree(t, c, h+"."+base64.RawURLEncoding.EncodeToString(sig))
	})
}

func BenchmarkAccessTokenCheck(b *testing.B) {
	now := time.Unix(1_800_000_000, 0)
	c := quickCore(now)
	s, err := c.session(domain.User{ID: 42, Role: domain.RoleUser}, "0123456789abcdef0123456789abcdef", "refresh")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("quick", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := c.parseAccess(s.AccessToken); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("general", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := generalParse(c, s.AccessToken); err != nil {
				b.Fatal(err)
			}
		}
	})
}
