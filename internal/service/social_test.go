package service_test

import (
	"bytes"
	"cmp"
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

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
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
func startSocial(t *testing.T, env map[string]string, clock *testClock) (*httptest.Server, *service.Service, func()) {
	t.Helper()
	vars := map[string]string{"DEALSPOT_DATA_DIR": t.TempDir(), "JWT_SECRET": testSecret}
	for k, v := range env {
		vars[k] = v
	}
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
	Images     []string
	Author     struct{ ID, NickName string }
	Shop       *struct{ ID, Name string }
	LikedCount int
	LikedByMe  bool
	CreatedAt  time.Time
}

const blogFields = `id title images author { id nickName } shop { id name } likedCount likedByMe createdAt`

func createBlog(t *testing.T, c testsupport.GraphQLClient, title string) blogNode {
	t.Helper()
	var out struct{ CreateBlog blogNode }
	c.Do(t, `mutation($in: CreateBlogInput!) { createBlog(input: $in) { `+blogFields+` } }`, map[string]any{"in": map[string]any{
		"shopId": "1", "title": title, "content": "正文 " + title, "images": []string{"/imgs/blogs/" + title + ".jpg"},
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

func TestFeedPagesEachBlogOnceNewestFirst(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		base := time.Date(2030, 6, 1, 10, 0, 0, 0, time.UTC)
		clock := newTestClock(base)
		srv, _, _ := startSocial(t, env, clock)
		anon := client(srv)
		reader := as(srv, login(t, anon, "13700000100").AccessToken)
		var authors []testsupport.GraphQLClient
		for i := range 3 {
			a := login(t, anon, fmt.Sprint("1370000010", i+1))
			authors = append(authors, as(srv, a.AccessToken))
			follow(t, reader, a.User.ID)
		}

		// 250 blogs, the three authors taking turns, ten per timestamp and the first 40
		// all at one instant, so page boundaries fall inside runs of equal timestamps.
		type published struct {
			id string
			at time.Time
		}
		var all []published
		for i := range 250 {
			at := base.Add(time.Duration(max(0, (i-30)/10)) * time.Second)
			clock.Set(at)
			b := createBlog(t, authors[i%3], fmt.Sprint("blog-", i))
			if !b.CreatedAt.Equal(at) {
				t.Fatalf("blog %d created at %v, want %v", i, b.CreatedAt, at)
			}
			all = append(all, published{b.ID, at})
		}
		slices.SortFunc(all, func(a, b published) int {
			return cmp.Or(b.at.Compare(a.at), cmp.Compare(mustID(t, b.id), mustID(t, a.id)))
		})
		want := make([]string, len(all))
		for i, p := range all {
			want[i] = p.id
		}

		var got []string
		seen := map[string]bool{}
		after := ""
		for page := 0; ; page++ {
			if page == 3 {
				// A blog published while the reader pages is newer than the cursor: it
				// must not show up further down.
				clock.Set(base.Add(time.Hour))
				createBlog(t, authors[0], "late")
			}
			p := readFeed(t, reader, 7, after)
			if len(p.Edges) > 7 {
				t.Fatalf("page %d has %d edges", page, len(p.Edges))
			}
			for _, e := range p.Edges {
				if seen[e.Node.ID] {
					t.Fatalf("blog %s returned twice", e.Node.ID)
				}
				seen[e.Node.ID] = true
				got = append(got, e.Node.ID)
			}
			if !p.PageInfo.HasNextPage {
				break
			}
			if page > 100 {
				t.Fatal("paging does not end")
			}
			after = *p.PageInfo.EndCursor
		}
		if !slices.Equal(got, want) {
			t.Fatalf("feed returned %d blogs; want all %d once, newest first\n got %v\nwant %v", len(got), len(want), got, want)
		}
		// From the top again, the late blog comes first.
		again := feedIDs(t, reader, 7)
		if len(again) != 251 || !slices.Equal(again[1:], want) {
			t.Fatalf("second pass: %d blogs, want the late one and the 250", len(again))
		}
	})
}

func TestFeedFansOutThroughTheQueueAndFollowsChange(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		env["FEED_SYNC_FANOUT_MAX"] = "0" // every blog goes through the fan-out stream
		srv, _, _ := startSocial(t, env, nil)
		anon := client(srv)
		author := login(t, anon, "13700000200")
		authorC := as(srv, author.AccessToken)
		var followers []testsupport.GraphQLClient
		for i := range 5 {
			f := as(srv, login(t, anon, fmt.Sprint("1370000021", i)).AccessToken)
			follow(t, f, author.User.ID)
			followers = append(followers, f)
		}
		b := createBlog(t, authorC, "fan-out")
		deadline := time.Now().Add(15 * time.Second)
		for i, f := range followers {
			for {
				ids := feedIDs(t, f, 10)
				if slices.Equal(ids, []string{b.ID}) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("follower %d's feed = %v, want [%s]", i, ids, b.ID)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		// The author's own feed holds only blogs of people they follow.
		if ids := feedIDs(t, authorC, 10); len(ids) != 0 {
			t.Fatalf("author's feed = %v, want empty", ids)
		}

		// A new follower gets the author's latest blogs at once …
		late := as(srv, login(t, anon, "13700000220").AccessToken)
		follow(t, late, author.User.ID)
		if ids := feedIDs(t, late, 10); !slices.Equal(ids, []string{b.ID}) {
			t.Fatalf("new follower's feed = %v, want [%s]", ids, b.ID)
		}
		// … and loses them on unfollowing.
		var out struct{ Unfollow, IsFollowing bool }
		late.Do(t, `mutation($u: ID!) { unfollow(userId: $u) }`, map[string]any{"u": author.User.ID}).Decode(t, &out)
		late.Do(t, `query($u: ID!) { isFollowing(userId: $u) }`, map[string]any{"u": author.User.ID}).Decode(t, &out)
		if !out.Unfollow || out.IsFollowing {
			t.Fatalf("unfollow %v, isFollowing %v", out.Unfollow, out.IsFollowing)
		}
		if ids := feedIDs(t, late, 10); len(ids) != 0 {
			t.Fatalf("feed after unfollowing = %v, want empty", ids)
		}
	})
}

func TestLikesStayConsistentUnderConcurrency(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		// Hundreds of concurrent requests may queue on a busy machine: the test is about
		// consistency, so no request may be cut off by the execution time limit.
		env = withEnv(env, map[string]string{"GRAPHQL_EXEC_TIMEOUT": "2m"})
		srv, svc, _ := startSocial(t, env, nil)
		anon := client(srv)
		author := as(srv, login(t, anon, "13700000300").AccessToken)
		blog := createBlog(t, author, "liked")
		blogID := mustID(t, blog.ID)
		const users = 100
		tokens := make([]string, users)
		userIDs := make([]string, users)
		for i := range users {
			s := login(t, anon, fmt.Sprintf("137%08d", 1000+i))
			tokens[i], userIDs[i] = s.AccessToken, s.User.ID
		}
		likes := redisadapter.NewLikes(svc.Redis.Client)
		// consistent checks that the database count, the like set and the API agree.
		consistent := func(what string, want int) {
			t.Helper()
			stored, err := svc.Store.Blogs().Blog(context.Background(), blogID)
			if err != nil {
				t.Fatal(err)
			}
			set, err := likes.Count(context.Background(), blogID)
			if err != nil {
				t.Fatal(err)
			}
			var out struct{ Blog struct{ LikedCount int } }
			anon.Do(t, `query($id: ID!) { blog(id: $id) { likedCount } }`, map[string]any{"id": blog.ID}).Decode(t, &out)
			if stored.Liked != set || set != want || out.Blog.LikedCount != want {
				t.Fatalf("%s: database %d, like set %d, API %d; want all %d", what, stored.Liked, set, out.Blog.LikedCount, want)
			}
		}
		hc := pooledHTTP(t, 2*users)
		url := srv.URL + "/graphql"
		// wave has every user click like clicks times at once and returns each user's
		// last answer of likedByMe per click.
		wave := func(clicks int) [][]bool {
			t.Helper()
			var wg sync.WaitGroup
			answers := make([][]bool, users)
			errs := make(chan error, users*clicks)
			for i := range users {
				answers[i] = make([]bool, clicks)
				for k := range clicks {
					wg.Go(func() {
						resp, err := postGraphQL(hc, url, tokens[i], `mutation($id: ID!) { likeBlog(id: $id) { likedByMe likedCount } }`, map[string]any{"id": blog.ID})
						if err != nil {
							errs <- err
							return
						}
						var out struct{ LikeBlog struct{ LikedByMe bool } }
						if err := json.Unmarshal(resp.Data, &out); err != nil {
							errs <- err
							return
						}
						answers[i][k] = out.LikeBlog.LikedByMe
					})
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			return answers
		}
		for i, a := range wave(1) {
			if !a[0] {
				t.Fatalf("user %d's like answered likedByMe false", i)
			}
		}
		consistent("100 users like at once", users)

		var likers []struct{ ID string }
		anon.Do(t, `query($id: ID!) { blogLikers(blogId: $id, first: 50) { id } }`, map[string]any{"id": blog.ID}).Decode(t, &struct{ BlogLikers *[]struct{ ID string } }{&likers})
		if len(likers) != 50 {
			t.Fatalf("blogLikers(first: 50) gave %d", len(likers))
		}
		var top []struct{ ID string }
		anon.Do(t, `query($id: ID!) { blogLikers(blogId: $id) { id } }`, map[string]any{"id": blog.ID}).Decode(t, &struct{ BlogLikers *[]struct{ ID string } }{&top})
		if len(top) != 5 || top[0].ID != likers[0].ID || top[4].ID != likers[4].ID {
			t.Fatalf("blogLikers default = %v, want the first 5 of %v", top, likers[:5])
		}
		for _, l := range likers {
			if !slices.Contains(userIDs, l.ID) {
				t.Fatalf("liker %s is none of the users", l.ID)
			}
		}

		for i, a := range wave(1) {
			if a[0] {
				t.Fatalf("user %d's unlike answered likedByMe true", i)
			}
		}
		consistent("each user takes the like back", 0)

		// Double clicks: two toggles per user at once end where they started, each user
		// seeing one like and one unlike.
		for i, a := range wave(2) {
			if a[0] == a[1] {
				t.Fatalf("user %d's double click answered %v twice", i, a[0])
			}
		}
		consistent("each user double-clicks", 0)
		wave(3)
		consistent("each user triple-clicks", users)
		var mine struct{ Blog struct{ LikedByMe bool } }
		as(srv, tokens[7]).Do(t, `query($id: ID!) { blog(id: $id) { likedByMe } }`, map[string]any{"id": blog.ID}).Decode(t, &mine)
		if !mine.Blog.LikedByMe {
			t.Fatal("after three clicks the user does not like the blog")
		}

		// One user toggling on and on: the count follows every step (unlike, like, …).
		c := as(srv, tokens[0])
		for step := range 6 {
			c.Do(t, `mutation($id: ID!) { likeBlog(id: $id) { id } }`, map[string]any{"id": blog.ID}).Decode(t, &struct{}{})
			want := users
			if step%2 == 0 {
				want = users - 1
			}
			consistent(fmt.Sprint("single toggle ", step), want)
		}
	})
}

func TestHotBlogsAndBlogsOfUserPage(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		srv, _, _ := startSocial(t, env, nil)
		anon := client(srv)
		author := login(t, anon, "13700000400")
		ac := as(srv, author.AccessToken)
		var ids []string
		for i := range 5 {
			ids = append(ids, createBlog(t, ac, fmt.Sprint("hot-", i)).ID)
		}
		// Likes: blog 3 ×3, blog 1 ×2, blog 4 ×2, the rest none.
		var likers []testsupport.GraphQLClient
		for k := range 3 {
			likers = append(likers, as(srv, login(t, anon, fmt.Sprintf("1370000041%d", k)).AccessToken))
		}
		for i, n := range map[int]int{3: 3, 1: 2, 4: 2} {
			for _, c := range likers[:n] {
				c.Do(t, `mutation($id: ID!) { likeBlog(id: $id) { id } }`, map[string]any{"id": ids[i]}).Decode(t, &struct{}{})
			}
		}
		want := []string{ids[3], ids[4], ids[1], ids[2], ids[0]}
		type page struct {
			Edges []struct {
				Node struct {
					ID         string
					LikedCount int
				}
			}
			PageInfo struct {
				HasNextPage bool
				EndCursor   *string
			}
		}
		pageThrough := func(query string, vars map[string]any, pick func(data json.RawMessage) page) []string {
			var got []string
			after := ""
			for range 20 {
				v := map[string]any{"first": 2}
				for k, x := range vars {
					v[k] = x
				}
				if after != "" {
					v["after"] = after
				}
				resp := anon.Do(t, query, v)
				if len(resp.Errors) > 0 {
					t.Fatalf("%+v", resp.Errors)
				}
				p := pick(resp.Data)
				for _, e := range p.Edges {
					got = append(got, e.Node.ID)
				}
				if !p.PageInfo.HasNextPage {
					return got
				}
				after = *p.PageInfo.EndCursor
			}
			t.Fatal("paging does not end")
			return nil
		}
		hot := pageThrough(`query($first: Int, $after: String) { hotBlogs(first: $first, after: $after) { edges { node { id likedCount } } pageInfo { hasNextPage endCursor } } }`, nil,
			func(data json.RawMessage) page {
				var out struct{ HotBlogs page }
				_ = json.Unmarshal(data, &out)
				return out.HotBlogs
			})
		// The demo notes rank among them; their order is checked elsewhere.
		hot = slices.DeleteFunc(hot, func(id string) bool { return !slices.Contains(ids, id) })
		if !slices.Equal(hot, want) {
			t.Fatalf("hotBlogs = %v, want %v", hot, want)
		}
		mine := pageThrough(`query($u: ID!, $first: Int, $after: String) { blogsOfUser(userId: $u, first: $first, after: $after) { edges { node { id likedCount } } pageInfo { hasNextPage endCursor } } }`,
			map[string]any{"u": author.User.ID},
			func(data json.RawMessage) page {
				var out struct{ BlogsOfUser page }
				_ = json.Unmarshal(data, &out)
				return out.BlogsOfUser
			})
		newest := slices.Clone(ids)
		slices.Reverse(newest)
		if !slices.Equal(mine, newest) {
			t.Fatalf("blogsOfUser = %v, want newest first %v", mine, newest)
		}
		var one struct{ Blog *blogNode }
		anon.Do(t, `query($id: ID!) { blog(id: $id) { `+blogFields+` } }`, map[string]any{"id": ids[3]}).Decode(t, &one)
		if b := one.Blog; b == nil || b.LikedCount != 3 || b.LikedByMe || b.Author.ID != author.User.ID ||
			b.Shop == nil || b.Shop.ID != "1" || b.Shop.Name == "" || !slices.Equal(b.Images, []string{"/imgs/blogs/hot-3.jpg"}) {
			t.Fatalf("blog = %+v", one.Blog)
		}
		anon.Do(t, `{ blog(id: "999999") { id } }`, nil).Decode(t, &one)
		if one.Blog != nil {
			t.Fatalf("unknown blog = %+v, want null", one.Blog)
		}
	})
}

func TestFollowsAndCommonFollowsSurviveALostRedis(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		srv, svc, stop := startSocial(t, env, nil)
		anon := client(srv)
		phones := map[string]string{"a": "13700000501", "b": "13700000502", "x": "13700000503", "y": "13700000504", "z": "13700000505", "w": "13700000506"}
		ids := map[string]string{}
		tokens := map[string]string{}
		for name, phone := range phones {
			s := login(t, anon, phone)
			ids[name], tokens[name] = s.User.ID, s.AccessToken
		}
		for _, f := range []struct{ who, whom string }{{"a", "x"}, {"a", "y"}, {"a", "z"}, {"b", "y"}, {"b", "z"}, {"b", "w"}, {"a", "x"}} {
			follow(t, as(srv, tokens[f.who]), ids[f.whom])
		}
		check := func(srv *httptest.Server, tokenA string) {
			t.Helper()
			a := as(srv, tokenA)
			var out struct {
				IsFollowing, NotFollowing bool
				CommonFollows             []struct{ ID, Phone string }
			}
			a.Do(t, `query($x: ID!, $w: ID!, $b: ID!) { isFollowing(userId: $x) notFollowing: isFollowing(userId: $w) commonFollows(userId: $b) { id phone } }`,
				map[string]any{"x": ids["x"], "w": ids["w"], "b": ids["b"]}).Decode(t, &out)
			var common []string
			for _, u := range out.CommonFollows {
				common = append(common, u.ID)
				if !strings.Contains(u.Phone, "****") {
					t.Errorf("someone else's phone shown unmasked: %s", u.Phone)
				}
			}
			want := []string{ids["y"], ids["z"]}
			slices.SortFunc(want, func(p, q string) int { return cmp.Compare(mustID(t, p), mustID(t, q)) })
			if !out.IsFollowing || out.NotFollowing || !slices.Equal(common, want) {
				t.Fatalf("isFollowing x %v, w %v, commonFollows %v; want true, false, %v", out.IsFollowing, out.NotFollowing, common, want)
			}
		}
		check(srv, tokens["a"])

		// Redis loses everything (restarted without persistence): the follow sets are
		// rebuilt from the database at start.
		if env["REDIS_URL"] != "" {
			if err := svc.Redis.Client.FlushDB(context.Background()).Err(); err != nil {
				t.Fatal(err)
			}
		}
		stop()
		srv2, _, _ := startSocial(t, env, nil)
		check(srv2, login(t, client(srv2), phones["a"]).AccessToken)
	})
}

