package service_test

import (
	"encoding/base64"
	"strings"
	"testing"
)

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// Every connection refuses a cursor the server did not make — wrong shape, kind or
// form, out of bounds, or too deep — with BAD_USER_INPUT, and still accepts its own.
func TestMalformedCursorsAreBadUserInput(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "RECONCILE_INTERVAL": "0"})
	anon := client(srv)
	user := client(srv)
	user.Token = login(t, anon, "13900000077").AccessToken

	type connection struct {
		name, kind, query string
		fields            int
		bad               []string // raw cursors (before base64) beyond the common ones
	}
	connections := []connection{
		{"shops", "shop", `query($a: String) { shops(first: 2, after: $a) { edges { cursor } pageInfo { endCursor } } }`, 1,
			[]string{"shop:0", "shop:-1", "shop:+1", "shop:01", "shop:9223372036854775808"}},
		{"nearbyShops", "near", `query($a: String) { nearbyShops(typeId: "1", longitude: 120.149993, latitude: 30.334229, first: 2, after: $a) { edges { cursor } pageInfo { endCursor } } }`, 3,
			[]string{"near:9223372036854775807:0:1", "near:2147483648:0:1", "near:5000:0:1", "near:0:0:1", "near:1:-1:1", "near:1:NaN:1",
				"near:1:Inf:1", "near:1:1e400:1", "near:1:3e7:1", "near:1:0:0", "near:1:0.10:1"}},
		{"myOrders", "order", `query($a: String) { myOrders(first: 2, after: $a) { edges { cursor } pageInfo { endCursor } } }`, 1,
			[]string{"order:0", "order:-5", "order:1e3"}},
		{"hotBlogs", "hot", `query($a: String) { hotBlogs(first: 2, after: $a) { edges { cursor } pageInfo { endCursor } } }`, 2,
			[]string{"hot:2147483648:1", "hot:1:0", "hot:-1:1", "hot:1:9223372036854775808"}},
		{"blogsOfUser", "ublog", `query($a: String) { blogsOfUser(userId: "1", first: 2, after: $a) { edges { cursor } pageInfo { endCursor } } }`, 1,
			[]string{"ublog:0", "ublog:x"}},
		{"feed", "feed", `query($a: String) { feed(first: 2, after: $a) { edges { cursor } pageInfo { endCursor } } }`, 2,
			[]string{"feed:1:0", "feed:1:100000", "feed:9223372036854775807:1", "feed:-1:1", "feed:1:2147483648"}},
	}
	for _, c := range connections {
		ones := strings.TrimSuffix(strings.Repeat("1:", c.fields), ":")
		cases := map[string]string{
			"not base64":      "!!not*base64!!",
			"padded base64":   base64.URLEncoding.EncodeToString([]byte(c.kind + ":" + ones + ":")),
			"too long":        strings.Repeat("A", 400),
			"no kind":         b64(ones),
			"wrong kind":      b64("other:" + ones),
			"no fields":       b64(c.kind),
			"too many fields": b64(c.kind + ":" + ones + ":1"),
			"empty field":     b64(c.kind + ":" + strings.Repeat(":", c.fields-1)),
			"spaces":          b64(c.kind + ": " + ones),
		}
		for _, raw := range c.bad {
			cases[raw] = b64(raw)
		}
		t.Run(c.name, func(t *testing.T) {
			for name, cursor := range cases {
				resp := user.Do(t, c.query, map[string]any{"a": cursor})
				if codes := resp.Codes(); len(codes) != 1 || codes[0] != "BAD_USER_INPUT" {
					t.Errorf("%s (%q): codes %v, data %s", name, cursor, codes, resp.Data)
				}
			}
			// The server's own cursors still page.
			var first struct {
				Data map[string]struct{ PageInfo struct{ EndCursor *string } }
			}
			resp := user.Do(t, c.query, map[string]any{"a": nil})
			if len(resp.Errors) != 0 {
				t.Fatalf("first page: %v", resp.Codes())
			}
			resp.Decode(t, &first.Data)
			for _, page := range first.Data {
				if page.PageInfo.EndCursor == nil {
					continue
				}
				if next := user.Do(t, c.query, map[string]any{"a": *page.PageInfo.EndCursor}); len(next.Errors) != 0 {
					t.Errorf("second page after %q: %v", *page.PageInfo.EndCursor, next.Codes())
				}
			}
		})
	}
}
