package service_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/golang-jwt/jwt/v5"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/testsupport"
)

const testSecret = "component-test-secret-0123456789abcdef"

// redisBackends runs fn once on the embedded Redis and once on the real Redis named by
// TEST_REDIS_URL (skipped without it, failed under CI=true).
func redisBackends(t *testing.T, fn func(t *testing.T, env map[string]string)) {
	t.Helper()
	t.Run("embedded", func(t *testing.T) {
		t.Parallel()
		fn(t, map[string]string{"JWT_SECRET": testSecret})
	})
	t.Run("redis", func(t *testing.T) {
		t.Parallel()
		fn(t, map[string]string{"JWT_SECRET": testSecret, "REDIS_URL": testsupport.RedisURL(t)})
	})
}

type authPayload struct {
	AccessToken, RefreshToken string
	ExpiresAt                 time.Time
	User                      struct{ ID, Phone, NickName, Role string }
}

const authFields = `accessToken refreshToken expiresAt user { id phone nickName role }`

func sendCode(t testing.TB, c testsupport.GraphQLClient, phone string) string {
	t.Helper()
	var data struct {
		SendLoginCode struct {
			Sent              bool
			RetryAfterSeconds int
			DevCode           *string
		}
	}
	c.Do(t, `mutation($p: String!) { sendLoginCode(phone: $p) { sent retryAfterSeconds devCode } }`, map[string]any{"p": phone}).Decode(t, &data)
	if !data.SendLoginCode.Sent || data.SendLoginCode.DevCode == nil || len(*data.SendLoginCode.DevCode) != 6 {
		t.Fatalf("sendLoginCode in dev mode = %+v", data.SendLoginCode)
	}
	return *data.SendLoginCode.DevCode
}

func login(t testing.TB, c testsupport.GraphQLClient, phone string) authPayload {
	t.Helper()
	code := sendCode(t, c, phone)
	var data struct{ Login authPayload }
	c.Do(t, `mutation($p: String!, $c: String!) { login(phone: $p, code: $c) { `+authFields+` } }`, map[string]any{"p": phone, "c": code}).Decode(t, &data)
	return data.Login
}

func refresh(t *testing.T, c testsupport.GraphQLClient, token string) (authPayload, testsupport.GQLResponse) {
	t.Helper()
	resp := c.Do(t, `mutation($t: String!) { refreshToken(token: $t) { `+authFields+` } }`, map[string]any{"t": token})
	var data struct{ RefreshToken *authPayload }
	if len(resp.Errors) == 0 {
		resp.Decode(t, &data)
		return *data.RefreshToken, resp
	}
	return authPayload{}, resp
}

func me(t *testing.T, c testsupport.GraphQLClient, token string) (*struct{ ID, Phone string }, testsupport.GQLResponse) {
	t.Helper()
	c.Token = token
	resp := c.Do(t, `{ me { id phone } }`, nil)
	var data struct{ Me *struct{ ID, Phone string } }
	_ = json.Unmarshal(resp.Data, &data)
	return data.Me, resp
}

func wantCode(t *testing.T, what string, resp testsupport.GQLResponse, code string) {
	t.Helper()
	if got := resp.Codes(); len(got) != 1 || got[0] != code {
		t.Errorf("%s: codes %v (%+v), want [%s]", what, got, resp.Errors, code)
	}
	if resp.Status >= 500 {
		t.Errorf("%s: HTTP status %d", what, resp.Status)
	}
}

