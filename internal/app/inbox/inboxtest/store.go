package inboxtest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/contracttest"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/domain"
)

// StoreContract is what every inbox.Store must do, as its doc comments say: an
// addition joins its group's unread notification, counting each actor once, or starts
// a new one; every change takes the user's next Seq; pages, counts, marks and prunes go
// by Seq; settings start at the defaults; and concurrent additions of one group make one
// notification counting every actor. newStore returns a store (stores of one test may
// share their database).
func StoreContract(t *testing.T, newStore func(t *testing.T) inbox.Store) {
	t.Helper()
	contracttest.RunCases(t, newStore,
		contracttest.Case[inbox.Store]{Name: "additions group while unread", Run: storeGroups},
		contracttest.Case[inbox.Store]{Name: "pages, marks read and prunes by seq", Run: storePages},
		contracttest.Case[inbox.Store]{Name: "settings start at the defaults", Run: storeSettings},
		contracttest.Case[inbox.Store]{Name: "concurrent additions of one group make one notification", Run: storeConcurrent},
	)
}

// at is a whole-second instant, so every store keeps it exactly.
func at(sec int) time.Time { return time.Date(2030, 3, 4, 5, 6, sec, 0, time.UTC) }

func mustAdd(t *testing.T, s inbox.Store, a inbox.Addition) (domain.Notification, bool) {
	t.Helper()
	n, changed, err := s.Add(t.Context(), a)
	if err != nil {
		t.Fatalf("Add(%+v): %v", a, err)
	}
	return n, changed
}

func storeGroups(t *testing.T, s inbox.Store) {
	user, other := contracttest.NewID(), contracttest.NewID()
	b, c, d := contracttest.NewID(), contracttest.NewID(), contracttest.NewID()
	liked := func(actors ...int64) inbox.Addition {
		return inbox.Addition{UserID: user, Kind: domain.NotifyBlogLiked, GroupKey: "blog:7:liked", Actors: actors, BlogID: 7, At: at(len(actors))}
	}
	n, changed := mustAdd(t, s, liked(b))
	if !changed || n.ID <= 0 || n.UserID != user || n.Kind != domain.NotifyBlogLiked || n.GroupKey != "blog:7:liked" ||
		n.ActorID != b || n.ActorCount != 1 || n.BlogID != 7 || n.Read || n.Seq != 1 || !n.CreatedAt.Equal(at(1)) {
		t.Fatalf("first addition = %+v, %v", n, changed)
	}
	first := n.ID
	// c and d join (b again is not counted twice); d is the latest.
	n, changed = mustAdd(t, s, liked(b, c, d))
	if !changed || n.ID != first || n.ActorCount != 3 || n.ActorID != d || n.Seq != 2 || !n.UpdatedAt.Equal(at(3)) || !n.CreatedAt.Equal(at(1)) {
		t.Fatalf("c and d join = %+v, %v; want notification %d counting 3, latest %d, seq 2", n, changed, first, d)
	}
	if n, changed = mustAdd(t, s, liked(c, b)); changed || n.ActorCount != 3 || n.Seq != 2 {
		t.Fatalf("actors counted already = %+v, %v; want no change", n, changed)
	}
	// Another group of the same user, and the same group of another user, stand apart.
	f, _ := mustAdd(t, s, inbox.Addition{UserID: user, Kind: domain.NotifyFollowed, GroupKey: "followed", Actors: []int64{b}, At: at(4)})
	o, _ := mustAdd(t, s, inbox.Addition{UserID: other, Kind: domain.NotifyBlogLiked, GroupKey: "blog:7:liked", Actors: []int64{b}, At: at(4)})
	if f.ID == first || f.Seq != 3 || o.ID == first || o.ID == f.ID || o.Seq != 1 {
		t.Fatalf("other group %+v, other user %+v", f, o)
	}
	// An addition without actors holds its group once while unread.
	paid := inbox.Addition{UserID: user, Kind: domain.NotifyOrderPaid, GroupKey: "order:9:ORDER_PAID", OrderID: 9, At: at(5)}
	p, changed := mustAdd(t, s, paid)
	sale, _ := mustAdd(t, s, inbox.Addition{UserID: other, Kind: domain.NotifyShopNewSale, GroupKey: "sale:12", VoucherID: 12, At: at(5)})
	if sale.VoucherID != 12 || sale.Kind != domain.NotifyShopNewSale {
		t.Fatalf("sale notification = %+v; want voucher 12", sale)
	}
	if !changed || p.ActorID != 0 || p.ActorCount != 0 || p.OrderID != 9 || p.Seq != 4 {
		t.Fatalf("order notification = %+v, %v", p, changed)
	}
	if again, changed := mustAdd(t, s, paid); changed || again.ID != p.ID {
		t.Fatalf("order notification again = %+v, %v; want no change", again, changed)
	}
	// Once read, the group starts a new notification: b counts again there.
	if _, err := s.MarkRead(t.Context(), user, 0); err != nil {
		t.Fatal(err)
	}
	n, changed = mustAdd(t, s, liked(b))
	if !changed || n.ID == first || n.ActorCount != 1 || n.Read || n.Seq != 5 {
		t.Fatalf("after reading, a like = %+v, %v; want a new unread notification", n, changed)
	}
	old, err := s.Notification(t.Context(), user, first)
	if err != nil || !old.Read || old.ActorCount != 3 {
		t.Fatalf("the read notification = %+v, %v", old, err)
	}
	if _, err := s.Notification(t.Context(), other, first); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another user's notification: %v, want domain.ErrNotFound", err)
	}
	// A comment's group keeps its latest comment.
	cm := inbox.Addition{UserID: user, Kind: domain.NotifyBlogCommented, GroupKey: "blog:7:commented", BlogID: 7, CommentID: 70, Actors: []int64{b}, At: at(6)}
	mustAdd(t, s, cm)
	cm.CommentID, cm.Actors = 71, []int64{c}
	if n, _ := mustAdd(t, s, cm); n.CommentID != 71 || n.ActorCount != 2 {
		t.Fatalf("second comment = %+v; want comment 71, 2 actors", n)
	}
}

