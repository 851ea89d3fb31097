package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/service"
)

// wipeRedis empties the service's Redis database, as a Redis restarted without
// persistence would be.
func wipeRedis(t *testing.T, svc *service.Node) {
	t.Helper()
	if err := svc.Redis.Client.FlushDB(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
}

// storedLikes counts the rows of blog_likes of a blog: the likes the database keeps.
func storedLikes(t *testing.T, svc *service.Node, blogID int64) int {
	t.Helper()
	var n int
	if err := svc.Store.DB().QueryRowContext(context.Background(),
		"SELECT count(*) FROM blog_likes WHERE blog_id = $1", blogID).Scan(&n); err != nil {
		t.Fatalf("count stored likes: %v", err)
	}
	return n
}

// Likes and sign-ins are facts users created: a Redis that comes back empty loses none of
// them, and the next like or sign-in carries on from them.
func TestLikesAndSignInsSurviveAnEmptiedRedis(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		day := func(d, ms int) time.Time {
			return time.Date(2030, time.June, d, 12, 0, 0, ms*int(time.Millisecond), time.FixedZone("CST", 8*3600))
		}
		clock := newTestClock(day(1, 0))
		srv, svc, _ := startSocial(t, withEnv(env, map[string]string{"DEALSPOT_TIMEZONE": "Asia/Shanghai"}), clock)
		anon := client(srv)
		author := as(srv, login(t, anon, "13700000900").AccessToken)
		blog := createBlog(t, author, "kept")
		var users []string
		tokens, phones := map[string]string{}, map[string]string{}
		for _, phone := range []string{"13700000901", "13700000902", "13700000903"} {
			s := login(t, anon, phone)
			users = append(users, s.User.ID)
			tokens[s.User.ID], phones[s.User.ID] = s.AccessToken, phone
		}
		// wipe empties Redis and signs the users in again: sessions are not this test's
		// subject.
		wipe := func() {
			t.Helper()
			wipeRedis(t, svc)
			for _, u := range users {
				tokens[u] = login(t, anon, phones[u]).AccessToken
			}
		}
		// Like in an order other than the ids', one millisecond apart.
		likeOrder := []string{users[1], users[2], users[0]}
		type likeView struct {
			LikedByMe  bool
			LikedCount int
		}
		set := func(mutation, user string) likeView {
			t.Helper()
			var out map[string]likeView
			as(srv, tokens[user]).Do(t, `mutation($id: ID!) { `+mutation+`(id: $id) { likedByMe likedCount } }`,
				map[string]any{"id": blog.ID}).Decode(t, &out)
			return out[mutation]
		}
		like := func(user string) likeView { t.Helper(); return set("likeBlog", user) }
		unlike := func(user string) likeView { t.Helper(); return set("unlikeBlog", user) }
		view := func(user string) likeView {
			t.Helper()
			var out struct{ Blog likeView }
			as(srv, tokens[user]).Do(t, `query($id: ID!) { blog(id: $id) { likedByMe likedCount } }`,
				map[string]any{"id": blog.ID}).Decode(t, &out)
			return out.Blog
		}
		likers := func() []string {
			t.Helper()
			var out struct{ BlogLikers []struct{ ID string } }
			anon.Do(t, `query($id: ID!) { blogLikers(blogId: $id, first: 10) { id } }`, map[string]any{"id": blog.ID}).Decode(t, &out)
			var ids []string
			for _, u := range out.BlogLikers {
				ids = append(ids, u.ID)
			}
			return ids
		}
		type signIns struct {
			SignedDays      []int
			ConsecutiveDays int
		}
		signIn := func(user string) signIns {
			t.Helper()
			var out struct{ SignIn signIns }
			as(srv, tokens[user]).Do(t, `mutation { signIn { signedDays consecutiveDays } }`, nil).Decode(t, &out)
			return out.SignIn
		}
		signStatus := func(user string) signIns {
			t.Helper()
			var out struct{ SignInStatus signIns }
			as(srv, tokens[user]).Do(t, `query { signInStatus(month: "2030-06") { signedDays consecutiveDays } }`, nil).Decode(t, &out)
			return out.SignInStatus
		}

		for i, u := range likeOrder {
			clock.Set(day(1, i))
			if got := like(u); !got.LikedByMe || got.LikedCount != i+1 {
				t.Fatalf("like %d = %+v, want liked, count %d", i, got, i+1)
			}
		}
		if got := likers(); !slices.Equal(got, likeOrder) {
			t.Fatalf("likers = %v, want %v", got, likeOrder)
		}
		for _, d := range []int{1, 2, 3, 5} {
			clock.Set(day(d, 0))
			signIn(users[0])
		}

		wipe()

		if got := view(users[0]); !got.LikedByMe || got.LikedCount != 3 {
			t.Fatalf("after the wipe: %+v, want liked by me, count 3", got)
		}
		if got := likers(); !slices.Equal(got, likeOrder) {
			t.Fatalf("likers after the wipe = %v, want %v", got, likeOrder)
		}
		if got := signStatus(users[0]); !slices.Equal(got.SignedDays, []int{1, 2, 3, 5}) || got.ConsecutiveDays != 1 {
			t.Fatalf("sign-ins after the wipe = %+v, want days 1 2 3 5", got)
		}
		if got := signStatus(users[1]); len(got.SignedDays) != 0 {
			t.Fatalf("sign-ins of a user who never signed in = %+v", got)
		}
		clock.Set(day(6, 0))
		if got := signIn(users[0]); !slices.Equal(got.SignedDays, []int{1, 2, 3, 5, 6}) || got.ConsecutiveDays != 2 {
			t.Fatalf("next sign-in after the wipe = %+v, want days 1 2 3 5 6, 2 in a row", got)
		}

		// Another wipe, then an unlike straight away: it takes the like back and the
		// count goes down by exactly one.
		wipe()
		if got := unlike(users[0]); got.LikedByMe || got.LikedCount != 2 {
			t.Fatalf("unlike after the wipe = %+v, want not liked, count 2", got)
		}
		if got := view(users[1]); !got.LikedByMe || got.LikedCount != 2 {
			t.Fatalf("another liker after the wipe = %+v, want liked, count 2", got)
		}
		if got := likers(); !slices.Equal(got, likeOrder[:2]) {
			t.Fatalf("likers after the unlike = %v, want %v", got, likeOrder[:2])
		}
		clock.Set(day(6, 500))
		if got := like(users[0]); !got.LikedByMe || got.LikedCount != 3 {
			t.Fatalf("like again = %+v, want liked, count 3", got)
		}
		if n := storedLikes(t, svc, mustID(t, blog.ID)); n != 3 {
			t.Fatalf("database holds %d likes, want 3", n)
		}
		wipe()
		if got := signStatus(users[0]); !slices.Equal(got.SignedDays, []int{1, 2, 3, 5, 6}) {
			t.Fatalf("sign-ins after a second wipe = %+v", got)
		}
	})
}

