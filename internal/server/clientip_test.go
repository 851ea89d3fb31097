package server_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/dealspot/dealspot/internal/reqmeta"
	"github.com/dealspot/dealspot/internal/server"
)

func TestClientIPBehindTrustedProxies(t *testing.T) {
	t.Parallel()
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	cases := []struct {
		name    string
		trusted []netip.Prefix
		peer    string
		xff     []string
		want    string
	}{
		{"no proxies configured: the header is ignored", nil, "203.0.113.7:4000", []string{"198.51.100.1"}, "203.0.113.7"},
		{"a peer that is not a trusted proxy: the header is ignored", trusted, "203.0.113.7:4000", []string{"198.51.100.1"}, "203.0.113.7"},
		{"a trusted proxy: its client", trusted, "10.1.2.3:4000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"the right-most address that is not a proxy wins over a spoofed left one", trusted, "10.1.2.3:4000",
			[]string{"6.6.6.6, 198.51.100.1, 10.9.9.9"}, "198.51.100.1"},
		{"several headers are one list", trusted, "10.1.2.3:4000", []string{"6.6.6.6", "198.51.100.1, 10.9.9.9"}, "198.51.100.1"},
		{"a trusted proxy without the header: the proxy", trusted, "10.1.2.3:4000", nil, "10.1.2.3"},
		{"garbage stops the walk at the last proxy", trusted, "10.1.2.3:4000", []string{"198.51.100.1, nonsense"}, "10.1.2.3"},
		{"only proxies: the left-most", trusted, "10.1.2.3:4000", []string{"10.0.0.1, 10.0.0.2"}, "10.0.0.1"},
		{"IPv6 client through an IPv6 proxy", trusted, "[fd00::1]:4000", []string{"2001:db8::5"}, "2001:db8::5"},
		{"addresses with ports and brackets", trusted, "10.1.2.3:4000", []string{"[2001:db8::5]:1234"}, "2001:db8::5"},
		{"IPv4-mapped IPv6 is IPv4", trusted, "[::ffff:10.1.2.3]:4000", []string{"::ffff:198.51.100.1"}, "198.51.100.1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got string
			h := server.NewHandler(server.Options{
				Log:            slog.New(slog.DiscardHandler),
				Metrics:        server.NewMetrics(),
				TrustedProxies: tc.trusted,
				GraphQL: http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
					got = reqmeta.From(r.Context()).ClientIP
				}),
			})
			r := httptest.NewRequest(http.MethodPost, "/graphql", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			_, _ = io.Copy(io.Discard, w.Body)
			if got != tc.want {
				t.Fatalf("client IP %q, want %q", got, tc.want)
			}
		})
	}
}
