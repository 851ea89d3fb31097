package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
)

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