func TestLoginFlowOverHTTP(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		env["LOGIN_CODE_INTERVAL"] = "1ms"
		srv := startServer(t, env)
		c := client(srv)
		const phone = "13800001111"

		first := login(t, c, phone)
		if first.User.Phone != phone || !strings.HasPrefix(first.User.NickName, "user_") || first.User.Role != "USER" {
			t.Fatalf("first login user = %+v", first.User)
		}
		if !first.ExpiresAt.After(time.Now()) {
			t.Errorf("expiresAt %v is not in the future", first.ExpiresAt)
		}
		u, resp := me(t, c, first.AccessToken)
		if u == nil || u.ID != first.User.ID || u.Phone != phone {
			t.Fatalf("me = %+v %+v", u, resp.Errors)
		}
		if u, _ := me(t, c, ""); u != nil {
			t.Errorf("me without a token = %+v, want null", u)
		}

		// Rotation: the new pair works, the old refresh token does not …
		second, resp := refresh(t, c, first.RefreshToken)
		if len(resp.Errors) > 0 || second.RefreshToken == first.RefreshToken {
			t.Fatalf("refresh: %+v", resp.Errors)
		}
		if u, _ := me(t, c, second.AccessToken); u == nil || u.ID != first.User.ID {
			t.Fatalf("me with the refreshed token = %+v", u)
		}
		_, resp = refresh(t, c, first.RefreshToken)
		wantCode(t, "reusing a rotated refresh token", resp, "UNAUTHENTICATED")
		// … and reusing it revoked the whole family: the newer tokens stop working too.
		_, resp = refresh(t, c, second.RefreshToken)
		wantCode(t, "refresh token of a revoked family", resp, "UNAUTHENTICATED")
		_, resp = me(t, c, second.AccessToken)
		wantCode(t, "access token of a revoked family", resp, "UNAUTHENTICATED")

		// Logout ends a fresh session: refresh and access tokens stop working.
		third := login(t, c, phone)
		if third.User.ID != first.User.ID {
			t.Errorf("second login created another user: %s vs %s", third.User.ID, first.User.ID)
		}
		c.Token = third.AccessToken
		var out struct{ Logout bool }
		c.Do(t, `mutation { logout }`, nil).Decode(t, &out)
		if !out.Logout {
			t.Fatal("logout returned false")
		}
		c.Token = ""
		_, resp = refresh(t, c, third.RefreshToken)
		wantCode(t, "refresh after logout", resp, "UNAUTHENTICATED")
		_, resp = me(t, c, third.AccessToken)
		wantCode(t, "access token after logout", resp, "UNAUTHENTICATED")
		wantCode(t, "logout without a token", c.Do(t, `mutation { logout }`, nil), "UNAUTHENTICATED")
	})
}

