package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// notificationNode is a notification as these tests read it.
type notificationNode struct {
	ID         string
	Kind       string
	Read       bool
	ActorCount int
	Actor      *struct{ ID string }
	Blog       *struct{ ID string }
	Order      *struct{ ID, Status string }
	Text       string
}

const notificationFields = `id kind read actorCount actor { id } blog { id } order { id status } text`

// notificationsOf reads a user's newest notifications (the unread ones only when
// unreadOnly) and their unread count. The two are read side by side, not as one
// snapshot: a notification written meanwhile may be in one and not the other.
func notificationsOf(t *testing.T, c testsupport.GraphQLClient, unreadOnly bool) ([]notificationNode, int) {
	t.Helper()
	var out struct {
		Notifications struct {
			Edges []struct {
				Cursor string
				Node   notificationNode
			}
		}
		UnreadNotificationCount int
	}
	c.Do(t, `query($u: Boolean) { notifications(first: 50, unreadOnly: $u) { edges { cursor node { `+notificationFields+` } } }
		unreadNotificationCount }`, map[string]any{"u": unreadOnly}).Decode(t, &out)
	ns := make([]notificationNode, len(out.Notifications.Edges))
	for i, e := range out.Notifications.Edges {
		ns[i] = e.Node
	}
	return ns, out.UnreadNotificationCount
}

