package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/testsupport"
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
		// wave has every user send mutation (likeBlog or unlikeBlog) clicks times at once
		// and returns each user's answers of likedByMe, one per click.
		wave := func(mutation string, clicks int) [][]bool {
			t.Helper()
			var wg sync.WaitGroup
			answers := make([][]bool, users)
			errs := make(chan error, users*clicks)
			for i := range users {
				answers[i] = make([]bool, clicks)
				for k := range clicks {
					wg.Go(func() {
						resp, err := postGraphQL(hc, url, tokens[i], `mutation($id: ID!) { `+mutation+`(id: $id) { likedByMe likedCount } }`, map[string]any{"id": blog.ID})
						if err != nil {
							errs <- err
							return
						}
						var out map[string]struct{ LikedByMe bool }
						if err := json.Unmarshal(resp.Data, &out); err != nil {
							errs <- err
							return
						}
						answers[i][k] = out[mutation].LikedByMe
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
		for i, a := range wave("likeBlog", 1) {
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

		for i, a := range wave("unlikeBlog", 1) {
			if a[0] {
				t.Fatalf("user %d's unlike answered likedByMe true", i)
			}
		}
		consistent("each user takes the like back", 0)

		// Repeated clicks: three likes per user at once like once, each answering liked;
		// two unlikes at once take the like back once.
		for i, a := range wave("likeBlog", 3) {
			if !a[0] || !a[1] || !a[2] {
				t.Fatalf("user %d's triple like answered %v", i, a)
			}
		}
		consistent("each user likes three times at once", users)
		var mine struct{ Blog struct{ LikedByMe bool } }
		as(srv, tokens[7]).Do(t, `query($id: ID!) { blog(id: $id) { likedByMe } }`, map[string]any{"id": blog.ID}).Decode(t, &mine)
		if !mine.Blog.LikedByMe {
			t.Fatal("after three likes the user does not like the blog")
		}
		for i, a := range wave("unlikeBlog", 2) {
			if a[0] || a[1] {
				t.Fatalf("user %d's double unlike answered %v", i, a)
			}
		}
		consistent("each user unlikes twice at once", 0)

		// One user liking and unliking on and on: the count follows every step.
		c := as(srv, tokens[0])
		for step := range 6 {
			mutation, want := "likeBlog", 1
			if step%3 == 2 {
				mutation, want = "unlikeBlog", 0
			}
			c.Do(t, `mutation($id: ID!) { `+mutation+`(id: $id) { id } }`, map[string]any{"id": blog.ID}).Decode(t, &struct{}{})
			consistent(fmt.Sprint("step ", step, ": ", mutation), want)
		}
	})
}

// TestLikeAndUnlikeAreIdempotent: likeBlog likes and a retried likeBlog keeps the like;
// unlikeBlog takes it back and a retried unlikeBlog changes nothing; many users liking
// (and then unliking) twice at once leave each like counted once.
func TestLikeAndUnlikeAreIdempotent(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		srv, _, _ := startSocial(t, env, nil)
		anon := client(srv)
		author := as(srv, login(t, anon, "13700000360").AccessToken)
		blog := createBlog(t, author, "idempotent")
		type likeView struct {
			LikedByMe  bool
			LikedCount int
		}
		do := func(c testsupport.GraphQLClient, mutation string) likeView {
			t.Helper()
			var out map[string]likeView
			c.Do(t, `mutation($id: ID!) { `+mutation+`(id: $id) { likedByMe likedCount } }`, map[string]any{"id": blog.ID}).Decode(t, &out)
			return out[mutation]
		}
		for i := range 2 {
			if got := do(author, "likeBlog"); !got.LikedByMe || got.LikedCount != 1 {
				t.Fatalf("likeBlog %d = %+v, want liked, count 1", i+1, got)
			}
		}
		for i := range 2 {
			if got := do(author, "unlikeBlog"); got.LikedByMe || got.LikedCount != 0 {
				t.Fatalf("unlikeBlog %d = %+v, want not liked, count 0", i+1, got)
			}
		}
		wantCode(t, "unliking an unknown note", author.Do(t, `mutation { unlikeBlog(id: "999999") { id } }`, nil), "NOT_FOUND")
		wantCode(t, "unliking anonymously", anon.Do(t, `mutation($id: ID!) { unlikeBlog(id: $id) { id } }`, map[string]any{"id": blog.ID}), "UNAUTHENTICATED")

		const users = 20
		tokens := make([]string, users)
		for i := range tokens {
			tokens[i] = login(t, anon, fmt.Sprintf("137%08d", 3600+i)).AccessToken
		}
		hc := pooledHTTP(t, 2*users)
		wave := func(mutation string, want bool) {
			t.Helper()
			var wg sync.WaitGroup
			for _, token := range tokens {
				for range 2 {
					wg.Go(func() {
						resp, err := postGraphQL(hc, srv.URL+"/graphql", token, `mutation($id: ID!) { `+mutation+`(id: $id) { likedByMe } }`, map[string]any{"id": blog.ID})
						var out map[string]likeView
						if err == nil {
							err = json.Unmarshal(resp.Data, &out)
						}
						if err != nil || out[mutation].LikedByMe != want {
							t.Errorf("%s answered %s, %v", mutation, resp.Data, err)
						}
					})
				}
			}
			wg.Wait()
		}
		count := func() int {
			t.Helper()
			var out struct{ Blog struct{ LikedCount int } }
			anon.Do(t, `query($id: ID!) { blog(id: $id) { likedCount } }`, map[string]any{"id": blog.ID}).Decode(t, &out)
			return out.Blog.LikedCount
		}
		wave("likeBlog", true)
		if n := count(); n != users {
			t.Fatalf("%d users liking twice at once: likedCount %d", users, n)
		}
		wave("unlikeBlog", false)
		if n := count(); n != 0 {
			t.Fatalf("%d users unliking twice at once: likedCount %d", users, n)
		}
	})
}