func TestForgedTokensAreUnauthenticated(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret})
	c := client(srv)
	real := login(t, c, "13900002222")

	// A real token's claims, re-signed in hostile ways.
	parsed, _, err := jwt.NewParser().ParseUnverified(real.AccessToken, jwt.MapClaims{})
	if err != nil {
		t.Fatal(err)
	}
	claims := parsed.Claims.(jwt.MapClaims)
	with := func(change func(jwt.MapClaims)) jwt.MapClaims {
		out := jwt.MapClaims{}
		for k, v := range claims {
			out[k] = v
		}
		change(out)
		return out
	}
	hs := func(secret string, cl jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, cl).SignedString([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rs256, _ := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(rsaKey)
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	hs512, _ := jwt.NewWithClaims(jwt.SigningMethodHS512, claims).SignedString([]byte(testSecret))

	cases := map[string]string{
		"wrong secret": hs("another-secret-another-secret-0123456789", claims),
		"alg none":     none,
		"RS256":        rs256,
		"HS512":        hs512,
		"expired": hs(testSecret, with(func(m jwt.MapClaims) {
			m["exp"] = time.Now().Add(-time.Hour).Unix()
			m["iat"] = time.Now().Add(-2 * time.Hour).Unix()
		})),
		"missing sub":      hs(testSecret, with(func(m jwt.MapClaims) { delete(m, "sub") })),
		"sub not a number": hs(testSecret, with(func(m jwt.MapClaims) { m["sub"] = "admin" })),
		"malformed":        "not.a.jwt",
		"garbage":          strings.Repeat("A", 300),
		"empty bearer":     " ",
	}
	for name, token := range cases {
		if _, resp := me(t, c, token); name != "empty bearer" {
			wantCode(t, name, resp, "UNAUTHENTICATED")
		} else if len(resp.Errors) > 0 && resp.Status >= 500 {
			t.Errorf("%s: %+v", name, resp.Errors)
		}
	}
	// The genuine token still works, so the refusals above are about the forgeries.
	if u, resp := me(t, c, real.AccessToken); u == nil {
		t.Fatalf("genuine token refused: %+v", resp.Errors)
	}
	// A public query still answers with a refused token.
	c.Token = cases["alg none"]
	var data struct{ ShopTypes []json.RawMessage }
	c.Do(t, `{ shopTypes { id } }`, nil).Decode(t, &data)
}

func TestBatchedLoginGuessesCountEachAttempt(t *testing.T) {
	t.Parallel()
	batch := func(phone, code string) string {
		var q strings.Builder
		q.WriteString("mutation {")
		for i := range 20 {
			fmt.Fprintf(&q, ` a%d: login(phone: %q, code: %q) { accessToken }`, i, phone, code)
		}
		q.WriteString(" }")
		return q.String()
	}
	redisBackends(t, func(t *testing.T, env map[string]string) {
		t.Run("the fifth wrong guess kills the code", func(t *testing.T) {
			srv := startServer(t, env)
			c := client(srv)
			const phone = "13700003333"
			code := sendCode(t, c, phone)
			wrong := fmt.Sprintf("%06d", (atoi(code)+1)%1000000)
			resp := c.Do(t, batch(phone, wrong), nil)
			if codes := resp.Codes(); len(codes) != 20 || strings.Count(strings.Join(codes, " "), "BAD_USER_INPUT") != 20 {
				t.Fatalf("20 batched wrong guesses: %v", codes)
			}
			// The code is gone: even the right one is refused now, but the phone is not
			// locked.
			r := c.Do(t, `mutation($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken } }`, map[string]any{"p": phone, "c": code})
			wantCode(t, "right code after five wrong ones", r, "BAD_USER_INPUT")
		})
		t.Run("wrong guesses from one address are limited", func(t *testing.T) {
			ipEnv := map[string]string{"LOGIN_IP_LIMITS": "true", "LOGIN_WRONG_CODES_PER_IP": "10/1h"}
			for k, v := range env {
				ipEnv[k] = v
			}
			c := client(startServer(t, ipEnv))
			resp := c.Do(t, batch("13700004444", "000000"), nil)
			joined := strings.Join(resp.Codes(), " ")
			if len(resp.Errors) != 20 || strings.Count(joined, "BAD_USER_INPUT") != 10 || strings.Count(joined, "RATE_LIMITED") != 10 {
				t.Fatalf("20 batched wrong guesses with a limit of 10: %v", resp.Codes())
			}
		})
	})
}

func TestBatchedSendLoginCodeSendsOnce(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		srv := startServer(t, env)
		c := client(srv)
		var q strings.Builder
		q.WriteString("mutation {")
		for i := range 20 {
			fmt.Fprintf(&q, ` s%d: sendLoginCode(phone: "13600004444") { sent devCode }`, i)
		}
		q.WriteString(" }")
		resp := c.Do(t, q.String(), nil)
		// sendLoginCode is non-null, so one refusal nulls the whole data (GraphQL
		// semantics): count the aliases that failed instead.
		failed := map[any]bool{}
		for _, e := range resp.Errors {
			if len(e.Path) > 0 {
				failed[e.Path[0]] = true
			}
		}
		if len(resp.Errors) != 19 || len(failed) != 19 {
			t.Fatalf("20 batched sendLoginCode: want exactly one sent and 19 refused, got errors %v on %d aliases", resp.Codes(), len(failed))
		}
		for _, e := range resp.Errors {
			if e.Code() != "RATE_LIMITED" {
				t.Errorf("refused send answered %s, want RATE_LIMITED", e.Code())
			}
		}
	})
}