func TestSignInMonthWithGaps(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		env["DEALSPOT_TIMEZONE"] = "Asia/Shanghai"
		// 20:00 UTC is 04:00 the next day in Shanghai.
		day := func(d int) time.Time { return time.Date(2030, time.June, d-1, 20, 0, 0, 0, time.UTC) }
		clock := newTestClock(day(1))
		srv, _, _ := startSocial(t, env, clock)
		c := as(srv, login(t, client(srv), "13700000600").AccessToken)
		type status struct {
			Month           string
			SignedDays      []int
			ConsecutiveDays int
		}
		signIn := func() status {
			var out struct{ SignIn status }
			c.Do(t, `mutation { signIn { month signedDays consecutiveDays } }`, nil).Decode(t, &out)
			return out.SignIn
		}
		current := func(month string) status {
			var out struct{ SignInStatus status }
			vars := map[string]any{}
			if month != "" {
				vars["m"] = month
			}
			c.Do(t, `query($m: String) { signInStatus(month: $m) { month signedDays consecutiveDays } }`, vars).Decode(t, &out)
			return out.SignInStatus
		}
		for _, d := range []int{1, 2, 3, 5, 6, 7} {
			clock.Set(day(d))
			signIn()
		}
		want := status{"2030-06", []int{1, 2, 3, 5, 6, 7}, 3}
		if got := signIn(); !slices.Equal(got.SignedDays, want.SignedDays) || got.ConsecutiveDays != 3 || got.Month != want.Month {
			t.Fatalf("signing twice on day 7 = %+v, want %+v", got, want)
		}
		if got := current(""); !slices.Equal(got.SignedDays, want.SignedDays) || got.ConsecutiveDays != 3 {
			t.Fatalf("status on day 7 = %+v, want %+v", got, want)
		}
		// Day 8, not signed yet: the count back from today is 0 until the user signs.
		clock.Set(day(8))
		if got := current(""); got.ConsecutiveDays != 0 {
			t.Fatalf("status on day 8 before signing = %+v, want 0 consecutive", got)
		}
		if got := signIn(); got.ConsecutiveDays != 4 || !slices.Equal(got.SignedDays, []int{1, 2, 3, 5, 6, 7, 8}) {
			t.Fatalf("sign-in on day 8 = %+v, want 4 consecutive", got)
		}
		// 15:59 UTC is still the 9th in Shanghai, 16:00 the 10th.
		clock.Set(time.Date(2030, time.June, 9, 15, 59, 0, 0, time.UTC))
		if got := signIn(); got.ConsecutiveDays != 5 || got.SignedDays[len(got.SignedDays)-1] != 9 {
			t.Fatalf("sign-in at 23:59 on the 9th (Shanghai) = %+v", got)
		}
		clock.Set(time.Date(2030, time.June, 9, 16, 0, 0, 0, time.UTC))
		if got := signIn(); got.ConsecutiveDays != 6 || got.SignedDays[len(got.SignedDays)-1] != 10 {
			t.Fatalf("sign-in at 00:00 on the 10th (Shanghai) = %+v", got)
		}
		if got := current("2030-05"); got.Month != "2030-05" || len(got.SignedDays) != 0 || got.ConsecutiveDays != 0 {
			t.Fatalf("last month = %+v, want empty", got)
		}
		// Next month: June's run counts back from its last day (the 30th, not signed).
		clock.Set(time.Date(2030, time.July, 2, 4, 0, 0, 0, time.UTC))
		if got := current("2030-06"); got.ConsecutiveDays != 0 || len(got.SignedDays) != 9 {
			t.Fatalf("June seen in July = %+v", got)
		}
	})
}

