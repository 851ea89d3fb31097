package service_test

import (
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// A NUL byte cannot be stored in PostgreSQL's text: a note titled "a\x00b" was a failed
// INSERT answered INTERNAL. Such text, and text carrying control characters or bidi
// overrides, is BAD_USER_INPUT on every store; a plain title still gets through.
func TestHostileTextIsBadUserInputOnEveryStore(t *testing.T) {
	t.Parallel()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"JWT_SECRET": testSecret, "RECONCILE_INTERVAL": "0"}
			if db == "postgres" {
				env["DATABASE_URL"] = testsupport.PostgresURL(t)
			}
			srv := startServer(t, env)
			anon := client(srv)
			user := client(srv)
			user.Token = login(t, anon, "13900000077").AccessToken
			const create = `mutation($in: CreateBlogInput!) { createBlog(input: $in) { id title } }`
			blog := func(title string) map[string]any {
				return map[string]any{"in": map[string]any{"shopId": "1", "title": title, "content": "c", "images": []string{}}}
			}
			for name, tc := range map[string]struct {
				query string
				vars  map[string]any
			}{
				"NUL in a title":                  {create, blog("a\x00b")},
				"NUL in a title literal":          {`mutation { createBlog(input: {shopId: "1", title: "a\u0000b", content: "c", images: []}) { id } }`, nil},
				"right-to-left override in title": {create, blog("gpj.\u202eexe")},
				"escape in a nickname":            {`mutation($n: String) { updateProfile(input: {nickName: $n}) { id } }`, map[string]any{"n": "a\x1b[2Jb"}},
				"NUL in a comment":                {`mutation($c: String!) { createComment(blogId: "1", content: $c) { id } }`, map[string]any{"c": "a\x00b"}},
				"{} for a blog id":                {`mutation { likeBlog(id: {}) { id } }`, nil},
			} {
				resp := user.Do(t, tc.query, tc.vars)
				if codes := resp.Codes(); len(codes) != 1 || codes[0] != "BAD_USER_INPUT" {
					t.Errorf("%s: status %d codes %v, want BAD_USER_INPUT", name, resp.Status, codes)
				}
			}
			if resp := user.Do(t, create, blog("探店 Café")); len(resp.Errors) != 0 {
				t.Errorf("a plain title refused: %v", resp.Codes())
			}
		})
	}
}
