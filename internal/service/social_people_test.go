package service_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

const profileQuery = `query($id: ID!) { user(id: $id) { id nickName phone role createdAt city introduction gender birthday
	followerCount followingCount blogCount isFollowedByMe } }`

type profile struct {
	User *struct {
		ID, NickName, Phone, City, Introduction, Gender string
		Role, CreatedAt, Birthday                       *string
		FollowerCount, FollowingCount, BlogCount        int
		IsFollowedByMe                                  bool
	}
}

// TestProfilesOverHTTP: a user edits their profile; others see it without the
// birthday, role and creation time (an ADMIN sees role and creation time), with the
// counts and whether they follow; bad profile input is refused.
func TestProfilesOverHTTP(t *testing.T) {
	t.Parallel()
	const adminPhone = "13900000501"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone})
	anon := client(srv)
	owner, other, admin := client(srv), client(srv), client(srv)
	o := login(t, anon, "13900000502")
	owner.Token = o.AccessToken
	other.Token = login(t, anon, "13900000503").AccessToken
	admin.Token = login(t, anon, adminPhone).AccessToken

	var upd struct {
		UpdateProfile struct{ NickName, City, Gender string }
	}
	owner.Do(t, `mutation { updateProfile(input: {nickName: " 小鱼 ", city: "杭州", introduction: "爱吃", gender: FEMALE, birthday: "1990-05-17"}) {
		nickName city gender } }`, nil).Decode(t, &upd)
	if upd.UpdateProfile.NickName != "小鱼" || upd.UpdateProfile.City != "杭州" || upd.UpdateProfile.Gender != "FEMALE" {
		t.Fatalf("updated profile %+v", upd)
	}
	other.Do(t, `mutation($u: ID!) { follow(userId: $u) }`, map[string]any{"u": o.User.ID}).Decode(t, &struct{ Follow bool }{})
	owner.Do(t, `mutation { createBlog(input: {shopId: "1", title: "t", content: "c", images: []}) { id } }`, nil).Decode(t, &struct{ CreateBlog struct{ ID string } }{})

	var seen profile
	other.Do(t, profileQuery, map[string]any{"id": o.User.ID}).Decode(t, &seen)
	u := seen.User
	if u == nil || u.NickName != "小鱼" || u.City != "杭州" || u.Introduction != "爱吃" || u.Gender != "FEMALE" ||
		u.Birthday != nil || u.Role != nil || u.CreatedAt != nil || u.Phone != "139****0502" ||
		u.FollowerCount != 1 || u.FollowingCount != 0 || u.BlogCount != 1 || !u.IsFollowedByMe {
		t.Fatalf("another user sees %+v", u)
	}
	var own profile
	owner.Do(t, profileQuery, map[string]any{"id": o.User.ID}).Decode(t, &own)
	if u := own.User; u.Birthday == nil || *u.Birthday != "1990-05-17" || u.Role == nil || u.Phone != "13900000502" || u.IsFollowedByMe {
		t.Fatalf("the owner sees %+v", u)
	}
	var byAdmin profile
	admin.Do(t, profileQuery, map[string]any{"id": o.User.ID}).Decode(t, &byAdmin)
	if u := byAdmin.User; u.Role == nil || *u.Role != "USER" || u.CreatedAt == nil || u.Birthday != nil {
		t.Fatalf("an admin sees %+v", u)
	}
	var none profile
	anon.Do(t, profileQuery, map[string]any{"id": "987654321"}).Decode(t, &none)
	if none.User != nil {
		t.Errorf("an unknown user: %+v", none.User)
	}
	for name, in := range map[string]string{
		"empty nickname":     `{nickName: "  "}`,
		"long nickname":      fmt.Sprintf(`{nickName: "%s"}`, repeat("鱼", 33)),
		"long introduction":  fmt.Sprintf(`{introduction: "%s"}`, repeat("介", 256)),
		"future birthday":    fmt.Sprintf(`{birthday: %q}`, time.Now().AddDate(1, 0, 0).Format("2006-01-02")),
		"script icon":        `{icon: "javascript:alert(1)"}`,
		"icon on plain http": `{icon: "http://x.example/a.png"}`,
	} {
		wantCode(t, name, owner.Do(t, `mutation { updateProfile(input: `+in+`) { id } }`, nil), "BAD_USER_INPUT")
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

// TestFollowersPageExactlyWhileOthersFollow: a client pages through a user's followers,
// five at a time, while other users follow and unfollow them all along; every follower
// who stayed is listed exactly once, and no one twice. The same holds for paging whom a
// user follows while that user follows and unfollows others.
func TestFollowersPageExactlyWhileOthersFollow(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret,
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t)})
	anon := client(srv)
	star := login(t, anon, "13900000600")
	stay := map[string]bool{}
	for i := range 30 {
		c := client(srv)
		a := login(t, anon, fmt.Sprintf("139000061%02d", i))
		c.Token = a.AccessToken
		c.Do(t, `mutation($u: ID!) { follow(userId: $u) }`, map[string]any{"u": star.User.ID}).Decode(t, &struct{ Follow bool }{})
		stay[a.User.ID] = true
	}
	var churners []struct {
		c  testsupport.GraphQLClient
		id string
	}
	for i := range 10 {
		c := client(srv)
		a := login(t, anon, fmt.Sprintf("139000062%02d", i))
		c.Token = a.AccessToken
		churners = append(churners, struct {
			c  testsupport.GraphQLClient
			id string
		}{c, a.User.ID})
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for _, ch := range churners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				ch.c.Do(t, `mutation($u: ID!) { follow(userId: $u) }`, map[string]any{"u": star.User.ID})
				ch.c.Do(t, `mutation($u: ID!) { unfollow(userId: $u) }`, map[string]any{"u": star.User.ID})
			}
		}()
	}
	listed := map[string]int{}
	var after *string
	for pages := 0; ; pages++ {
		var out struct {
			Followers struct {
				Edges []struct {
					Node struct{ ID string }
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		anon.Do(t, `query($u: ID!, $a: String) { followers(userId: $u, first: 5, after: $a) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
			map[string]any{"u": star.User.ID, "a": after}).Decode(t, &out)
		for _, e := range out.Followers.Edges {
			listed[e.Node.ID]++
		}
		time.Sleep(10 * time.Millisecond) // let the others follow and unfollow between pages
		if !out.Followers.PageInfo.HasNextPage || pages > 100 {
			break
		}
		after = out.Followers.PageInfo.EndCursor
	}
	stop.Store(true)
	wg.Wait()
	for id := range stay {
		if listed[id] != 1 {
			t.Errorf("follower %s listed %d times", id, listed[id])
		}
	}
	for id, n := range listed {
		if n > 1 {
			t.Errorf("user %s listed %d times", id, n)
		}
	}
	var counts profile
	anon.Do(t, profileQuery, map[string]any{"id": star.User.ID}).Decode(t, &counts)
	if counts.User.FollowerCount != 30 {
		t.Errorf("followerCount %d after the churn, want 30", counts.User.FollowerCount)
	}

	// The other way round: a fan follows the 30 followers above while unfollowing and
	// following the 10 churners again and again; paging whom the fan follows lists each
	// of the 30 once.
	fan := client(srv)
	f := login(t, anon, "13900000699")
	fan.Token = f.AccessToken
	for id := range stay {
		fan.Do(t, `mutation($u: ID!) { follow(userId: $u) }`, map[string]any{"u": id}).Decode(t, &struct{ Follow bool }{})
	}
	stop.Store(false)
	for _, ch := range churners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				fan.Do(t, `mutation($u: ID!) { follow(userId: $u) }`, map[string]any{"u": ch.id})
				fan.Do(t, `mutation($u: ID!) { unfollow(userId: $u) }`, map[string]any{"u": ch.id})
			}
		}()
	}
	followed := map[string]int{}
	after = nil
	for pages := 0; ; pages++ {
		var out struct {
			Following struct {
				Edges []struct {
					Node struct{ ID string }
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		anon.Do(t, `query($u: ID!, $a: String) { following(userId: $u, first: 5, after: $a) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
			map[string]any{"u": f.User.ID, "a": after}).Decode(t, &out)
		for _, e := range out.Following.Edges {
			followed[e.Node.ID]++
		}
		time.Sleep(10 * time.Millisecond)
		if !out.Following.PageInfo.HasNextPage || pages > 100 {
			break
		}
		after = out.Following.PageInfo.EndCursor
	}
	stop.Store(true)
	wg.Wait()
	for id := range stay {
		if followed[id] != 1 {
			t.Errorf("followed user %s listed %d times", id, followed[id])
		}
	}
	for id, n := range followed {
		if n > 1 {
			t.Errorf("followed user %s listed %d times", id, n)
		}
	}
}
