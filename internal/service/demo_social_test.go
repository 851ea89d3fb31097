package service_test

import (
	"slices"
	"testing"
)

// The README's social examples run against a fresh server: the demo data has people,
// notes, likes and follows, visible through the API as the app itself derives them.
func TestSeededSocialDataIsVisibleThroughTheAPI(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	c := client(srv)

	var hot struct {
		HotBlogs struct {
			Edges []struct {
				Node struct {
					ID         string
					Title      string
					LikedCount int
					Author     struct{ NickName string }
				}
			}
		}
	}
	c.Do(t, `{ hotBlogs(first: 10) { edges { node { id title likedCount author { nickName } } } } }`, nil).Decode(t, &hot)
	if len(hot.HotBlogs.Edges) < 5 {
		t.Fatalf("hotBlogs on a fresh server has %d notes, want the demo notes", len(hot.HotBlogs.Edges))
	}
	top := hot.HotBlogs.Edges[0].Node
	if top.LikedCount < 2 || top.Author.NickName == "" {
		t.Errorf("most liked demo note = %+v, want liked by several demo users and an author", top)
	}

	var likers struct {
		BlogLikers []struct{ ID, NickName string }
	}
	c.Do(t, `query($b: ID!) { blogLikers(blogId: $b, first: 50) { id nickName } }`, map[string]any{"b": top.ID}).Decode(t, &likers)
	if len(likers.BlogLikers) != top.LikedCount {
		t.Errorf("blogLikers of note %s: %d users, want its likedCount %d", top.ID, len(likers.BlogLikers), top.LikedCount)
	}

	c.Token = login(t, c, "13800000001").AccessToken
	var feed struct {
		Feed struct {
			Edges []struct {
				Node struct {
					ID     string
					Author struct{ NickName string }
				}
			}
		}
	}
	c.Do(t, `{ feed(first: 10) { edges { node { id author { nickName } } } } }`, nil).Decode(t, &feed)
	if len(feed.Feed.Edges) == 0 {
		t.Fatal("the first demo user's feed is empty, want the notes of the people they follow")
	}
	var follows struct {
		IsFollowing   bool
		CommonFollows []struct{ ID string }
	}
	c.Do(t, `{ isFollowing(userId: "2") commonFollows(userId: "4") { id } }`, nil).Decode(t, &follows)
	if !follows.IsFollowing || len(follows.CommonFollows) == 0 {
		t.Errorf("demo follows not visible: %+v", follows)
	}
	// User 5 follows user 1, and the demo people like and comment on user 1's notes.
	eventually(t, c, "the first demo user's notifications", true, func(ns []notificationNode, _ int) bool {
		return slices.ContainsFunc(ns, func(n notificationNode) bool { return n.Kind == "FOLLOWED" }) &&
			slices.ContainsFunc(ns, func(n notificationNode) bool { return n.Kind == "BLOG_LIKED" && n.Blog != nil })
	})
}
