package service_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// A server restarted within the same second, against a Redis that came back empty,
// must not hand out the ids it handed out before: an id answered to two users makes one
// of them hold the other's order.
func TestOrderIDsStayUniqueWhenRedisRestartsEmpty(t *testing.T) {
	t.Parallel()
	for _, store := range []string{"sqlite", "postgres"} {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			env := merge(storeEnv(t, store), map[string]string{
				"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "0", "REDIS_URL": testsupport.RedisURL(t)})
			if store == "sqlite" {
				env["DATABASE_URL"] = "sqlite://" + filepath.ToSlash(filepath.Join(t.TempDir(), "ids.db"))
			}
			// Every id is taken in the same second.
			second := time.Now().Add(time.Hour).Truncate(time.Second)
			frozen := service.WithOrderIDClock(func() time.Time { return second })
			ctx := context.Background()

			_, first := startService(t, env, frozen)
			v := newSale(t, first, 100)
			claim := func(svc *service.Node, users ...int64) map[int64]int64 {
				t.Helper()
				ids := map[int64]int64{}
				for _, u := range users {
					r, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID)
					if err != nil {
						t.Fatalf("user %d claims: %v", u, err)
					}
					ids[r.OrderID] = u
				}
				return ids
			}
			before := claim(first, 1, 2, 3, 4, 5)
			drain(t, first, v.ID)
			// Redis restarts without persistence; the server starts again.
			if err := first.Redis.Client.FlushDB(ctx).Err(); err != nil {
				t.Fatal(err)
			}
			if err := first.Close(); err != nil {
				t.Fatal(err)
			}
			_, restarted := startService(t, env, frozen)
			after := claim(restarted, 6, 7, 8, 9, 10)
			for id, u := range after {
				if owner, taken := before[id]; taken {
					t.Errorf("order id %d answered to user %d and again to user %d", id, owner, u)
				}
			}
			a := drain(t, restarted, v.ID)
			if bad := a.Check(100); len(bad) > 0 || a.Orders.Created != 10 || a.Orders.Failed != 0 {
				t.Fatalf("audit %+v: %v; want ten created orders", a, bad)
			}
			for id, u := range after {
				if o, found, err := restarted.App.Queries.Orders.Order(ctx, u, id); err != nil || !found || o.UserID != u || o.Status != domain.OrderCreated {
					t.Errorf("user %d's order %d: %+v, %v, %v", u, id, o, found, err)
				}
			}
		})
	}
}
