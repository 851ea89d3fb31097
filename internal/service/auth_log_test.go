package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/adapters/sms"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// logBuffer collects log output from concurrent writers.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// smsGateway is a fake SMS gateway's webhook: it records the codes it is sent and
// answers 500 while failing is set.
type smsGateway struct {
	mu      sync.Mutex
	codes   map[string][]string
	failing bool
}

func (g *smsGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var p sms.WebhookPayload
	_ = json.NewDecoder(r.Body).Decode(&p)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.codes == nil {
		g.codes = map[string][]string{}
	}
	g.codes[p.Phone] = append(g.codes[p.Phone], p.Code)
	if g.failing {
		w.WriteHeader(http.StatusInternalServerError)
	}
}

func (g *smsGateway) last(t *testing.T, phone string) string {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.codes[phone]) == 0 {
		t.Fatalf("the gateway got no code for %s", phone)
	}
	return g.codes[phone][len(g.codes[phone])-1]
}

// startLoggedServer is startServer logging at debug level into the returned buffer.
func startLoggedServer(t *testing.T, env map[string]string) (*httptest.Server, *logBuffer) {
	t.Helper()
	vars := map[string]string{"DEALSPOT_DATA_DIR": t.TempDir()}
	for k, v := range env {
		vars[k] = v
	}
	testsupport.DevModeOnPurpose(vars)
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	logs := &logBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	svc, err := service.New(context.Background(), cfg, log)
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	srv := httptest.NewServer(svc.Handler)
	t.Cleanup(func() {
		srv.Close()
		_ = svc.Close()
	})
	return srv, logs
}

// loginFlows runs every login use case, right and wrong, and returns the secrets seen.
func loginFlows(t *testing.T, c testsupport.GraphQLClient, phone string, codeOf func() string) []string {
	t.Helper()
	var sent struct{ SendLoginCode struct{ Sent bool } }
	c.Do(t, `mutation($p: String!) { sendLoginCode(phone: $p) { sent } }`, map[string]any{"p": phone}).Decode(t, &sent)
	code := codeOf()
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	loginQ := `mutation($p: String!, $c: String!) { login(phone: $p, code: $c) { ` + authFields + ` } }`
	wantCode(t, "wrong code", c.Do(t, loginQ, map[string]any{"p": phone, "c": wrong}), "BAD_USER_INPUT")
	var in struct{ Login authPayload }
	c.Do(t, loginQ, map[string]any{"p": phone, "c": code}).Decode(t, &in)
	wantCode(t, "used code", c.Do(t, loginQ, map[string]any{"p": phone, "c": code}), "BAD_USER_INPUT")
	c.Token = in.Login.AccessToken
	// Passwords: set, change (with a wrong current one first), log in wrong and right.
	const first, second, wrongPassword = "first-Pa55word-secret", "second-Pa55word-secret", "wrong-Pa55word-secret"
	setQ := `mutation($p: String!, $c: String) { setPassword(password: $p, currentPassword: $c) }`
	c.Do(t, setQ, map[string]any{"p": first}).Decode(t, &struct{}{})
	wantCode(t, "wrong current password", c.Do(t, setQ, map[string]any{"p": second, "c": wrongPassword}), "BAD_USER_INPUT")
	c.Do(t, setQ, map[string]any{"p": second, "c": first}).Decode(t, &struct{}{})
	pwQ := `mutation($p: String!, $w: String!) { loginWithPassword(phone: $p, password: $w) { ` + authFields + ` } }`
	wantCode(t, "wrong password", c.Do(t, pwQ, map[string]any{"p": phone, "w": first}), "BAD_USER_INPUT")
	var pw struct{ LoginWithPassword authPayload }
	c.Do(t, pwQ, map[string]any{"p": phone, "w": second}).Decode(t, &pw)
	c.Token = ""
	if u, resp := me(t, c, in.Login.AccessToken); u == nil {
		t.Fatalf("me: %+v", resp.Errors)
	}
	next, resp := refresh(t, c, in.Login.RefreshToken)
	if len(resp.Errors) != 0 {
		t.Fatalf("refresh: %+v", resp.Errors)
	}
	if _, resp := refresh(t, c, in.Login.RefreshToken); len(resp.Errors) == 0 {
		t.Fatal("a rotated refresh token was accepted")
	}
	c.Token = next.AccessToken
	c.Do(t, `mutation { logout }`, nil)
	if u, _ := me(t, c, next.AccessToken); u != nil {
		t.Fatal("the access token still works after logout")
	}
	return []string{code, in.Login.AccessToken, in.Login.RefreshToken, next.AccessToken, next.RefreshToken,
		first, second, wrongPassword, pw.LoginWithPassword.AccessToken, pw.LoginWithPassword.RefreshToken}
}

func TestLoginFlowsLogNoCodeOrToken(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		env["LOGIN_CODE_INTERVAL"] = "1ms"
		t.Run("outside dev mode", func(t *testing.T) {
			gw := &smsGateway{}
			gwSrv := httptest.NewServer(gw)
			t.Cleanup(gwSrv.Close)
			env := map[string]string{"DEALSPOT_DEV": "false", "DEALSPOT_SEED": "true", "DEALSPOT_AUTO_MIGRATE": "true",
				"SMS_WEBHOOK_URL": gwSrv.URL + "/sms", "SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789",
				"SMS_WEBHOOK_BACKOFF": "1ms", "LOGIN_CODE_INTERVAL": "1ms", "JWT_SECRET": env["JWT_SECRET"], "REDIS_URL": env["REDIS_URL"]}
			srv, logs := startLoggedServer(t, env)
			c := client(srv)
			const phone = "13600001111"
			secrets := loginFlows(t, c, phone, func() string { return gw.last(t, phone) })

			// A gateway that fails: the client sees INTERNAL, the log the failure, not the code.
			gw.mu.Lock()
			gw.failing = true
			gw.mu.Unlock()
			const other = "13600002222"
			resp := c.Do(t, `mutation($p: String!) { sendLoginCode(phone: $p) { sent devCode } }`, map[string]any{"p": other})
			wantCode(t, "failed delivery", resp, "INTERNAL")
			secrets = append(secrets, gw.last(t, other))

			out := logs.String()
			if !strings.Contains(out, "sms webhook") {
				t.Fatalf("the failed delivery was not logged; log:\n%s", out)
			}
			for _, s := range secrets {
				if strings.Contains(out, s) {
					t.Errorf("the log shows the secret %q:\n%s", s, out)
				}
			}
		})
		t.Run("dev mode logs the code through the log sender only", func(t *testing.T) {
			srv, logs := startLoggedServer(t, env)
			c := client(srv)
			const phone = "13600003333"
			var code string
			secrets := loginFlows(t, c, phone, func() string {
				for _, line := range strings.Split(logs.String(), "\n") {
					if strings.Contains(line, `msg="login code"`) && strings.Contains(line, "phone="+phone) {
						_, code, _ = strings.Cut(line, "code=")
					}
				}
				return code
			})
			for _, line := range strings.Split(logs.String(), "\n") {
				for i, s := range secrets {
					if strings.Contains(line, s) && (i > 0 || !strings.Contains(line, `msg="login code"`)) {
						t.Errorf("log line shows the secret %q: %s", s, line)
					}
				}
			}
		})
	})
}