// eventually polls the user's notifications until ok accepts them; notifications are
// written asynchronously, so a generous deadline.
func eventually(t *testing.T, c testsupport.GraphQLClient, what string, unreadOnly bool, ok func(ns []notificationNode, unread int) bool) []notificationNode {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ns, unread := notificationsOf(t, c, unreadOnly)
		if ok(ns, unread) {
			return ns
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute; notifications %+v, unread %d", what, ns, unread)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func like(t *testing.T, c testsupport.GraphQLClient, blogID string) {
	t.Helper()
	c.Do(t, `mutation($id: ID!) { likeBlog(id: $id) { id } }`, map[string]any{"id": blogID}).Decode(t, &struct{}{})
}

// TestNotificationInbox: B likes A's note and A's unread count becomes 1, the
// notification names B and the note and is pushed over A's websocket; C's like joins
// it (one notification, actorCount 2); markNotificationsRead clears the count; with
// likes turned off in A's settings a like adds nothing, while a follow still does; A's
// own like never notifies A.
func TestNotificationInbox(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		srv, _, _ := startSocial(t, env, nil)
		anon := client(srv)
		la := login(t, anon, "13600000901")
		lb, lc := login(t, anon, "13600000902"), login(t, anon, "13600000903")
		ld, le := login(t, anon, "13600000904"), login(t, anon, "13600000905")
		a, b, c := as(srv, la.AccessToken), as(srv, lb.AccessToken), as(srv, lc.AccessToken)
		d, e := as(srv, ld.AccessToken), as(srv, le.AccessToken)
		note := createBlog(t, a, "inbox")

		wantCode(t, "notifications anonymously", anon.Do(t, `{ notifications { edges { cursor } } }`, nil), "UNAUTHENTICATED")
		if ns, unread := notificationsOf(t, a, false); len(ns) != 0 || unread != 0 {
			t.Fatalf("a new user has notifications %+v, unread %d", ns, unread)
		}
		var settings struct {
			NotificationSettings struct{ Likes, Comments, Follows, Orders, FollowedNotes bool }
		}
		a.Do(t, `{ notificationSettings { likes comments follows orders followedNotes } }`, nil).Decode(t, &settings)
		if s := settings.NotificationSettings; !s.Likes || !s.Comments || !s.Follows || !s.Orders || s.FollowedNotes {
			t.Fatalf("default settings %+v; want all on but followedNotes", s)
		}

		ws := wsOpen(t, srv, la.AccessToken)
		ws.send(map[string]any{"type": "subscribe", "id": "inbox", "payload": map[string]any{
			"query": `subscription { notificationAdded { ` + notificationFields + ` } }`}})

		like(t, a, note.ID) // one's own like tells nobody
		like(t, b, note.ID)
		ns := eventually(t, a, "B's like", false, func(ns []notificationNode, unread int) bool { return len(ns) == 1 && unread == 1 })
		if len(ns) != 1 || ns[0].Kind != "BLOG_LIKED" || ns[0].Read || ns[0].ActorCount != 1 || ns[0].Actor == nil ||
			ns[0].Actor.ID != lb.User.ID || ns[0].Blog == nil || ns[0].Blog.ID != note.ID || ns[0].Text == "" {
			t.Fatalf("after B's like: %+v; want one unread BLOG_LIKED by %s of note %s", ns, lb.User.ID, note.ID)
		}
		first := ns[0].ID

		// B unlikes and likes again, then C likes: events are handled in order, so once
		// C is counted B's second like was seen too, and counted B once.
		b.Do(t, `mutation($id: ID!) { unlikeBlog(id: $id) { id } }`, map[string]any{"id": note.ID}).Decode(t, &struct{}{})
		like(t, b, note.ID)
		like(t, c, note.ID)
		ns = eventually(t, a, "C's like", false, func(ns []notificationNode, unread int) bool {
			return len(ns) == 1 && ns[0].Actor != nil && ns[0].Actor.ID == lc.User.ID
		})
		if ns[0].ID != first || ns[0].ActorCount != 2 {
			t.Fatalf("after B's second like and C's: %+v; want notification %s counting 2", ns, first)
		}

		// The websocket hears the grouped notification (the first push may have come
		// before the subscription was in place; C's like came after).
		pushed := false
		for !pushed {
			typ, payload, code := ws.next()
			if typ != "next" {
				t.Fatalf("subscription: got %q (close %d) %s", typ, code, payload)
			}
			var msg struct {
				Data struct{ NotificationAdded notificationNode }
			}
			if err := json.Unmarshal(payload, &msg); err != nil {
				t.Fatal(err)
			}
			n := msg.Data.NotificationAdded
			if n.ID != first || n.Kind != "BLOG_LIKED" || n.Actor == nil {
				t.Fatalf("pushed %+v; want notification %s", n, first)
			}
			pushed = n.ActorCount == 2 && n.Actor.ID == lc.User.ID
		}

		var marked struct{ MarkNotificationsRead int }
		a.Do(t, `mutation { markNotificationsRead }`, nil).Decode(t, &marked)
		if marked.MarkNotificationsRead != 1 {
			t.Fatalf("markNotificationsRead = %d, want 1", marked.MarkNotificationsRead)
		}
		if ns, unread := notificationsOf(t, a, true); len(ns) != 0 || unread != 0 {
			t.Fatalf("after markNotificationsRead: unread %+v, count %d", ns, unread)
		}
		if ns, _ := notificationsOf(t, a, false); len(ns) != 1 || !ns[0].Read || ns[0].ActorCount != 2 {
			t.Fatalf("after markNotificationsRead: %+v; want the one notification read, B counted once", ns)
		}
		wantCode(t, "marking someone else's notification", b.Do(t, `mutation($id: ID) { markNotificationsRead(upTo: $id) }`,
			map[string]any{"id": first}), "NOT_FOUND")

		a.Do(t, `mutation { updateNotificationSettings(input: {likes: false}) { likes } }`, nil).Decode(t, &settings)
		a.Do(t, `{ notificationSettings { likes comments follows orders followedNotes } }`, nil).Decode(t, &settings)
		if s := settings.NotificationSettings; s.Likes || !s.Comments || !s.Follows || !s.Orders || s.FollowedNotes {
			t.Fatalf("settings after turning likes off: %+v", s)
		}
		like(t, d, note.ID)
		// Events are handled in order: once E's follow is in, D's like was seen too.
		follow(t, e, la.User.ID)
		ns = eventually(t, a, "E's follow", true, func(ns []notificationNode, unread int) bool { return len(ns) > 0 })
		if len(ns) != 1 || ns[0].Kind != "FOLLOWED" || ns[0].Actor == nil || ns[0].Actor.ID != le.User.ID {
			t.Fatalf("with likes off, unread: %+v; want E's follow only", ns)
		}

		// B comments on A's note and C answers B: B hears of the reply, A of two
		// people commenting.
		var top commentAnswer
		b.Do(t, createComment, map[string]any{"b": note.ID, "c": "nice"}).Decode(t, &top)
		c.Do(t, createComment, map[string]any{"b": note.ID, "c": "agreed", "r": top.CreateComment.ID}).Decode(t, &struct{}{})
		ns = eventually(t, b, "C's reply", true, func(ns []notificationNode, unread int) bool { return len(ns) == 1 })
		if ns[0].Kind != "COMMENT_REPLIED" || ns[0].Actor == nil || ns[0].Actor.ID != lc.User.ID || ns[0].Blog == nil || ns[0].Blog.ID != note.ID {
			t.Fatalf("B's notifications after C's reply: %+v", ns)
		}
		ns = eventually(t, a, "the comments", true, func(ns []notificationNode, unread int) bool {
			return len(ns) > 0 && ns[0].Kind == "BLOG_COMMENTED" && ns[0].ActorCount == 2
		})
		if len(ns) != 2 || ns[0].Actor == nil || ns[0].Actor.ID != lc.User.ID {
			t.Fatalf("A's unread notifications after the comments: %+v; want the comments (latest C), then the follow", ns)
		}
	})
}

