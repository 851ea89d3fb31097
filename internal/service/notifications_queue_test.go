package service_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestNotificationsOverTheQueue: with the queue on Redis Streams and on RabbitMQ, the
// notification events travel through it to the writer. A like tells the note's author;
// a note tells the followers who turned followedNotes on (FOLLOWED_NOTE), and not the
// others; a flash sale tells the shop's fans (SHOP_NEW_SALE), naming the sale.
func TestNotificationsOverTheQueue(t *testing.T) {
	t.Parallel()
	backends := map[string]func(t *testing.T) map[string]string{
		"redis": func(t *testing.T) map[string]string {
			return map[string]string{"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t), "QUEUE": "redis",
				"QUEUE_NAMESPACE": "t" + testsupport.RandomSuffix(8) + ":"}
		},
		"amqp": func(t *testing.T) map[string]string {
			return map[string]string{"QUEUE": "amqp", "AMQP_URL": testsupport.Require(t, testsupport.EnvAMQP),
				"QUEUE_NAMESPACE": "t" + testsupport.RandomSuffix(8) + "."}
		},
	}
	for name, envOf := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, svc, _ := startSocial(t, envOf(t), nil)
			anon := client(srv)
			la, lb, lc := login(t, anon, "13600003001"), login(t, anon, "13600003002"), login(t, anon, "13600003003")
			a, b, c := as(srv, la.AccessToken), as(srv, lb.AccessToken), as(srv, lc.AccessToken)
			for _, follower := range []testsupport.GraphQLClient{b, c} {
				follower.Do(t, `mutation($u: ID!) { follow(userId: $u) }`, map[string]any{"u": la.User.ID}).Decode(t, &struct{ Follow bool }{})
			}
			b.Do(t, `mutation { updateNotificationSettings(input: {followedNotes: true}) { followedNotes } }`, nil).Decode(t, &struct{}{})
			eventually(t, a, "the follows", true, func(ns []notificationNode, _ int) bool { return len(ns) == 1 && ns[0].ActorCount == 2 })

			note := createBlog(t, a, "queued")
			ns := eventually(t, b, "the note", true, func(ns []notificationNode, _ int) bool { return len(ns) == 1 })
			if n := ns[0]; n.Kind != "FOLLOWED_NOTE" || n.Blog == nil || n.Blog.ID != note.ID || n.Actor == nil || n.Actor.ID != la.User.ID {
				t.Fatalf("B after A's note: %+v; want FOLLOWED_NOTE of the note by A", ns)
			}
			like(t, b, note.ID)
			eventually(t, a, "B's like", true, func(ns []notificationNode, _ int) bool { return len(ns) == 2 && ns[0].Kind == "BLOG_LIKED" })

			c.Do(t, `mutation { favoriteShop(shopId: "1") { id } }`, nil).Decode(t, &struct{}{})
			now := time.Now()
			sale, err := svc.App.Commands.FlashSales.CreateFlashSale(context.Background(), domain.Operator, seckill.FlashSaleInput{
				VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "queued sale", PayValue: 100, ActualValue: 1000},
				Stock:        10, BeginTime: now.Add(time.Hour), EndTime: now.Add(2 * time.Hour),
			})
			if err != nil {
				t.Fatal(err)
			}
			var out struct {
				Notifications struct {
					Edges []struct {
						Node struct {
							Kind, Text string
							VoucherID  *string
							Voucher    *struct{ ID, Title string }
						}
					}
				}
			}
			deadline := time.Now().Add(time.Minute)
			for {
				c.Do(t, `{ notifications(first: 5) { edges { node { kind text voucherId voucher { id title } } } } }`, nil).Decode(t, &out)
				if len(out.Notifications.Edges) > 0 || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if es := out.Notifications.Edges; len(es) != 1 || es[0].Node.Kind != "SHOP_NEW_SALE" || es[0].Node.Voucher == nil ||
				es[0].Node.Voucher.Title != "queued sale" || es[0].Node.VoucherID == nil || *es[0].Node.VoucherID != es[0].Node.Voucher.ID ||
				es[0].Node.Voucher.ID != fmt.Sprint(sale.ID) {
				t.Fatalf("C, a fan of shop 1, after its sale: %+v; want SHOP_NEW_SALE of sale %d", es, sale.ID)
			}
		})
	}
}