func TestConcurrentSendLoginCodeOverHTTP(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		srv := startServer(t, env)
		c := client(srv)
		var wg sync.WaitGroup
		var mu sync.Mutex
		sent, limited := 0, 0
		for range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp := c.Do(t, `mutation { sendLoginCode(phone: "13500005555") { sent } }`, nil)
				mu.Lock()
				defer mu.Unlock()
				if len(resp.Errors) == 0 {
					sent++
				} else if resp.Errors[0].Code() == "RATE_LIMITED" {
					limited++
				}
			}()
		}
		wg.Wait()
		if sent != 1 || limited != 49 {
			t.Fatalf("50 concurrent sendLoginCode: %d sent, %d rate limited", sent, limited)
		}
	})
}

func TestSubscriptionsNeedAToken(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret})
	tok := login(t, client(srv), "13400006666")

	// A forged token is refused; a valid one is let in.
	cases := []struct {
		name    string
		payload any
		ok      bool
	}{
		{"forged token", map[string]any{"Authorization": "Bearer " + strings.Repeat("x", 40)}, false},
		{"valid token", map[string]any{"Authorization": "Bearer " + tok.AccessToken}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg, closeCode := wsInit(t, srv, tc.payload)
			if tc.ok && msg != "connection_ack" {
				t.Fatalf("valid token: got %q (close %d), want connection_ack", msg, closeCode)
			}
			if !tc.ok && (msg == "connection_ack" || closeCode != 4403) {
				t.Fatalf("got %q, close code %d; want the connection refused with 4403", msg, closeCode)
			}
		})
	}
	// Without a token the socket is anonymous: the public saleProgress runs on it, a
	// subscription that needs a caller answers UNAUTHENTICATED.
	for _, name := range []string{"no payload", "no token"} {
		t.Run(name, func(t *testing.T) {
			var payload any
			if name == "no token" {
				payload = map[string]any{}
			}
			if msg, closeCode := wsInit(t, srv, payload); msg != "connection_ack" {
				t.Fatalf("got %q (close %d), want connection_ack for an anonymous socket", msg, closeCode)
			}
		})
	}
	ws := wsOpen(t, srv, "")
	ws.send(map[string]any{"type": "subscribe", "id": "o", "payload": map[string]any{
		"query": `subscription { orderStatus(orderId: "1") { status } }`}})
	for {
		typ, payload, code := ws.next()
		if typ == "" {
			t.Fatalf("socket closed (%d), want an UNAUTHENTICATED answer", code)
		}
		if typ == "next" || typ == "error" {
			if !strings.Contains(string(payload), "UNAUTHENTICATED") {
				t.Fatalf("orderStatus on an anonymous socket: %s %s, want UNAUTHENTICATED", typ, payload)
			}
			break
		}
	}
}