// Users click their like buttons (likeBlog, then unlikeBlog, in turn) concurrently while
// Redis is emptied: each ends where its own clicks lead, and the count, the database's
// likes, the API and Redis agree.
func TestLikesStayConsistentThroughARedisWipe(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		env = withEnv(env, map[string]string{"GRAPHQL_EXEC_TIMEOUT": "2m"})
		srv, svc, _ := startSocial(t, env, nil)
		anon := client(srv)
		author := as(srv, login(t, anon, "13700000950").AccessToken)
		blog := createBlog(t, author, "wiped")
		blogID := mustID(t, blog.ID)
		const users = 40
		tokens := make([]string, users)
		phone := func(i int) string { return fmt.Sprintf("137%08d", 2000+i) }
		for i := range users {
			tokens[i] = login(t, anon, phone(i)).AccessToken
		}
		// User i clicks 1 + i%4 times in a row, liking and unliking in turn: it likes the
		// blog in the end when that is odd.
		clicks := func(i int) int { return 1 + i%4 }
		total := 0
		for i := range users {
			total += clicks(i)
		}
		relogged := make([]bool, users)
		hc := pooledHTTP(t, users)
		url := srv.URL + "/graphql"
		var (
			done  atomic.Int64
			wiped = make(chan struct{})
			once  sync.Once
			wg    sync.WaitGroup
			errs  = make(chan error, total+1)
		)
		for i := range users {
			wg.Go(func() {
				for k := range clicks(i) {
					q := `mutation($id: ID!) { likeBlog(id: $id) { id } }`
					if k%2 == 1 {
						q = `mutation($id: ID!) { unlikeBlog(id: $id) { id } }`
					}
					_, err := postGraphQL(hc, url, tokens[i], q, map[string]any{"id": blog.ID})
					if isUnauthenticated(err) {
						// The wipe ended the session (sessions are not this test's
						// subject); the click did not count: sign in again and repeat it.
						relogged[i] = true
						if tokens[i], err = loginAsync(hc, url, phone(i)); err == nil {
							_, err = postGraphQL(hc, url, tokens[i], q, map[string]any{"id": blog.ID})
						}
					}
					if err != nil {
						errs <- err
						return
					}
					if done.Add(1) == int64(total/2) {
						once.Do(func() {
							if err := svc.Redis.Client.FlushDB(context.Background()).Err(); err != nil {
								errs <- err
							}
							close(wiped)
						})
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		<-wiped
		for i := range users {
			if !relogged[i] {
				tokens[i] = login(t, anon, phone(i)).AccessToken
			}
		}

		want := 0
		for i := range users {
			liked := clicks(i)%2 == 1
			if liked {
				want++
			}
			resp, err := postGraphQL(hc, url, tokens[i], `query($id: ID!) { blog(id: $id) { likedByMe likedCount } }`, map[string]any{"id": blog.ID})
			if err != nil {
				t.Fatal(err)
			}
			var out struct{ Blog struct{ LikedByMe bool } }
			if err := json.Unmarshal(resp.Data, &out); err != nil {
				t.Fatal(err)
			}
			if out.Blog.LikedByMe != liked {
				t.Fatalf("user %d clicked %d times: likedByMe %v", i, clicks(i), out.Blog.LikedByMe)
			}
		}
		stored, err := svc.Store.Blogs().Blog(context.Background(), blogID)
		if err != nil {
			t.Fatal(err)
		}
		rows := storedLikes(t, svc, blogID)
		cached, err := redisadapter.NewLikes(svc.Redis.Client).Count(context.Background(), blogID)
		if err != nil {
			t.Fatal(err)
		}
		var out struct{ Blog struct{ LikedCount int } }
		anon.Do(t, `query($id: ID!) { blog(id: $id) { likedCount } }`, map[string]any{"id": blog.ID}).Decode(t, &out)
		if stored.Liked != want || rows != want || cached != want || out.Blog.LikedCount != want {
			t.Fatalf("count %d, database likes %d, Redis %d, API %d; want all %d", stored.Liked, rows, cached, out.Blog.LikedCount, want)
		}
	})
}

// isUnauthenticated reports whether a postGraphQL error is an UNAUTHENTICATED answer.
func isUnauthenticated(err error) bool {
	return err != nil && strings.Contains(err.Error(), "code:UNAUTHENTICATED")
}

// loginAsync is login for goroutines other than the test's: it reports failures as
// errors.
func loginAsync(hc *http.Client, url, phone string) (string, error) {
	resp, err := postGraphQL(hc, url, "", `mutation($p: String!) { sendLoginCode(phone: $p) { devCode } }`, map[string]any{"p": phone})
	if err != nil {
		return "", err
	}
	var sent struct{ SendLoginCode struct{ DevCode string } }
	if err := json.Unmarshal(resp.Data, &sent); err != nil {
		return "", err
	}
	resp, err = postGraphQL(hc, url, "", `mutation($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken } }`,
		map[string]any{"p": phone, "c": sent.SendLoginCode.DevCode})
	if err != nil {
		return "", err
	}
	var in struct{ Login struct{ AccessToken string } }
	if err := json.Unmarshal(resp.Data, &in); err != nil {
		return "", err
	}
	return in.Login.AccessToken, nil
}

// loginMany logs n users in, alternately through the given GraphQL URLs, and returns
// their access tokens.
func loginMany(t *testing.T, urls []string, n int) []string {
	t.Helper()
	hc := pooledHTTP(t, 16)
	tokens := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				tokens[i], errs[i] = loginAsync(hc, urls[i%len(urls)], fmt.Sprintf("135%08d", i))
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil || tokens[i] == "" {
			t.Fatalf("login of user %d: %v", i, err)
		}
	}
	return tokens
}

// An earlier version kept likes and sign-ins in Redis only. Started on such a Redis, the
// server copies them into the database, so they outlive the next wipe.
func TestLikesAndSignInsOnlyRedisHeldAreCopiedAtStart(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		if env["REDIS_URL"] == "" {
			t.Skip("the embedded Redis starts empty")
		}
		env = withEnv(env, map[string]string{"DEALSPOT_TIMEZONE": "UTC"})
		clock := newTestClock(time.Date(2030, time.June, 20, 12, 0, 0, 0, time.UTC))
		srv, svc, stop := startSocial(t, env, clock)
		anon := client(srv)
		blog := createBlog(t, as(srv, login(t, anon, "13700000980").AccessToken), "old")
		u1, u2 := login(t, anon, "13700000981").User.ID, login(t, anon, "13700000982").User.ID
		// What the earlier version left: a like set without a version, its change number,
		// a month of sign-ins without a TTL.
		ctx := context.Background()
		rc := svc.Redis.Client
		wipeRedis(t, svc)
		key := "blog:liked:{" + blog.ID + "}"
		if err := rc.ZAdd(ctx, key, goredis.Z{Score: 2000, Member: u2}, goredis.Z{Score: 3000, Member: u1}).Err(); err != nil {
			t.Fatal(err)
		}
		rc.Set(ctx, key+":seq", "1893553445000000", 0)
		rc.SetBit(ctx, "sign:"+u1+":203006", 0, 1)
		rc.SetBit(ctx, "sign:"+u1+":203006", 1, 1)
		stop()

		srv, svc, _ = startSocial(t, env, clock)
		anon = client(srv)
		check := func(what string) {
			t.Helper()
			c := as(srv, login(t, anon, "13700000981").AccessToken)
			var out struct {
				Blog struct {
					LikedByMe  bool
					LikedCount int
				}
				BlogLikers   []struct{ ID string }
				SignInStatus struct{ SignedDays []int }
			}
			c.Do(t, `query($id: ID!) { blog(id: $id) { likedByMe likedCount } blogLikers(blogId: $id) { id }
				signInStatus(month: "2030-06") { signedDays } }`, map[string]any{"id": blog.ID}).Decode(t, &out)
			var likers []string
			for _, l := range out.BlogLikers {
				likers = append(likers, l.ID)
			}
			if !out.Blog.LikedByMe || out.Blog.LikedCount != 2 || !slices.Equal(likers, []string{u2, u1}) ||
				!slices.Equal(out.SignInStatus.SignedDays, []int{1, 2}) {
				t.Fatalf("%s: %+v, likers %v; want liked, 2 likes by %v, days 1 2", what, out, likers, []string{u2, u1})
			}
		}
		check("after the start")
		wipeRedis(t, svc)
		check("after a wipe")
	})
}