// TestNotificationLikeFlood: 200 users like one note at once; every like succeeds and
// the author ends with exactly one unread notification counting all 200.
func TestNotificationLikeFlood(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		env = withEnv(env, map[string]string{"GRAPHQL_EXEC_TIMEOUT": "2m"})
		srv, _, _ := startSocial(t, env, nil)
		anon := client(srv)
		author := as(srv, login(t, anon, "13600001000").AccessToken)
		note := createBlog(t, author, "flood")
		const users = 200
		tokens := make([]string, users)
		for i := range tokens {
			tokens[i] = login(t, anon, fmt.Sprintf("136%08d", 1001+i)).AccessToken
		}
		hc := pooledHTTP(t, users)
		var wg sync.WaitGroup
		errs := make(chan error, users)
		for _, token := range tokens {
			wg.Go(func() {
				if _, err := postGraphQL(hc, srv.URL+"/graphql", token, `mutation($id: ID!) { likeBlog(id: $id) { id } }`,
					map[string]any{"id": note.ID}); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("a like failed: %v", err)
		}
		ns := eventually(t, author, "200 likes", true, func(ns []notificationNode, _ int) bool {
			return len(ns) > 0 && ns[0].ActorCount >= users
		})
		if _, unread := notificationsOf(t, author, true); len(ns) != 1 || unread != 1 || ns[0].ActorCount != users || ns[0].Kind != "BLOG_LIKED" {
			t.Fatalf("after 200 likes: %+v, unread %d; want one BLOG_LIKED counting %d", ns, unread, users)
		}
	})
}

// TestOrderNotifications: a paid order tells its buyer ORDER_PAID, and a refund
// ORDER_REFUNDED, each naming the order.
func TestOrderNotifications(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		env["PAYMENT_SIM_DELAY"] = "1h" // the test sends the provider's notification
		srv, svc, _ := startSocial(t, env, nil)
		anon := client(srv)
		s := login(t, anon, "13600002000")
		buyer := as(srv, s.AccessToken)
		uid := mustID(t, s.User.ID)
		ctx := context.Background()
		vo, err := svc.App.Commands.FlashSales.CreateVoucher(ctx, domain.Operator, seckill.VoucherInput{ShopID: 1, Title: "tea", PayValue: 900, ActualValue: 1500})
		if err != nil {
			t.Fatal(err)
		}
		o, err := svc.App.Commands.BuyVoucher.Handle(ctx, user(uid), vo.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		p, err := svc.App.Commands.PayOrder.Handle(ctx, user(uid), o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Ops.PaymentNotifications.Notify(ctx, orders.Notification{
			PaymentID: p.ID, ProviderRef: p.ProviderRef, Succeeded: true, Amount: p.Amount, At: time.Now(),
		}); err != nil {
			t.Fatal(err)
		}
		orderID := fmt.Sprint(o.ID)
		ns := eventually(t, buyer, "the payment", true, func(ns []notificationNode, unread int) bool { return len(ns) == 1 })
		if n := ns[0]; n.Kind != "ORDER_PAID" || n.Order == nil || n.Order.ID != orderID || n.Actor != nil || n.ActorCount != 0 || n.Text == "" {
			t.Fatalf("after paying: %+v; want ORDER_PAID of order %s without an actor", ns, orderID)
		}
		buyer.Do(t, `mutation($id: ID!) { requestRefund(orderId: $id) { status } }`, map[string]any{"id": orderID}).Decode(t, &struct{}{})
		ns = eventually(t, buyer, "the refund", true, func(ns []notificationNode, unread int) bool { return len(ns) == 2 })
		if n := ns[0]; n.Kind != "ORDER_REFUNDED" || n.Order == nil || n.Order.ID != orderID || n.Order.Status != "REFUNDED" {
			t.Fatalf("after the refund: %+v; want ORDER_REFUNDED of order %s first", ns, orderID)
		}
	})
}
