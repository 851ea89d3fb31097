package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/app/shop"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// generationKey is the marker that tells nodes whether Redis came back empty.
const generationKey = "dealspot:generation"

// notLoadedGate counts the gate's NotLoaded verdicts.
type notLoadedGate struct {
	seckill.SaleStock
	notLoaded atomic.Int64
}

func (g *notLoadedGate) Reserve(ctx context.Context, r seckill.Reservation) (seckill.Verdict, int64, error) {
	v, n, err := g.SaleStock.Reserve(ctx, r)
	if err == nil && v == seckill.NotLoaded {
		g.notLoaded.Add(1)
	}
	return v, n, err
}

// derivedState is what a user sees of the structures Redis derives from the database.
type derivedState struct {
	nearby      int
	following   bool
	common      []int64
	feed        []int64
	saleLoaded  bool
	markerFound bool
}

func readDerived(t *testing.T, svc *service.Node, saleID int64) (derivedState, error) {
	t.Helper()
	ctx := context.Background()
	var st derivedState
	page, err := svc.App.Queries.Shops.Nearby(ctx, shop.NearbyQuery{TypeID: 1, Longitude: 120.149993, Latitude: 30.334229, RadiusMeters: 50000, First: 50})
	if err != nil {
		return st, fmt.Errorf("nearby: %w", err)
	}
	st.nearby = len(page.Shops)
	if st.following, err = svc.App.Queries.Follows.IsFollowing(ctx, 1, 2); err != nil {
		return st, fmt.Errorf("isFollowing: %w", err)
	}
	users, err := svc.App.Queries.Follows.CommonFollows(ctx, 1, 4)
	if err != nil {
		return st, fmt.Errorf("commonFollows: %w", err)
	}
	for _, u := range users {
		st.common = append(st.common, u.ID)
	}
	feed, err := svc.App.Queries.Feed.Page(ctx, 1, 50, nil)
	if err != nil {
		return st, fmt.Errorf("feed: %w", err)
	}
	for _, it := range feed.Items {
		st.feed = append(st.feed, it.Blog.Blog.ID)
	}
	a, err := svc.Ops.Reconciler.Audit(ctx, saleID)
	if err != nil {
		return st, fmt.Errorf("audit: %w", err)
	}
	st.saleLoaded = a.RedisLoaded
	n, err := svc.Redis.Client.Exists(ctx, generationKey).Result()
	if err != nil {
		return st, fmt.Errorf("marker: %w", err)
	}
	st.markerFound = n == 1
	return st, nil
}

// TestRedisComingBackEmptyIsRepairedWithoutARestart wipes the service's Redis database
// under a running service and expects every derived structure back within 10 s: nearby
// search, follow checks and common follows, the feed, the flash sale's gate state, and
// the generation marker — with no restart and no request having to trigger it.
func TestRedisComingBackEmptyIsRepairedWithoutARestart(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"postgres+redis", "sqlite+embedded"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"JWT_SECRET": testSecret, "CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "0"}
			if backend == "postgres+redis" {
				env["DATABASE_URL"] = testsupport.PostgresURL(t)
				env["REDIS_URL"] = testsupport.RedisURL(t)
			}
			gate := &notLoadedGate{}
			srv, svc := startService(t, env, service.WithSaleStock(func(g seckill.SaleStock) seckill.SaleStock {
				gate.SaleStock = g
				return gate
			}))
			ctx := context.Background()
			// The demo data: user 1 follows 2 and 3, so does user 4. Users 2 and 3 write.
			var blogs []int64
			for _, author := range []int64{2, 3} {
				b, err := svc.App.Commands.Blogs.CreateBlog(ctx, author, notes.BlogInput{ShopID: 1, Title: "regen", Content: "a note written before the wipe"})
				if err != nil {
					t.Fatal(err)
				}
				blogs = append(blogs, b.Blog.ID)
			}
			sale := newSale(t, svc, 100)
			if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 1000, sale.ID); err != nil {
				t.Fatal(err)
			}
			before, err := readDerived(t, svc, sale.ID)
			if err != nil {
				t.Fatal(err)
			}
			check := func(st derivedState) []string {
				var bad []string
				if st.nearby == 0 || st.nearby != before.nearby {
					bad = append(bad, fmt.Sprintf("nearby finds %d shops, want %d", st.nearby, before.nearby))
				}
				if !st.following {
					bad = append(bad, "user 1 does not follow user 2")
				}
				if !slices.Equal(st.common, []int64{2, 3}) {
					bad = append(bad, fmt.Sprintf("common follows of 1 and 4: %v, want [2 3]", st.common))
				}
				for _, id := range blogs {
					if !slices.Contains(st.feed, id) {
						bad = append(bad, fmt.Sprintf("feed of user 1 lacks blog %d (has %v)", id, st.feed))
					}
				}
				if !st.saleLoaded {
					bad = append(bad, "the flash sale is not loaded in Redis")
				}
				if !st.markerFound {
					bad = append(bad, "no generation marker")
				}
				return bad
			}
			if bad := check(before); len(bad) > 0 {
				t.Fatalf("before the wipe: %v", bad)
			}

			if err := svc.Redis.Client.FlushDB(ctx).Err(); err != nil {
				t.Fatal(err)
			}
			wiped := time.Now()
			// Nothing but reads happen meanwhile: no claim reloads the sale, no restart
			// rebuilds the rest.
			var bad []string
			for {
				st, err := readDerived(t, svc, sale.ID)
				if bad = check(st); err != nil {
					bad = append(bad, err.Error())
				}
				if len(bad) == 0 {
					break
				}
				if time.Since(wiped) > 10*time.Second {
					t.Fatalf("10 s after Redis came back empty: %v", bad)
				}
				time.Sleep(100 * time.Millisecond)
			}
			t.Logf("every derived structure back %v after the wipe", time.Since(wiped).Round(time.Millisecond))

			a, _ := svc.Ops.Reconciler.Audit(ctx, sale.ID)
			if a.RedisStock != 99 || a.RedisHolders != 1 {
				t.Errorf("rebuilt sale: stock %d, holders %d; want 99 and 1", a.RedisStock, a.RedisHolders)
			}
			for u := int64(2000); u < 2020; u++ {
				if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, sale.ID); err != nil {
					t.Fatalf("claim after the rebuild: %v", err)
				}
			}
			if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 1000, sale.ID); domain.ErrorCode(err) != domain.CodeAlreadyClaimed {
				t.Errorf("the holder's second claim after the rebuild: %v, want ALREADY_CLAIMED", err)
			}
			if n := gate.notLoaded.Load(); n != 0 {
				t.Errorf("%d claims found the sale not loaded after the rebuild", n)
			}
			resp, err := http.Get(srv.URL + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(body), "dealspot_redis_generation_changes_total 1") {
				t.Errorf("/metrics does not count the new generation once:\n%s", grepLines(string(body), "dealspot_redis_"))
			}
		})
	}
}