func storePages(t *testing.T, s inbox.Store) {
	ctx := t.Context()
	user := contracttest.NewID()
	var ids []int64
	for i := range 5 {
		n, _ := mustAdd(t, s, inbox.Addition{UserID: user, Kind: domain.NotifyBlogLiked, GroupKey: fmt.Sprintf("blog:%d:liked", i),
			Actors: []int64{contracttest.NewID()}, BlogID: int64(i + 1), At: at(i)})
		ids = append(ids, n.ID)
	}
	// The first notification gains an actor: it is the newest now (seq 6).
	mustAdd(t, s, inbox.Addition{UserID: user, Kind: domain.NotifyBlogLiked, GroupKey: "blog:0:liked", Actors: []int64{contracttest.NewID()}, At: at(9)})
	want := []int64{ids[0], ids[4], ids[3], ids[2], ids[1]}
	page := func(unreadOnly bool, before int64, limit int) []int64 {
		t.Helper()
		ns, err := s.Page(ctx, user, unreadOnly, before, limit)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]int64, len(ns))
		for i, n := range ns {
			out[i] = n.ID
		}
		return out
	}
	if got := page(false, 0, 10); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("page = %v, want %v", got, want)
	}
	if got := page(false, 0, 2); fmt.Sprint(got) != fmt.Sprint(want[:2]) {
		t.Fatalf("first 2 = %v, want %v", got, want[:2])
	}
	// Before seq 4 (notification ids[3]): ids[2], ids[1].
	if got := page(false, 4, 10); fmt.Sprint(got) != fmt.Sprint(want[3:]) {
		t.Fatalf("before seq 4 = %v, want %v", got, want[3:])
	}
	// Marking up to seq 4 reads ids[3], ids[2], ids[1].
	if n, err := s.MarkRead(ctx, user, 4); err != nil || n != 3 {
		t.Fatalf("MarkRead(up to seq 4) = %d, %v; want 3", n, err)
	}
	if n, err := s.MarkRead(ctx, user, 4); err != nil || n != 0 {
		t.Fatalf("MarkRead again = %d, %v; want 0", n, err)
	}
	if got := page(true, 0, 10); fmt.Sprint(got) != fmt.Sprint(want[:2]) {
		t.Fatalf("unread = %v, want %v", got, want[:2])
	}
	if n, err := s.UnreadCount(ctx, user); err != nil || n != 2 {
		t.Fatalf("UnreadCount = %d, %v; want 2", n, err)
	}
	if n, err := s.UnreadCount(ctx, contracttest.NewID()); err != nil || n != 0 {
		t.Fatalf("UnreadCount of a user without notifications = %d, %v", n, err)
	}
	// Pruning to 2 keeps the newest two.
	if n, err := s.Prune(ctx, user, 2); err != nil || n != 3 {
		t.Fatalf("Prune(2) = %d, %v; want 3 deleted", n, err)
	}
	if got := page(false, 0, 10); fmt.Sprint(got) != fmt.Sprint(want[:2]) {
		t.Fatalf("after pruning = %v, want %v", got, want[:2])
	}
	if n, err := s.Prune(ctx, user, 2); err != nil || n != 0 {
		t.Fatalf("Prune again = %d, %v", n, err)
	}
	if n, err := s.MarkRead(ctx, user, 0); err != nil || n != 2 {
		t.Fatalf("MarkRead(all) = %d, %v; want 2", n, err)
	}
	// Seqs go on after the prune.
	n, _ := mustAdd(t, s, inbox.Addition{UserID: user, Kind: domain.NotifyFollowed, GroupKey: "followed", Actors: []int64{1}, At: at(10)})
	if n.Seq != 7 {
		t.Fatalf("next seq = %d, want 7", n.Seq)
	}
}

