//go:build stress

package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
)

// Day after day users like, unlike and sign in while Redis is emptied again and again:
// at the end every like and every sign-in is there, each blog's count equals its likes in
// the database, and the API and Redis agree with the database.
func TestUserFactsSurviveRepeatedRedisWipes(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		env = withEnv(env, map[string]string{"GRAPHQL_EXEC_TIMEOUT": "2m", "DEALSPOT_TIMEZONE": "UTC"})
		day := func(d int) time.Time { return time.Date(2030, time.March, d, 10, 0, 0, 0, time.UTC) }
		clock := newTestClock(day(1))
		srv, svc, _ := startSocial(t, env, clock)
		anon := client(srv)
		author := as(srv, login(t, anon, "13700000970").AccessToken)
		var blogIDs []string
		for i := range 4 {
			blogIDs = append(blogIDs, createBlog(t, author, fmt.Sprint("stress-", i)).ID)
		}
		const users, days = 30, 8
		phone := func(i int) string { return fmt.Sprintf("137%08d", 3000+i) }
		tokens := make([]string, users)
		for i := range users {
			tokens[i] = login(t, anon, phone(i)).AccessToken
		}
		hc := pooledHTTP(t, users)
		url := srv.URL + "/graphql"
		// clicks[i][b] counts user i's clicks on blog b's like button: likeBlog, then
		// unlikeBlog, in turn.
		clicks := make([][]int, users)
		for i := range clicks {
			clicks[i] = make([]int, len(blogIDs))
		}
		var wipes atomic.Int64
		// call runs a request as user i, signing in again when a wipe ended the session
		// (sessions are not this test's subject; a refused request did nothing).
		call := func(i int, query string, vars map[string]any) error {
			_, err := postGraphQL(hc, url, tokens[i], query, vars)
			if isUnauthenticated(err) {
				if tokens[i], err = loginAsync(hc, url, phone(i)); err == nil {
					_, err = postGraphQL(hc, url, tokens[i], query, vars)
				}
			}
			return err
		}
		for d := 1; d <= days; d++ {
			clock.Set(day(d))
			var (
				wg   sync.WaitGroup
				done atomic.Int64
				once sync.Once
				errs = make(chan error, users+1)
			)
			const perUser = 3
			for i := range users {
				wg.Go(func() {
					r := rand.New(rand.NewPCG(uint64(i), uint64(d)))
					for k := range perUser {
						b := r.IntN(len(blogIDs))
						mutation := "likeBlog"
						if clicks[i][b]%2 == 1 {
							mutation = "unlikeBlog"
						}
						if err := call(i, `mutation($id: ID!) { `+mutation+`(id: $id) { id } }`, map[string]any{"id": blogIDs[b]}); err != nil {
							errs <- fmt.Errorf("user %d likes blog %d: %w", i, b, err)
							return
						}
						clicks[i][b]++
						if k == 1 {
							if err := call(i, `mutation { signIn { month } }`, nil); err != nil {
								errs <- fmt.Errorf("user %d signs in: %w", i, err)
								return
							}
						}
						// Every other day Redis is emptied halfway through the day.
						if done.Add(1) == users*perUser/2 && d%2 == 0 {
							once.Do(func() {
								if err := svc.Redis.Client.FlushDB(context.Background()).Err(); err != nil {
									errs <- err
								}
								wipes.Add(1)
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
		}
		if wipes.Load() != days/2 {
			t.Fatalf("%d wipes, want %d", wipes.Load(), days/2)
		}
		// One more wipe before reading: every answer below comes from the database
		// through a cache loaded afresh.
		wipeRedis(t, svc)
		for i := range users {
			tokens[i] = login(t, anon, phone(i)).AccessToken
		}
		wantDays := make([]int, days)
		for d := range wantDays {
			wantDays[d] = d + 1
		}
		for i := range users {
			c := as(srv, tokens[i])
			var st struct {
				SignInStatus struct {
					SignedDays      []int
					ConsecutiveDays int
				}
			}
			c.Do(t, `query { signInStatus { signedDays consecutiveDays } }`, nil).Decode(t, &st)
			if !slices.Equal(st.SignInStatus.SignedDays, wantDays) || st.SignInStatus.ConsecutiveDays != days {
				t.Fatalf("user %d's sign-ins = %+v, want days 1…%d", i, st.SignInStatus, days)
			}
			for b, id := range blogIDs {
				var out struct{ Blog struct{ LikedByMe bool } }
				c.Do(t, `query($id: ID!) { blog(id: $id) { likedByMe } }`, map[string]any{"id": id}).Decode(t, &out)
				if want := clicks[i][b]%2 == 1; out.Blog.LikedByMe != want {
					t.Fatalf("user %d clicked blog %d %d times: likedByMe %v", i, b, clicks[i][b], out.Blog.LikedByMe)
				}
			}
		}
		likes := redisadapter.NewLikes(svc.Redis.Client)
		for b, id := range blogIDs {
			want := 0
			for i := range users {
				want += clicks[i][b] % 2
			}
			blogID := mustID(t, id)
			stored, err := svc.Store.Blogs().Blog(context.Background(), blogID)
			if err != nil {
				t.Fatal(err)
			}
			cached, err := likes.Count(context.Background(), blogID)
			if err != nil {
				t.Fatal(err)
			}
			var out struct {
				Blog       struct{ LikedCount int }
				BlogLikers []struct{ ID string }
			}
			anon.Do(t, `query($id: ID!) { blog(id: $id) { likedCount } blogLikers(blogId: $id, first: 50) { id } }`,
				map[string]any{"id": id}).Decode(t, &out)
			rows := storedLikes(t, svc, blogID)
			if stored.Liked != want || rows != want || cached != want || out.Blog.LikedCount != want || len(out.BlogLikers) != want {
				t.Fatalf("blog %d: count %d, database likes %d, Redis %d, API %d, likers %d; want all %d",
					b, stored.Liked, rows, cached, out.Blog.LikedCount, len(out.BlogLikers), want)
			}
		}
		raw, _ := json.Marshal(clicks)
		t.Logf("clicks per user and blog: %s", raw)
	})
}