func TestUniqueVisitorsOfShopsAndBlogs(t *testing.T) {
	t.Parallel()
	redisBackends(t, func(t *testing.T, env map[string]string) {
		const adminPhone = "13700000700"
		env["ADMIN_PHONES"] = adminPhone
		env["DEALSPOT_TIMEZONE"] = "UTC"
		clock := newTestClock(time.Date(2030, 7, 1, 12, 0, 0, 0, time.UTC))
		srv, svc, _ := startSocial(t, env, clock)
		anon := client(srv)
		admin := as(srv, login(t, anon, adminPhone).AccessToken)
		alice := as(srv, login(t, anon, "13700000701").AccessToken)
		bob := as(srv, login(t, anon, "13700000702").AccessToken)
		blog := createBlog(t, bob, "visited")

		view := func(c testsupport.GraphQLClient, q string, times int) {
			for range times {
				c.Do(t, q, nil).Decode(t, &struct{}{})
			}
		}
		// Day 1: alice views shop 1 five times, an anonymous visitor once, bob reads a blog.
		view(alice, `{ shop(id: "1") { id } }`, 5)
		view(anon, `{ shop(id: "1") { id } }`, 1)
		view(bob, `{ blog(id: "`+blog.ID+`") { id } }`, 3)
		view(alice, `{ shop(id: "999999") { id } }`, 1) // unknown shops count nowhere
		if err := svc.Ops.Visits.FlushVisits(context.Background()); err != nil {
			t.Fatal(err)
		}
		// Day 2: alice views shop 2.
		clock.Set(clock.Now().Add(24 * time.Hour))
		view(alice, `{ shop(id: "2") { id } }`, 2)
		if err := svc.Ops.Visits.FlushVisits(context.Background()); err != nil {
			t.Fatal(err)
		}
		var out struct{ Site, Day2, Shop1, Shop2, Shop2Day1, Unknown int }
		admin.Do(t, `{
			site: uniqueVisitors(from: "2030-07-01", to: "2030-07-02")
			day2: uniqueVisitors(from: "2030-07-02", to: "2030-07-02")
			shop1: uniqueVisitors(from: "2030-06-01", to: "2030-07-31", shopId: "1")
			shop2: uniqueVisitors(from: "2030-07-01", to: "2030-07-02", shopId: "2")
			shop2Day1: uniqueVisitors(from: "2030-07-01", to: "2030-07-01", shopId: "2")
			unknown: uniqueVisitors(from: "2030-07-01", to: "2030-07-02", shopId: "999999")
		}`, nil).Decode(t, &out)
		want := struct{ Site, Day2, Shop1, Shop2, Shop2Day1, Unknown int }{Site: 3, Day2: 1, Shop1: 2, Shop2: 1}
		if out != want {
			t.Fatalf("visitors = %+v, want %+v", out, want)
		}
		wantCode(t, "uniqueVisitors as a user", alice.Do(t, `{ uniqueVisitors(from: "2030-07-01", to: "2030-07-02") }`, nil), "FORBIDDEN")
	})
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