func storeSettings(t *testing.T, s inbox.Store) {
	ctx := t.Context()
	u, v := contracttest.NewID(), contracttest.NewID()
	got, err := s.Settings(ctx, []int64{u, v})
	if err != nil || len(got) != 2 || got[u] != domain.DefaultNotificationSettings() || got[v] != domain.DefaultNotificationSettings() {
		t.Fatalf("Settings of new users = %+v, %v; want the defaults", got, err)
	}
	changed, err := s.UpdateSettings(ctx, u, func(s *domain.NotificationSettings) {
		if *s != domain.DefaultNotificationSettings() {
			t.Errorf("update saw %+v, want the defaults", *s)
		}
		s.Likes, s.FollowedNotes, s.ShopSales = false, true, false
	})
	want := domain.NotificationSettings{Comments: true, Follows: true, Orders: true, FollowedNotes: true}
	if err != nil || changed != want {
		t.Fatalf("UpdateSettings = %+v, %v; want %+v", changed, err, want)
	}
	changed, err = s.UpdateSettings(ctx, u, func(s *domain.NotificationSettings) { s.Orders, s.ShopSales = false, true })
	want.Orders, want.ShopSales = false, true
	if err != nil || changed != want {
		t.Fatalf("second UpdateSettings = %+v, %v; want %+v", changed, err, want)
	}
	got, err = s.Settings(ctx, []int64{u, v})
	if err != nil || got[u] != want || got[v] != domain.DefaultNotificationSettings() {
		t.Fatalf("Settings = %+v, %v", got, err)
	}
}

func storeConcurrent(t *testing.T, s inbox.Store) {
	user := contracttest.NewID()
	const actors = 20
	var wg sync.WaitGroup
	for i := range actors {
		wg.Go(func() {
			// Each actor also starts a group of its own, so the user's seqs race too.
			for _, key := range []string{"blog:1:liked", fmt.Sprintf("blog:%d:liked", 100+i)} {
				if _, _, err := s.Add(t.Context(), inbox.Addition{UserID: user, Kind: domain.NotifyBlogLiked, GroupKey: key,
					Actors: []int64{int64(1000 + i)}, BlogID: 1, At: at(i)}); err != nil {
					t.Errorf("Add: %v", err)
				}
			}
		})
	}
	wg.Wait()
	ns, err := s.Page(t.Context(), user, true, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != actors+1 {
		t.Fatalf("%d unread notifications, want %d", len(ns), actors+1)
	}
	seqs := map[int64]bool{}
	grouped := 0
	for _, n := range ns {
		if seqs[n.Seq] {
			t.Fatalf("seq %d given twice: %+v", n.Seq, ns)
		}
		seqs[n.Seq] = true
		if n.GroupKey == "blog:1:liked" {
			grouped++
			if n.ActorCount != actors {
				t.Fatalf("the shared group counts %d actors, want %d", n.ActorCount, actors)
			}
		}
	}
	if grouped != 1 {
		t.Fatalf("%d notifications of the shared group, want 1", grouped)
	}
}
