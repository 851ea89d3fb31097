package auth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dealspot/dealspot/internal/domain"
)

func TestRefreshAndLogout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	authenticates := func(t *testing.T, e *env, access string, want bool) {
		t.Helper()
		_, err := e.svc.Authenticate.Handle(ctx, access)
		if want && err != nil {
			t.Fatalf("Authenticate: %v", err)
		}
		if !want {
			wantCode(t, err, domain.CodeUnauthenticated)
		}
	}
	refreshFails := func(t *testing.T, e *env, token string) {
		t.Helper()
		_, err := e.svc.Refresh.Handle(ctx, token)
		wantCode(t, err, domain.CodeUnauthenticated)
	}

	t.Run("refresh rotates the tokens", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		first := e.login(t, randomPhone())
		e.clock.Advance(10 * time.Minute)
		second, err := e.svc.Refresh.Handle(ctx, first.RefreshToken)
		if err != nil {
			t.Fatal(err)
		}
		if second.RefreshToken == first.RefreshToken || second.AccessToken == first.AccessToken ||
			second.User.ID != first.User.ID || !second.ExpiresAt.Equal(e.at(30*time.Minute)) {
			t.Fatalf("refreshed session %+v", second)
		}
		p1, _ := e.svc.Authenticate.Handle(ctx, first.AccessToken)
		p2, err := e.svc.Authenticate.Handle(ctx, second.AccessToken)
		if err != nil || p2.FamilyID != p1.FamilyID || p2.UserID != first.User.ID {
			t.Fatalf("refreshed principal %+v vs %+v: %v", p2, p1, err)
		}
		third, err := e.svc.Refresh.Handle(ctx, second.RefreshToken)
		if err != nil || third.RefreshToken == second.RefreshToken {
			t.Fatalf("second refresh: %+v, %v", third, err)
		}
	})
	t.Run("reuse of a rotated token ends the session", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		first := e.login(t, randomPhone())
		second, err := e.svc.Refresh.Handle(ctx, first.RefreshToken)
		if err != nil {
			t.Fatal(err)
		}
		refreshFails(t, e, first.RefreshToken)  // the thief, or the victim, replays
		refreshFails(t, e, second.RefreshToken) // the newer token stops working too
		authenticates(t, e, second.AccessToken, false)
		authenticates(t, e, first.AccessToken, false)
	})
	t.Run("logout ends only that session", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		phoneSession := e.login(t, phone)
		e.clock.Advance(time.Minute)
		laptopSession := e.login(t, phone)
		p, err := e.svc.Authenticate.Handle(ctx, phoneSession.AccessToken)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.svc.Logout.Handle(ctx, p); err != nil {
			t.Fatal(err)
		}
		refreshFails(t, e, phoneSession.RefreshToken)
		authenticates(t, e, phoneSession.AccessToken, false)
		authenticates(t, e, laptopSession.AccessToken, true)
		if _, err := e.svc.Refresh.Handle(ctx, laptopSession.RefreshToken); err != nil {
			t.Fatalf("other session: %v", err)
		}
	})
	t.Run("logout needs a caller", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		wantCode(t, e.svc.Logout.Handle(ctx, auth0()), domain.CodeUnauthenticated)
	})
	t.Run("ending a blocked user's sessions stops all tokens", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		phone := randomPhone()
		a := e.login(t, phone)
		e.clock.Advance(time.Minute)
		b := e.login(t, phone)
		e.users.Block(a.User.ID)
		if err := e.svc.EndSessions.Handle(ctx, a.User.ID); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{a.AccessToken, b.AccessToken} {
			authenticates(t, e, s, false)
		}
		for _, s := range []string{a.RefreshToken, b.RefreshToken} {
			refreshFails(t, e, s)
		}
	})
	t.Run("a blocked user cannot refresh", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, randomPhone())
		p := principalOf(t, e, s)
		e.users.Block(s.User.ID)
		refreshFails(t, e, s.RefreshToken)
		authenticates(t, e, s.AccessToken, false) // refusing the refresh ended the session
		_, err := e.svc.CurrentUser.Handle(ctx, p)
		wantCode(t, err, domain.CodeUnauthenticated)
	})
	t.Run("refresh tokens expire", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, randomPhone())
		e.clock.Advance(e.cfg.RefreshTTL)
		refreshFails(t, e, s.RefreshToken)
	})
	t.Run("malformed refresh tokens", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, randomPhone())
		parts := strings.Split(s.RefreshToken, ".")
		for _, token := range []string{
			"", "x", "1.2.3", s.AccessToken, strings.Repeat("a", 5000),
			"0." + parts[1] + "." + parts[2],
			"-1." + parts[1] + "." + parts[2],
			"999999." + parts[1] + "." + parts[2],
			parts[0] + "." + strings.Repeat("z", 32) + "." + parts[2],
			parts[0] + "." + parts[1] + "." + strings.Repeat("A", 43),
			s.RefreshToken + ".",
		} {
			refreshFails(t, e, token)
		}
		// None of these was a spent token, so the session lives on.
		if _, err := e.svc.Refresh.Handle(ctx, s.RefreshToken); err != nil {
			t.Fatalf("genuine token after forgeries: %v", err)
		}
	})
	t.Run("access tokens expire after their TTL and leeway", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, randomPhone())
		e.clock.Advance(30*time.Minute + 29*time.Second)
		authenticates(t, e, s.AccessToken, true)
		e.clock.Advance(2 * time.Second)
		authenticates(t, e, s.AccessToken, false)
	})
}