// TestReadyzWarnsAboutRedisWithoutPersistence: /readyz stays ready but carries a warning
// when Redis keeps nothing on disk — a serious one while QUEUE=redis holds the only copy
// of accepted claims, a milder one for the other queues — and the embedded Redis says it
// is for development.
func TestReadyzWarnsAboutRedisWithoutPersistence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, queue string
		real        bool
		want        string
	}{
		{"redis queue", "redis", true, "QUEUE=redis"},
		{"memory queue", "memory", true, "accepted claims survive in the queue"},
		{"embedded", "memory", false, "for development"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := merge(queueEnv(t, tc.queue), map[string]string{"JWT_SECRET": testSecret})
			if tc.real {
				env["REDIS_URL"] = testsupport.RedisURL(t)
			}
			srv, svc := startService(t, env)
			p, err := svc.Redis.Persistence(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.Get(srv.URL + "/readyz")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct {
				Redis    string
				Warnings map[string]string
			}
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			note := body.Warnings["redis_persistence"]
			if resp.StatusCode != http.StatusOK || body.Redis != "ok" {
				t.Fatalf("/readyz = %d, redis %q: a persistence warning must not make the server unready", resp.StatusCode, body.Redis)
			}
			if tc.real && p.AOF && p.AppendFsync != "no" {
				if note != "" {
					t.Errorf("Redis has AOF (%+v) but /readyz warns %q", p, note)
				}
				return
			}
			if tc.real && p.SnapshotsKnown && p.Snapshots && tc.queue != "redis" {
				return // snapshots are enough when the queue keeps the claims
			}
			if !strings.Contains(note, tc.want) {
				t.Errorf("redis persistence %+v, QUEUE=%s: /readyz warns %q, want a note containing %q", p, tc.queue, note, tc.want)
			}
		})
	}
}

// TestTwoNodesAgreeOnTheNewGeneration: two servers on one Redis and one database both
// notice the wipe, agree on one new generation and both rebuild (each count it once).
func TestTwoNodesAgreeOnTheNewGeneration(t *testing.T) {
	t.Parallel()
	env := map[string]string{"JWT_SECRET": testSecret, "RECONCILE_INTERVAL": "0",
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t)}
	srvA, a := startService(t, env)
	srvB, b := startService(t, env)
	ctx := context.Background()
	before := a.Regen.Generation()
	if before == "" || b.Regen.Generation() != before {
		t.Fatalf("generations at start: %q and %q, want one", before, b.Regen.Generation())
	}
	if err := a.Redis.Client.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		marker, _ := a.Redis.Client.Get(ctx, generationKey).Result()
		ga, gb := a.Regen.Generation(), b.Regen.Generation()
		if marker != "" && marker != before && ga == marker && gb == marker {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s after the wipe: marker %q, node generations %q and %q (before %q)", marker, ga, gb, before)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, srv := range []*httptest.Server{srvA, srvB} {
		resp, err := http.Get(srv.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, want := range []string{
			"dealspot_redis_generation_changes_total 1",
			`dealspot_redis_rebuilds_total{outcome="ok",structure="nearby_index"} 1`,
			`dealspot_redis_rebuilds_total{outcome="ok",structure="follow_mirror"} 1`,
			`dealspot_redis_rebuilds_total{outcome="ok",structure="flash_sales"} 1`,
		} {
			if !strings.Contains(string(body), want) {
				t.Errorf("%s: /metrics lacks %s:\n%s", srv.URL, want, grepLines(string(body), "dealspot_redis_"))
			}
		}
	}
}
