package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// socialBackends runs fn on every pairing of store and Redis: SQLite or PostgreSQL,
// embedded or real Redis (the real ones skipped without TEST_DATABASE_URL /
// TEST_REDIS_URL, failed under CI=true).
func socialBackends(t *testing.T, fn func(t *testing.T, env map[string]string)) {
	t.Helper()
	for _, db := range []string{"sqlite", "postgres"} {
		for _, rd := range []string{"embedded", "redis"} {
			t.Run(db+"+"+rd, func(t *testing.T) {
				t.Parallel()
				env := map[string]string{"JWT_SECRET": testSecret, "DEALSPOT_DATA_DIR": t.TempDir()}
				if db == "postgres" {
					env["DATABASE_URL"] = testsupport.PostgresURL(t)
				}
				if rd == "redis" {
					env["REDIS_URL"] = testsupport.RedisURL(t)
				}
				fn(t, env)
			})
		}
	}
}

// testClock is a clock tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock(t time.Time) *testClock { return &testClock{now: t} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// startSocial builds Dealspot from env (over the embedded defaults) with the social use
// cases on clock, and serves it over real HTTP. It stops when the test ends, or earlier
// through the returned stop.
func startSocial(t *testing.T, env map[string]string, clock *testClock) (*httptest.Server, *service.Node, func()) {
	t.Helper()
	vars := map[string]string{"DEALSPOT_DATA_DIR": t.TempDir(), "JWT_SECRET": testSecret}
	for k, v := range env {
		vars[k] = v
	}
	testsupport.DevModeOnPurpose(vars)
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	var opts []service.Option
	if clock != nil {
		opts = append(opts, service.WithSocialClock(clock.Now))
	}
	svc, err := service.New(context.Background(), cfg, slog.New(slog.DiscardHandler), opts...)
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	srv := httptest.NewServer(svc.Handler)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			srv.Close()
			if err := svc.Close(); err != nil {
				t.Errorf("close service: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return srv, svc, stop
}

// as returns a client of srv speaking with token.
func as(srv *httptest.Server, token string) testsupport.GraphQLClient {
	c := client(srv)
	c.Token = token
	return c
}

// postGraphQL is GraphQLClient.Do for goroutines other than the test's: it reports
// failures as errors.
func postGraphQL(hc *http.Client, url, token, query string, vars map[string]any) (testsupport.GQLResponse, error) {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return testsupport.GQLResponse{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return testsupport.GQLResponse{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return testsupport.GQLResponse{}, err
	}
	out := testsupport.GQLResponse{Status: resp.StatusCode}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("status %d: %s", resp.StatusCode, raw)
	}
	if len(out.Errors) > 0 {
		return out, fmt.Errorf("graphql errors: %+v", out.Errors)
	}
	return out, nil
}

// pooledHTTP keeps enough connections for n concurrent requests.
func pooledHTTP(t *testing.T, n int) *http.Client {
	tr := &http.Transport{MaxIdleConns: n, MaxIdleConnsPerHost: n, IdleConnTimeout: time.Minute}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: time.Minute}
}

type blogNode struct {
	ID, Title  string
	Images     []shownImage
	Author     struct{ ID, NickName string }
	Shop       *struct{ ID, Name string }
	LikedCount int
	LikedByMe  bool
	CreatedAt  time.Time
}

const blogFields = `id title images { url width height contentType } author { id nickName } shop { id name } likedCount likedByMe createdAt`

func createBlog(t *testing.T, c testsupport.GraphQLClient, title string) blogNode {
	t.Helper()
	var out struct{ CreateBlog blogNode }
	c.Do(t, `mutation($in: CreateBlogInput!) { createBlog(input: $in) { `+blogFields+` } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": title, "content": "正文 " + title, "images": []string{"https://img.example.com/blogs/" + title + ".jpg"},
	}}).Decode(t, &out)
	return out.CreateBlog
}

func follow(t *testing.T, c testsupport.GraphQLClient, userID string) {
	t.Helper()
	var out struct{ Follow bool }
	c.Do(t, `mutation($u: ID!) { follow(userId: $u) }`, map[string]any{"u": userID}).Decode(t, &out)
	if !out.Follow {
		t.Fatalf("follow %s returned false", userID)
	}
}

type feedPage struct {
	Edges []struct {
		Cursor string
		Node   blogNode
	}
	PageInfo struct {
		HasNextPage bool
		EndCursor   *string
	}
}

func readFeed(t *testing.T, c testsupport.GraphQLClient, first int, after string) feedPage {
	t.Helper()
	vars := map[string]any{"first": first}
	if after != "" {
		vars["after"] = after
	}
	var out struct{ Feed feedPage }
	c.Do(t, `query($first: Int, $after: String) { feed(first: $first, after: $after) {
		edges { cursor node { `+blogFields+` } } pageInfo { hasNextPage endCursor } } }`, vars).Decode(t, &out)
	return out.Feed
}

// feedIDs pages through the whole feed, first at a time.
func feedIDs(t *testing.T, c testsupport.GraphQLClient, first int) []string {
	t.Helper()
	var ids []string
	after := ""
	for range 1000 {
		p := readFeed(t, c, first, after)
		if len(p.Edges) > first {
			t.Fatalf("page of %d has %d edges", first, len(p.Edges))
		}
		for _, e := range p.Edges {
			ids = append(ids, e.Node.ID)
		}
		if !p.PageInfo.HasNextPage {
			return ids
		}
		after = *p.PageInfo.EndCursor
	}
	t.Fatal("feed paging does not end")
	return nil
}

func TestSocialNeedsLoginToChangeButNotToRead(t *testing.T) {
	t.Parallel()
	srv, _, _ := startSocial(t, map[string]string{"ADMIN_PHONES": "13700000800"}, nil)
	anon := client(srv)
	user := as(srv, login(t, anon, "13700000801").AccessToken)
	blog := createBlog(t, user, "public")
	for name, q := range map[string]string{
		"createBlog":     `mutation { createBlog(input: {shopId: "1", title: "t", content: "c", images: []}) { id } }`,
		"likeBlog":       `mutation { likeBlog(id: "` + blog.ID + `") { id } }`,
		"unlikeBlog":     `mutation { unlikeBlog(id: "` + blog.ID + `") { id } }`,
		"follow":         `mutation { follow(userId: "1") }`,
		"unfollow":       `mutation { unfollow(userId: "1") }`,
		"signIn":         `mutation { signIn { month } }`,
		"feed":           `{ feed { edges { cursor } } }`,
		"isFollowing":    `{ isFollowing(userId: "1") }`,
		"commonFollows":  `{ commonFollows(userId: "1") { id } }`,
		"signInStatus":   `{ signInStatus { month } }`,
		"uniqueVisitors": `{ uniqueVisitors(from: "2030-01-01", to: "2030-01-02") }`,
	} {
		wantCode(t, name+" without a token", anon.Do(t, q, nil), "UNAUTHENTICATED")
	}
	forged := as(srv, "not-a-token")
	for name, c := range map[string]testsupport.GraphQLClient{"anonymous": anon, "a refused token": forged} {
		var out struct {
			Blog     *struct{ ID string }
			HotBlogs struct {
				Edges []struct{ Node struct{ ID string } }
			}
			BlogsOfUser struct {
				Edges []struct{ Node struct{ ID string } }
			}
			BlogLikers []struct{ ID string }
		}
		c.Do(t, `query($id: ID!, $u: ID!) { blog(id: $id) { id likedByMe } hotBlogs { edges { node { id } } }
			blogsOfUser(userId: $u) { edges { node { id } } } blogLikers(blogId: $id) { id } }`,
			map[string]any{"id": blog.ID, "u": "1"}).Decode(t, &out)
		if out.Blog == nil || out.Blog.ID != blog.ID || len(out.HotBlogs.Edges) == 0 {
			t.Fatalf("%s reading public data: %+v", name, out)
		}
	}
}

func TestSocialRefusesBadInput(t *testing.T) {
	t.Parallel()
	srv, _, _ := startSocial(t, map[string]string{"ADMIN_PHONES": "13700000900", "PAGE_SIZE_MAX": "20"}, nil)
	anon := client(srv)
	admin := as(srv, login(t, anon, "13700000900").AccessToken)
	me := login(t, anon, "13700000901")
	user := as(srv, me.AccessToken)
	blog := createBlog(t, user, "target")
	input := func(change map[string]any) map[string]any {
		in := map[string]any{"shopId": "1", "title": "t", "content": "c", "images": []string{}}
		for k, v := range change {
			in[k] = v
		}
		return map[string]any{"in": in}
	}
	const create = `mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }`
	cases := []struct {
		name  string
		c     testsupport.GraphQLClient
		query string
		vars  map[string]any
		code  string
	}{
		{"blog of an unknown shop", user, create, input(map[string]any{"shopId": "999999"}), "BAD_USER_INPUT"},
		{"blog of a malformed shop id", user, create, input(map[string]any{"shopId": "abc"}), "BAD_USER_INPUT"},
		{"blog without a title", user, create, input(map[string]any{"title": "  "}), "BAD_USER_INPUT"},
		{"blog with a long title", user, create, input(map[string]any{"title": strings.Repeat("长", 81)}), "BAD_USER_INPUT"},
		{"blog without content", user, create, input(map[string]any{"content": ""}), "BAD_USER_INPUT"},
		{"blog with ten images", user, create, input(map[string]any{"images": slices.Repeat([]string{"/a.jpg"}, 10)}), "BAD_USER_INPUT"},
		{"blog with a comma in an image", user, create, input(map[string]any{"images": []string{"/a.jpg,/b.jpg"}}), "BAD_USER_INPUT"},
		{"like an unknown blog", user, `mutation { likeBlog(id: "999999") { id } }`, nil, "NOT_FOUND"},
		{"like a malformed id", user, `mutation { likeBlog(id: "-3") { id } }`, nil, "BAD_USER_INPUT"},
		{"unlike a malformed id", user, `mutation { unlikeBlog(id: "-3") { id } }`, nil, "BAD_USER_INPUT"},
		{"follow oneself", user, `mutation($u: ID!) { follow(userId: $u) }`, map[string]any{"u": me.User.ID}, "BAD_USER_INPUT"},
		{"unfollow oneself", user, `mutation($u: ID!) { unfollow(userId: $u) }`, map[string]any{"u": me.User.ID}, "BAD_USER_INPUT"},
		{"follow an unknown user", user, `mutation { follow(userId: "999999") }`, nil, "NOT_FOUND"},
		{"follow a malformed id", user, `mutation { follow(userId: "x") }`, nil, "BAD_USER_INPUT"},
		{"hot blogs, negative first", anon, `{ hotBlogs(first: -1) { edges { cursor } } }`, nil, "BAD_USER_INPUT"},
		{"hot blogs, first above max", anon, `{ hotBlogs(first: 21) { edges { cursor } } }`, nil, "BAD_USER_INPUT"},
		{"hot blogs, garbage cursor", anon, `{ hotBlogs(after: "%%%") { edges { cursor } } }`, nil, "BAD_USER_INPUT"},
		{"hot blogs, another list's cursor", anon, `{ hotBlogs(after: "ZmVlZDoxOjE") { edges { cursor } } }`, nil, "BAD_USER_INPUT"},
		{"blogs of a malformed user", anon, `{ blogsOfUser(userId: "0") { edges { cursor } } }`, nil, "BAD_USER_INPUT"},
		{"blogs of user, garbage cursor", anon, `{ blogsOfUser(userId: "1", after: "abc") { edges { cursor } } }`, nil, "BAD_USER_INPUT"},
		{"likers, first above max", anon, `query($id: ID!) { blogLikers(blogId: $id, first: 51) { id } }`, map[string]any{"id": blog.ID}, "BAD_USER_INPUT"},
		{"feed, first above max", user, `{ feed(first: 21) { edges { cursor } } }`, nil, "BAD_USER_INPUT"},
		{"feed, garbage cursor", user, `{ feed(after: "bm9wZQ") { edges { cursor } } }`, nil, "BAD_USER_INPUT"},
		{"feed, zero offset", user, `{ feed(after: "ZmVlZDoxOjA") { edges { cursor } } }`, nil, "BAD_USER_INPUT"},
		{"sign-in month 13", user, `{ signInStatus(month: "2030-13") { month } }`, nil, "BAD_USER_INPUT"},
		{"sign-in month as a date", user, `{ signInStatus(month: "2030-01-01") { month } }`, nil, "BAD_USER_INPUT"},
		{"visitors, reversed range", admin, `{ uniqueVisitors(from: "2030-02-01", to: "2030-01-01") }`, nil, "BAD_USER_INPUT"},
		{"visitors, range too long", admin, `{ uniqueVisitors(from: "2028-01-01", to: "2030-01-01") }`, nil, "BAD_USER_INPUT"},
		{"visitors, not a date", admin, `{ uniqueVisitors(from: "yesterday", to: "2030-01-01") }`, nil, "BAD_USER_INPUT"},
		{"visitors, date variable not a date", admin, `query($f: Date!) { uniqueVisitors(from: $f, to: "2030-01-01") }`, map[string]any{"f": "2030-02-30"}, "BAD_USER_INPUT"},
		{"visitors, malformed shop", admin, `{ uniqueVisitors(from: "2030-01-01", to: "2030-01-01", shopId: "s") }`, nil, "BAD_USER_INPUT"},
	}
	for _, tc := range cases {
		wantCode(t, tc.name, tc.c.Do(t, tc.query, tc.vars), tc.code)
	}
}

// withEnv returns a copy of env with extra's entries added.
func withEnv(env, extra map[string]string) map[string]string {
	out := make(map[string]string, len(env)+len(extra))
	for k, v := range env {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}
