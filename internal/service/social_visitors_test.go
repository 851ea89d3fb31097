package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

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