// wsInit opens a graphql-transport-ws connection, sends connection_init with payload and
// returns the type of the first message other than a connection_error, or the close code.
func wsInit(t *testing.T, srv *httptest.Server, payload any) (string, websocket.StatusCode) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.CloseNow()
	init := map[string]any{"type": "connection_init"}
	if payload != nil {
		init["payload"] = payload
	}
	b, _ := json.Marshal(init)
	if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatalf("write: %v", err)
	}
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return "", websocket.CloseStatus(err)
		}
		var m struct{ Type string }
		_ = json.Unmarshal(data, &m)
		if m.Type != "connection_error" {
			return m.Type, -1
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

func TestBlockedUsersTokensStopWorking(t *testing.T) {
	t.Parallel()
	srv, svc := startService(t, map[string]string{"JWT_SECRET": testSecret, "LOGIN_CODE_INTERVAL": "1ms"})
	c := client(srv)
	const phone = "13300007777"
	s := login(t, c, phone)
	if u, _ := me(t, c, s.AccessToken); u == nil {
		t.Fatal("fresh token refused")
	}
	// A code sent just before the block is still refused at login.
	code := sendCode(t, c, phone)
	if _, err := svc.Ops.BlockUser.Handle(context.Background(), phone, true); err != nil {
		t.Fatal(err)
	}
	_, resp := me(t, c, s.AccessToken)
	wantCode(t, "access token of a blocked user", resp, "UNAUTHENTICATED")
	_, resp = refresh(t, c, s.RefreshToken)
	wantCode(t, "refresh token of a blocked user", resp, "UNAUTHENTICATED")
	r := c.Do(t, `mutation($p: String!) { sendLoginCode(phone: $p) { sent } }`, map[string]any{"p": phone})
	wantCode(t, "login code for a blocked user", r, "FORBIDDEN")
	r = c.Do(t, `mutation($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken } }`, map[string]any{"p": phone, "c": code})
	wantCode(t, "login of a blocked user", r, "FORBIDDEN")

	if _, err := svc.Ops.BlockUser.Handle(context.Background(), phone, false); err != nil {
		t.Fatal(err)
	}
	if u, _ := me(t, c, login(t, c, phone).AccessToken); u == nil {
		t.Fatal("unblocked user cannot log in again")
	}
}

func TestPhoneIsMaskedForOthers(t *testing.T) {
	t.Parallel()
	srv, svc := startService(t, map[string]string{"JWT_SECRET": testSecret})
	c := client(srv)
	owner := login(t, c, "13200008888")
	u, err := svc.App.Queries.CurrentUser.Handle(context.Background(), auth.Principal{UserID: mustID(t, owner.User.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if got := auth.VisiblePhone(auth.Principal{UserID: u.ID + 1}, u); got != "132****8888" {
		t.Errorf("phone shown to another user = %q, want 132****8888", got)
	}
	if got := auth.VisiblePhone(auth.Principal{}, u); got != "132****8888" {
		t.Errorf("phone shown to anonymous = %q", got)
	}
	if owner.User.Phone != "13200008888" {
		t.Errorf("owner sees %q", owner.User.Phone)
	}
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Two server instances share Redis and the database. A token both have verified (and
// remember) stops working on both the moment its session ends on either, and blocking a
// user on one ends the user's sessions on the other at once.
func TestSessionsEndOnEveryInstanceAtOnce(t *testing.T) {
	t.Parallel()
	env := map[string]string{"JWT_SECRET": testSecret, "LOGIN_CODE_INTERVAL": "1ms",
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t)}
	srvA, _ := startService(t, env)
	srvB, svcB := startService(t, env)
	a, b := client(srvA), client(srvB)

	s := login(t, a, "13300006666")
	for i := range 3 { // verified, then remembered, on both instances
		for _, c := range []testsupport.GraphQLClient{a, b} {
			if u, resp := me(t, c, s.AccessToken); u == nil {
				t.Fatalf("request %d with a fresh token: %+v", i, resp.Errors)
			}
		}
	}
	a.Token = s.AccessToken
	var out struct{ Logout bool }
	a.Do(t, `mutation { logout }`, nil).Decode(t, &out)
	if !out.Logout {
		t.Fatal("logout returned false")
	}
	for name, c := range map[string]testsupport.GraphQLClient{"A": a, "B": b} {
		_, resp := me(t, c, s.AccessToken)
		wantCode(t, "token after logout, instance "+name, resp, "UNAUTHENTICATED")
	}

	const phone = "13300005555"
	s = login(t, a, phone)
	for _, c := range []testsupport.GraphQLClient{a, b} {
		if u, _ := me(t, c, s.AccessToken); u == nil {
			t.Fatal("fresh token refused")
		}
	}
	if _, err := svcB.Ops.BlockUser.Handle(context.Background(), phone, true); err != nil {
		t.Fatal(err)
	}
	_, resp := me(t, a, s.AccessToken)
	wantCode(t, "token of a user blocked on the other instance", resp, "UNAUTHENTICATED")
}
