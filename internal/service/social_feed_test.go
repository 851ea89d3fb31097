package service_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

func TestFeedPagesEachBlogOnceNewestFirst(t *testing.T) {
	t.Parallel()
	socialBackends(t, func(t *testing.T, env map[string]string) {
		base := time.Date(2030, 6, 1, 10, 0, 0, 0, time.UTC)
		clock := newTestClock(base)
		env["BLOG_RATE_PER_USER"] = "off" // each author publishes 83 notes
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
