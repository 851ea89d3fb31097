//go:build stress

package service_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/social/follows"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// socialTraffic reads nearby shops, follows and feeds, and has users 2 and 3 write notes,
// until stop is closed.
type socialTraffic struct {
	mu      sync.Mutex
	written []int64 // blogs of users 2 and 3, in order
	reads   atomic.Int64
	errs    atomic.Int64
	done    chan struct{}
}

func startSocialTraffic(svc *service.Node, stop <-chan struct{}) *socialTraffic {
	tr := &socialTraffic{done: make(chan struct{})}
	var wg sync.WaitGroup
	ctx := context.Background()
	for r := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var err error
				switch (i + r) % 4 {
				case 0:
					_, err = svc.App.Queries.Shops.Nearby(ctx, shop.NearbyQuery{TypeID: 1, Longitude: 120.149993, Latitude: 30.334229, RadiusMeters: 50000, First: 20})
				case 1:
					_, err = svc.App.Queries.Follows.IsFollowing(ctx, 1, 2)
				case 2:
					_, err = svc.App.Queries.Follows.CommonFollows(ctx, 1, 4)
				case 3:
					_, err = svc.App.Queries.Feed.Page(ctx, int64(1+3*(i%2)), 20, nil) // users 1 and 4
				}
				tr.reads.Add(1)
				if err != nil {
					tr.errs.Add(1)
				}
				time.Sleep(2 * time.Millisecond)
			}
		})
	}
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			author := int64(2 + i%2)
			b, err := svc.App.Commands.Blogs.CreateBlog(ctx, author, notes.BlogInput{ShopID: 1, Title: fmt.Sprintf("wipe %d", i), Content: "written under traffic"})
			if err != nil {
				tr.errs.Add(1)
				continue
			}
			tr.mu.Lock()
			tr.written = append(tr.written, b.Blog.ID)
			tr.mu.Unlock()
		}
	})
	go func() { wg.Wait(); close(tr.done) }()
	return tr
}

// wholeFeed pages through a user's whole feed.
func wholeFeed(svc *service.Node, userID int64) ([]int64, error) {
	var ids []int64
	var after *follows.FeedCursor
	for range 1000 {
		p, err := svc.App.Queries.Feed.Page(context.Background(), userID, 100, after)
		if err != nil {
			return nil, err
		}
		for _, it := range p.Items {
			ids = append(ids, it.Blog.Blog.ID)
		}
		if !p.HasNextPage || p.End == nil {
			return ids, nil
		}
		after = p.End
	}
	return nil, fmt.Errorf("feed of user %d does not end", userID)
}

// TestRedisWipedUnderTraffic empties the service's Redis database twice while claims,
// nearby searches, follow checks, feed reads and new notes keep coming, and expects
// every derived structure back within 10 s of each wipe, without a restart: the nearby
// index, the follow mirror, the feeds (with every note written before, during and after
// the wipes) and the sale's gate state; and no oversell or duplicate order.
func TestRedisWipedUnderTraffic(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"JWT_SECRET": testSecret, "CLAIM_RATE_PER_USER": "off",
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t),
	}
	srv, svc := startService(t, env)
	ctx := context.Background()
	const stock = 5000
	sale := newSale(t, svc, stock)
	base, err := svc.App.Queries.Shops.Nearby(ctx, shop.NearbyQuery{TypeID: 1, Longitude: 120.149993, Latitude: 30.334229, RadiusMeters: 50000, First: 50})
	if err != nil || len(base.Shops) == 0 {
		t.Fatalf("nearby before the wipes: %d shops, %v", len(base.Shops), err)
	}

	stop := make(chan struct{})
	claims := floodFor(svc, sale.ID, 50000, 4, 2*time.Millisecond, stop)
	traffic := startSocialTraffic(svc, stop)

	// back reports what is still missing: the derived structures, read as users do.
	back := func() []string {
		var bad []string
		page, err := svc.App.Queries.Shops.Nearby(ctx, shop.NearbyQuery{TypeID: 1, Longitude: 120.149993, Latitude: 30.334229, RadiusMeters: 50000, First: 50})
		if err != nil || len(page.Shops) != len(base.Shops) {
			bad = append(bad, fmt.Sprintf("nearby: %d shops (%v), want %d", len(page.Shops), err, len(base.Shops)))
		}
		if ok, err := svc.App.Queries.Follows.IsFollowing(ctx, 1, 2); !ok || err != nil {
			bad = append(bad, fmt.Sprintf("isFollowing(1, 2) = %v, %v", ok, err))
		}
		common, err := svc.App.Queries.Follows.CommonFollows(ctx, 1, 4)
		var ids []int64
		for _, u := range common {
			ids = append(ids, u.ID)
		}
		if err != nil || !slices.Equal(ids, []int64{2, 3}) {
			bad = append(bad, fmt.Sprintf("commonFollows(1, 4) = %v, %v", ids, err))
		}
		a, err := svc.Ops.Reconciler.Audit(ctx, sale.ID)
		if err != nil || !a.RedisLoaded {
			bad = append(bad, fmt.Sprintf("sale loaded %v, %v", a.RedisLoaded, err))
		}
		return bad
	}
	for wipe := 1; wipe <= 2; wipe++ {
		time.Sleep(time.Second)
		if err := svc.Redis.Client.FlushDB(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		wiped := time.Now()
		for {
			bad := back()
			if len(bad) == 0 {
				t.Logf("wipe %d: derived structures back after %v under traffic", wipe, time.Since(wiped).Round(time.Millisecond))
				break
			}
			if time.Since(wiped) > 10*time.Second {
				t.Fatalf("wipe %d: 10 s later still missing: %v", wipe, bad)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	time.Sleep(500 * time.Millisecond)
	close(stop)
	claims.wait()
	<-traffic.done

	// Every note written before, between and after the wipes is in both followers' feeds.
	for _, u := range []int64{1, 4} {
		feed, err := wholeFeed(svc, u)
		if err != nil {
			t.Fatal(err)
		}
		traffic.mu.Lock()
		for _, id := range traffic.written {
			if !slices.Contains(feed, id) {
				t.Errorf("feed of user %d lacks blog %d", u, id)
			}
		}
		traffic.mu.Unlock()
	}
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "dealspot_redis_generation_changes_total 2") {
		t.Errorf("/metrics does not count two new generations:\n%s", grepLines(string(body), "dealspot_redis_"))
	}

	// The claim path. A wipe loses the reservations of claims still in the queue, and the
	// sale is rebuilt from the database before those orders are written, so right after
	// the traffic Redis holds a few units and holders too many or too few; the reconciler
	// (run here as its interval would) repairs that drift from the database. Then every
	// invariant holds, every accepted claim has its order, and Redis agrees with the
	// database exactly.
	drain(t, svc, sale.ID)
	reconcileUntilQuiet(t, svc)
	checkAfterFault(t, svc, sale, stock, claims)
	a := drain(t, svc, sale.ID)
	if a.RedisStock != a.DBStock || int64(a.RedisHolders) != a.Orders.LiveUsers {
		t.Errorf("after reconciling, redis stock %d and holders %d; the database has stock %d and %d users with orders",
			a.RedisStock, a.RedisHolders, a.DBStock, a.Orders.LiveUsers)
	}
	if internal := claims.refused[domain.CodeInternal]; internal > 0 {
		t.Logf("%d claims answered INTERNAL around the wipes", internal)
	}
	t.Logf("claims accepted %d, refused %v; social reads %d, errors %d, notes written %d; audit %+v",
		len(claims.accepted), claims.refused, traffic.reads.Load(), traffic.errs.Load(), len(traffic.written), a)
}
