package inbox_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/domain"
)

func published(author, blog int64) domain.NotificationEvent {
	return domain.NotificationEvent{Kind: domain.NotifyFollowedNote, ActorID: author, BlogID: blog}
}

func newSale(merchant, shop, voucher int64) domain.NotificationEvent {
	return domain.NotificationEvent{Kind: domain.NotifyShopNewSale, ActorID: merchant, ShopID: shop, VoucherID: voucher}
}

func optIn(t *testing.T, f fixture, users ...int64) {
	t.Helper()
	on := true
	for _, u := range users {
		if _, err := f.svc.Commands.UpdateSettings(t.Context(), u, inbox.SettingsChange{FollowedNotes: &on}); err != nil {
			t.Fatal(err)
		}
	}
}

// A note reaches the followers of its author who turned followedNotes on, and no one
// else: the others, the author, and users who do not follow.
func TestANoteReachesTheFollowersWhoWantIt(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	f.audience.followers[userA] = []int64{userB, userC, userD}
	optIn(t, f, userB, userD, 99) // 99 does not follow A
	f.handle(t, published(userA, 10))
	for _, u := range []int64{userB, userD} {
		wantList(t, fmt.Sprintf("follower %d", u), f.list(t, u, false), `FOLLOWED_NOTE by 1 (1) read=false: Ann published a new note “Noodles”`)
	}
	for _, u := range []int64{userA, userC, 99} {
		if got := f.list(t, u, false); len(got) != 0 {
			t.Fatalf("user %d was told: %q", u, summaries(got))
		}
	}
	// The same event again (delivered twice) adds nothing.
	f.handle(t, published(userA, 10))
	if got := f.list(t, userB, false); len(got) != 1 || got[0].ActorCount != 1 {
		t.Fatalf("the note told twice: %q", summaries(got))
	}
}

// The fan-out of one note stops at its bound: the first MaxFanout followers by id are
// read, the others are not even read.
func TestANotesFanOutIsBounded(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, inbox.Config{Keep: 500, MaxFanout: inbox.Fanout{FollowedNote: 2500, ShopSale: 1}}, nil)
	var followers []int64
	for i := range 6000 {
		followers = append(followers, int64(1000+i))
	}
	f.audience.followers[userA] = followers
	optIn(t, f, followers...)
	f.handle(t, published(userA, 10))
	if *f.audience.reads != 2500 {
		t.Fatalf("read %d followers; want the bound, 2500", *f.audience.reads)
	}
	if got := f.list(t, 1000+2499, false); len(got) != 1 {
		t.Fatalf("the 2500th follower: %q", summaries(got))
	}
	if got := f.list(t, 1000+2500, false); len(got) != 0 {
		t.Fatalf("the 2501st follower was told: %q", summaries(got))
	}
}

// A new sale reaches the shop's fans unless they turned shopSales off (on by default),
// never its merchant, and names the shop and the sale.
func TestANewSaleReachesTheShopsFans(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 500)
	f.audience.fans[7] = []int64{userA, userB, userC, userD}
	off := false
	if _, err := f.svc.Commands.UpdateSettings(t.Context(), userC, inbox.SettingsChange{ShopSales: &off}); err != nil {
		t.Fatal(err)
	}
	f.handle(t, newSale(userD, 7, 70))
	for _, u := range []int64{userA, userB} {
		got := f.list(t, u, false)
		wantList(t, fmt.Sprintf("fan %d", u), got, `SHOP_NEW_SALE by 0 (0) read=false: Hotpot King has a new flash sale: “Half-price hotpot”`)
		if got[0].VoucherID != 70 || got[0].Sale == nil || got[0].Shop == nil || got[0].Actor != nil {
			t.Fatalf("fan %d's notification %+v", u, got[0])
		}
	}
	for _, u := range []int64{userC, userD} {
		if got := f.list(t, u, false); len(got) != 0 {
			t.Fatalf("user %d was told: %q", u, summaries(got))
		}
	}
}

// memWarnings keeps the unpaid orders and their warned marks in memory, with the
// conditional mark of the real store.
type memWarnings struct {
	mu     sync.Mutex
	orders map[int64]*domain.VoucherOrder
	warned map[int64]bool
}

func (m *memWarnings) DueWarnings(_ context.Context, now, until time.Time, limit int) ([]domain.VoucherOrder, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.VoucherOrder
	for _, o := range m.orders {
		if o.Status == domain.OrderCreated && !m.warned[o.ID] && o.PayDeadline.After(now) && !o.PayDeadline.After(until) && len(out) < limit {
			out = append(out, *o)
		}
	}
	return out, nil
}

func (m *memWarnings) MarkWarned(_ context.Context, id int64, _ time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.orders[id]
	if !ok || o.Status != domain.OrderCreated || m.warned[id] {
		return false, nil
	}
	m.warned[id] = true
	return true, nil
}

func (m *memWarnings) UnmarkWarned(_ context.Context, id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.warned, id)
	return nil
}

// An unpaid order's buyer is warned once, ExpiryWarningBefore before its deadline, by
// one of several sweepers; a paid order's buyer is not warned.
func TestTheBuyerOfAnUnpaidOrderIsWarnedOnce(t *testing.T) {
	t.Parallel()
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	deadline := orderDeadline
	warnings := &memWarnings{orders: map[int64]*domain.VoucherOrder{
		52: {ID: 52, UserID: userA, Status: domain.OrderCreated, PayDeadline: &deadline},
		51: {ID: 51, UserID: userB, Status: domain.OrderCreated, PayDeadline: &deadline},
	}, warned: map[int64]bool{}}
	cfg := inbox.Config{Keep: 500, ExpiryWarningBefore: 5 * time.Minute, ExpiryWarningInterval: time.Second, ExpiryWarningBatch: 100}
	f := newFixtureWith(t, cfg, warnings)
	// Several nodes sweep the same orders.
	g := newFixtureWith(t, cfg, warnings)
	sweep := func(what string, want int) {
		t.Helper()
		n1, err1 := f.svc.ExpiryWarner.RunOnce(t.Context())
		*g.clock = *f.clock
		n2, err2 := g.svc.ExpiryWarner.RunOnce(t.Context())
		if err1 != nil || err2 != nil || n1+n2 != want {
			t.Fatalf("%s: warned %d + %d (%v, %v); want %d", what, n1, n2, err1, err2, want)
		}
	}
	sweep("10 minutes before", 0)
	*f.clock = start.Add(9*time.Minute + 59*time.Second)
	sweep("just over 5 minutes before", 0)
	// B pays.
	warnings.mu.Lock()
	warnings.orders[51].Status = domain.OrderPaid
	warnings.mu.Unlock()
	*f.clock = start.Add(10 * time.Minute)
	sweep("5 minutes before", 1)
	*f.clock = start.Add(12 * time.Minute)
	sweep("3 minutes before", 0)
	wantList(t, "A's inbox", f.list(t, userA, false), `ORDER_EXPIRY_WARNING by 0 (0) read=false: Your order 52 expires in 5 minutes: pay it to keep it`)
	if got := g.list(t, userB, false); len(got) != 0 {
		t.Fatalf("B, who paid, was warned: %q", summaries(got))
	}
	if got := f.list(t, userB, false); len(got) != 0 {
		t.Fatalf("B, who paid, was warned: %q", summaries(got))
	}
}
