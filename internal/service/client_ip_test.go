package service_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// forwardedFor is a transport that sends every request as forwarded for ip.
type forwardedFor string

func (ip forwardedFor) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", string(ip))
	return http.DefaultTransport.RoundTrip(r)
}

func TestPerIPLimitsSeeTheClientBehindTrustedProxies(t *testing.T) {
	t.Parallel()
	send := func(t *testing.T, srvURL, ip string) testsupport.GQLResponse {
		t.Helper()
		c := testsupport.GraphQLClient{URL: srvURL + "/graphql", HTTP: &http.Client{Transport: forwardedFor(ip)}}
		return c.Do(t, `mutation($p: String!) { sendLoginCode(phone: $p) { sent } }`,
			map[string]any{"p": fmt.Sprintf("135%08d", rand.IntN(100_000_000))})
	}
	limits := map[string]string{"JWT_SECRET": testSecret, "LOGIN_IP_LIMITS": "true", "LOGIN_SEND_CODE_PER_IP": "2/1h"}
	t.Run("behind a trusted proxy each client has its own limit", func(t *testing.T) {
		t.Parallel()
		env := map[string]string{"TRUSTED_PROXIES": "127.0.0.0/8,::1/128"}
		for k, v := range limits {
			env[k] = v
		}
		srv := startServer(t, env)
		for range 2 {
			if r := send(t, srv.URL, "198.51.100.1"); len(r.Errors) != 0 {
				t.Fatalf("first client: %+v", r.Errors)
			}
		}
		wantCode(t, "first client's third code", send(t, srv.URL, "198.51.100.1"), "RATE_LIMITED")
		if r := send(t, srv.URL, "198.51.100.2"); len(r.Errors) != 0 {
			t.Fatalf("second client: %+v", r.Errors)
		}
	})
	t.Run("without trusted proxies the header is ignored", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t, limits)
		for i := range 2 {
			if r := send(t, srv.URL, fmt.Sprint("198.51.100.", i)); len(r.Errors) != 0 {
				t.Fatalf("code %d: %+v", i, r.Errors)
			}
		}
		wantCode(t, "a spoofed header", send(t, srv.URL, "198.51.100.9"), "RATE_LIMITED")
	})
}
