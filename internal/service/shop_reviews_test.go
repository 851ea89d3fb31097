package service_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestShopScoreFollowsItsReviews: on a new shop, 40 users publish rated notes at once,
// a quarter re-rate theirs and a quarter delete theirs; the shop's comments (reviews)
// and score are then exactly what the remaining notes add up to, read through the shop
// cache.
func TestShopScoreFollowsItsReviews(t *testing.T) {
	t.Parallel()
	const adminPhone = "13900000801"
	srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t)})
	anon := client(srv)
	admin := client(srv)
	admin.Token = login(t, anon, adminPhone).AccessToken
	var created struct{ CreateShop struct{ ID string } }
	admin.Do(t, `mutation { createShop(input: {name: "新店", typeId: "1", address: "西湖区", longitude: 120.15, latitude: 30.28}) { id } }`, nil).Decode(t, &created)
	shopID := created.CreateShop.ID
	readShop := func() (comments, score int) {
		var out struct{ Shop struct{ Comments, Score int } }
		anon.Do(t, `query($id: ID!) { shop(id: $id) { comments score } }`, map[string]any{"id": shopID}).Decode(t, &out)
		return out.Shop.Comments, out.Shop.Score
	}
	// listedShop finds the shop in the list of its type, page by page (the first pages
	// come from the cached head of the list).
	listedShop := func() (comments, score int) {
		var after *string
		for range 100 {
			var page struct {
				Shops struct {
					Edges []struct {
						Cursor string
						Node   struct {
							ID              string
							Comments, Score int
						}
					}
					PageInfo struct{ HasNextPage bool }
				}
			}
			anon.Do(t, `query($a: String) { shops(typeId: "1", first: 10, after: $a) { edges { cursor node { id comments score } } pageInfo { hasNextPage } } }`,
				map[string]any{"a": after}).Decode(t, &page)
			for _, e := range page.Shops.Edges {
				if e.Node.ID == shopID {
					return e.Node.Comments, e.Node.Score
				}
				after = &e.Cursor
			}
			if !page.Shops.PageInfo.HasNextPage {
				break
			}
		}
		t.Fatalf("shop %s is not listed under its type", shopID)
		return 0, 0
	}
	if c, s := readShop(); c != 0 || s != 0 {
		t.Fatalf("a new shop has %d reviews and score %d", c, s)
	}
	if c, s := listedShop(); c != 0 || s != 0 {
		t.Fatalf("a new shop is listed with %d reviews and score %d", c, s)
	}
	var (
		wg         sync.WaitGroup
		mu         sync.Mutex
		count, sum int
		reviews    int
	)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := client(srv)
			c.Token = login(t, anon, fmt.Sprintf("139000081%02d", i)).AccessToken
			stars := i%5 + 1
			var note struct{ CreateBlog struct{ ID string } }
			resp := c.Do(t, `mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }`, map[string]any{"in": map[string]any{
				"shopId": shopID, "title": "评价", "content": "c", "images": []string{}, "rating": stars}})
			if len(resp.Errors) > 0 {
				t.Errorf("note %d: %+v", i, resp.Errors)
				return
			}
			resp.Decode(t, &note)
			switch i % 4 {
			case 1: // re-rated
				stars = 6 - stars
				c.Do(t, `mutation($id: ID!, $r: Int) { updateBlog(id: $id, input: {rating: $r}) { id } }`,
					map[string]any{"id": note.CreateBlog.ID, "r": stars}).Decode(t, &struct{ UpdateBlog struct{ ID string } }{})
			case 2: // deleted
				c.Do(t, `mutation($id: ID!) { deleteBlog(id: $id) }`, map[string]any{"id": note.CreateBlog.ID}).Decode(t, &struct{ DeleteBlog bool }{})
				return
			}
			mu.Lock()
			defer mu.Unlock()
			reviews++
			count++
			sum += stars
		}()
	}
	wg.Wait()
	want := (sum*10 + count/2) / count
	if c, s := readShop(); c != reviews || s != want {
		t.Errorf("shop has %d reviews and score %d; the notes add up to %d reviews, %d stars in %d ratings: score %d",
			c, s, reviews, sum, count, want)
	}
	if c, s := listedShop(); c != reviews || s != want {
		t.Errorf("the shop is listed with %d reviews and score %d, want %d and %d", c, s, reviews, want)
	}
	wantCode(t, "an anonymous note", anon.Do(t, `mutation { createBlog(input: {shopId: "1", title: "t", content: "c", images: [], rating: 6}) { id } }`, nil),
		"UNAUTHENTICATED")
	c := client(srv)
	c.Token = login(t, anon, "13900000899").AccessToken
	wantCode(t, "a 6-star rating", c.Do(t, `mutation { createBlog(input: {shopId: "1", title: "t", content: "c", images: [], rating: 6}) { id } }`, nil),
		"BAD_USER_INPUT")
}