func TestAuthenticateRejectsForgedTokens(t *testing.T) {
	t.Parallel()
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e := newEnv(t, nil)
	s := e.login(t, randomPhone())
	p := principalOf(t, e, s)
	now := e.clock.Now()

	// claims returns genuine claims of the session with changes applied.
	claims := func(change func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{
			"iss":  "dealspot",
			"sub":  itoa(p.UserID),
			"role": string(p.Role),
			"sid":  p.FamilyID,
			"iat":  now.Unix(),
			"exp":  now.Add(10 * time.Minute).Unix(),
			"jti":  "test",
		}
		if change != nil {
			change(c)
		}
		return c
	}
	sign := func(m jwt.SigningMethod, key any, c jwt.MapClaims) string {
		token, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	hs := func(change func(jwt.MapClaims)) string {
		return sign(jwt.SigningMethodHS256, testSecret, claims(change))
	}
	genuine := hs(nil)

	for _, ok := range []string{genuine, "Bearer " + genuine, "bearer " + genuine, "  Bearer  " + genuine + " "} {
		got, err := e.svc.Authenticate.Handle(ctx, ok)
		if err != nil || got.UserID != p.UserID || got.Role != p.Role || got.FamilyID != p.FamilyID {
			t.Fatalf("genuine token %q: (%+v, %v)", ok, got, err)
		}
	}

	parts := strings.Split(genuine, ".")
	forged := []struct{ name, token string }{
		{"empty", ""},
		{"bearer only", "Bearer "},
		{"not a JWT", "hello"},
		{"three dots", "a.b.c"},
		{"empty segments", ".."},
		{"two segments", parts[0] + "." + parts[1]},
		{"oversized", strings.Repeat("a", 5000)},
		{"tampered payload", parts[0] + "." + jwtSegment(`{"sub":"1","role":"ADMIN"}`) + "." + parts[2]},
		{"signature of another token", parts[0] + "." + parts[1] + "." + strings.Split(hs(func(c jwt.MapClaims) { c["jti"] = "x" }), ".")[2]},
		{"wrong secret", sign(jwt.SigningMethodHS256, []byte("another-secret-another-secret-!!"), claims(nil))},
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(nil))},
		{"RS256", sign(jwt.SigningMethodRS256, rsaKey, claims(nil))},
		{"HS512 with the right secret", sign(jwt.SigningMethodHS512, testSecret, claims(nil))},
		{"expired beyond the leeway", hs(func(c jwt.MapClaims) { c["exp"] = now.Add(-31 * time.Second).Unix() })},
		{"issued in the future", hs(func(c jwt.MapClaims) { c["iat"] = now.Add(time.Minute).Unix() })},
		{"no exp", hs(func(c jwt.MapClaims) { delete(c, "exp") })},
		{"no sub", hs(func(c jwt.MapClaims) { delete(c, "sub") })},
		{"non-numeric sub", hs(func(c jwt.MapClaims) { c["sub"] = "admin" })},
		{"numeric sub of JSON type number", hs(func(c jwt.MapClaims) { c["sub"] = p.UserID })},
		{"zero sub", hs(func(c jwt.MapClaims) { c["sub"] = "0" })},
		{"negative sub", hs(func(c jwt.MapClaims) { c["sub"] = "-1" })},
		{"another user's id", hs(func(c jwt.MapClaims) { c["sub"] = itoa(p.UserID + 1) })},
		{"wrong issuer", hs(func(c jwt.MapClaims) { c["iss"] = "elsewhere" })},
		{"no session", hs(func(c jwt.MapClaims) { delete(c, "sid") })},
		{"unknown session", hs(func(c jwt.MapClaims) { c["sid"] = "00000000000000000000000000000000" })},
		{"unknown role", hs(func(c jwt.MapClaims) { c["role"] = "ROOT" })},
		{"not valid yet", hs(func(c jwt.MapClaims) { c["nbf"] = now.Add(time.Minute).Unix() })},
		{"four segments", genuine + ".x"},
		{"signature padded", genuine + "="},
		{"signature too long", genuine + "AAAA"},
		{"signature cut short", genuine[:len(genuine)-4]},
	}
	for _, tc := range forged {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.svc.Authenticate.Handle(ctx, tc.token)
			wantCode(t, err, domain.CodeUnauthenticated)
			if got != auth0() {
				t.Fatalf("principal %+v returned with the error", got)
			}
		})
	}
	if _, err := e.svc.Authenticate.Handle(ctx, "Bearer "+hs(func(c jwt.MapClaims) { c["exp"] = now.Add(-29 * time.Second).Unix() })); err != nil {
		t.Fatalf("token expired within the leeway: %v", err)
	}
}

