package service_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

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
			b.Shop == nil || b.Shop.ID != "1" || b.Shop.Name == "" || !slices.Equal(urlsOf(b.Images), []string{"https://img.example.com/blogs/hot-3.jpg"}) || b.Images[0].Width != nil {
			t.Fatalf("blog = %+v", one.Blog)
		}
		anon.Do(t, `{ blog(id: "999999") { id } }`, nil).Decode(t, &one)
		if one.Blog != nil {
			t.Fatalf("unknown blog = %+v, want null", one.Blog)
		}
	})
}