func TestVerifiedTokensAreRememberedButSessionsCheckedEveryTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, nil)
	s := e.login(t, randomPhone())
	for i := range 3 {
		if _, err := e.svc.Authenticate.Handle(ctx, s.AccessToken); err != nil {
			t.Fatalf("Authenticate #%d: %v", i+1, err)
		}
	}
	hits, ttls := e.tokens.Stats()
	// Remembered once, until its expiry plus the leeway; found twice.
	if want := e.cfg.AccessTTL + e.cfg.Leeway; len(ttls) != 1 || ttls[0] != want || hits != 2 {
		t.Fatalf("token cache: %d sets with TTLs %v (want one of %v), %d hits (want 2)", len(ttls), ttls, want, hits)
	}
	// The same claims with another signature are not the remembered token.
	head, _, _ := strings.Cut(s.AccessToken, ".")
	payload := strings.Split(s.AccessToken, ".")[1]
	forged := head + "." + payload + "." + strings.Repeat("A", 43)
	_, err := e.svc.Authenticate.Handle(ctx, forged)
	wantCode(t, err, domain.CodeUnauthenticated)
	// Logging out stops a remembered token at once.
	p, err := e.svc.Authenticate.Handle(ctx, s.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Logout.Handle(ctx, p); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.Authenticate.Handle(ctx, s.AccessToken)
	wantCode(t, err, domain.CodeUnauthenticated)
}
