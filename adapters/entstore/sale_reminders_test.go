package entstore_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/reminders"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// reminderClock is a clock tests move by hand.
type reminderClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *reminderClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *reminderClock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.now = t }

// storeSales reads sales straight from the store.
type storeSales struct{ s *entstore.Store }

func (r storeSales) Voucher(ctx context.Context, id int64) (domain.Voucher, bool, error) {
	v, err := r.s.Vouchers().Voucher(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Voucher{}, false, nil
	}
	return v, err == nil, err
}

// countingBus counts the users announced.
type countingBus struct{ users atomic.Int64 }

func (b *countingBus) Publish(_ context.Context, ids ...int64) error {
	b.users.Add(int64(len(ids)))
	return nil
}

// reminderNode is what one server node runs of the reminders, on its own connection
// pool to the shared database.
type reminderNode struct {
	store *entstore.Store
	svc   *reminders.Service
	bus   *countingBus
}

func newReminderNode(t *testing.T, s *entstore.Store, clock *reminderClock, batch int, wrap func(reminders.Store) reminders.Store) reminderNode {
	t.Helper()
	var st reminders.Store = entstore.NewSaleReminders(s)
	if wrap != nil {
		st = wrap(st)
	}
	bus := &countingBus{}
	svc, err := reminders.New(reminders.Config{MaxPerUser: 3, Before: 5 * time.Minute, Batch: batch},
		reminders.Deps{Store: st, Sales: storeSales{s}, Owners: s.Shops(), Bus: bus, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return reminderNode{store: s, svc: svc, bus: bus}
}

// createSale writes a shop and a flash sale beginning at begin, for an hour.
func createSale(t *testing.T, s *entstore.Store, begin time.Time) domain.Voucher {
	t.Helper()
	typ := mustShopType(t, s, "美食")
	sh, err := s.Shops().CreateShop(t.Context(), domain.Shop{Name: "提醒小馆", TypeID: typ.ID, Longitude: 120.1, Latitude: 30.3})
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Vouchers().CreateVoucher(t.Context(), domain.Voucher{ShopID: sh.ID, Title: "秒杀券", PayValue: 100, ActualValue: 1000,
		FlashSale: &domain.FlashSale{Stock: 10, BeginTime: begin, EndTime: begin.Add(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// saleReminderCounts counts the SALE_REMINDER notifications of each of users about
// voucherID.
func saleReminderCounts(t *testing.T, s *entstore.Store, voucherID int64, users []int64) map[int64]int {
	t.Helper()
	notes := entstore.NewNotifications(s)
	out := map[int64]int{}
	for _, u := range users {
		ns, err := notes.Page(t.Context(), u, false, 0, 50)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range ns {
			if n.Kind == domain.NotifySaleReminder && n.VoucherID == voucherID {
				out[u]++
			}
		}
	}
	return out
}

func wantCode(t *testing.T, what string, err error, code domain.Code) {
	t.Helper()
	var coded *domain.Error
	if !errors.As(err, &coded) || coded.Code != code {
		t.Fatalf("%s: err = %v; want %s", what, err, code)
	}
}

// Reminders are sent SALE_REMINDER_BEFORE before the sale's begin time as it stands
// when they are due (a sale moved later is reminded of later), once, and a canceled
// one not at all.
func TestSaleRemindersSentOnceAtTheSalesTime(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		s := open(t)
		ctx := t.Context()
		start := time.Now().Truncate(time.Second)
		clock := &reminderClock{now: start}
		begin := start.Add(time.Hour)
		sale := createSale(t, s, begin)
		node := newReminderNode(t, s, clock, 2, nil)
		cmds := node.svc.Commands
		users := []int64{101, 102, 103, 104, 105}
		for _, u := range users {
			for range 2 { // idempotent
				if err := cmds.RemindMe(ctx, u, sale.ID); err != nil {
					t.Fatalf("remindMe by %d: %v", u, err)
				}
			}
		}
		for range 2 {
			if err := cmds.CancelReminder(ctx, 103, sale.ID); err != nil {
				t.Fatalf("cancelReminder: %v", err)
			}
		}
		marked, err := node.svc.Queries.Reminded(ctx, 103, []int64{sale.ID})
		if err != nil || marked[sale.ID] {
			t.Fatalf("user 103 after canceling: reminded %v, %v", marked, err)
		}
		counts, err := node.svc.Queries.Counts(ctx, domain.Actor{UserID: 1, Role: domain.RoleAdmin}, []int64{sale.ID})
		if err != nil || counts[sale.ID] != 4 {
			t.Fatalf("count for an ADMIN = %v, %v; want 4", counts, err)
		}
		if counts, _ := node.svc.Queries.Counts(ctx, domain.Actor{UserID: 101, Role: domain.RoleUser}, []int64{sale.ID}); len(counts) != 0 {
			t.Fatalf("count for a USER = %v; want none", counts)
		}
		wantCode(t, "remindMe of an unknown voucher", cmds.RemindMe(ctx, 101, sale.ID+1000), domain.CodeNotFound)

		// Not due yet; then the sale moves an hour later, so its first due time passes
		// without a reminder.
		clock.Set(begin.Add(-6 * time.Minute))
		if n, err := node.svc.Sender.RunOnce(ctx); err != nil || n != 0 {
			t.Fatalf("6 minutes before: sent %d, %v; want none", n, err)
		}
		begin = begin.Add(time.Hour)
		if _, err := s.Vouchers().UpdateFlashSale(ctx, sale.ID, func(_ domain.Voucher, fs *domain.FlashSale) error {
			fs.BeginTime, fs.EndTime = begin, begin.Add(time.Hour)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		clock.Set(begin.Add(-time.Hour - 4*time.Minute))
		if n, err := node.svc.Sender.RunOnce(ctx); err != nil || n != 0 {
			t.Fatalf("at the old due time: sent %d, %v; want none", n, err)
		}
		clock.Set(begin.Add(-4 * time.Minute))
		if n, err := node.svc.Sender.RunOnce(ctx); err != nil || n != 4 {
			t.Fatalf("at the new due time: sent %d, %v; want 4 (batches of 2)", n, err)
		}
		if n, err := node.svc.Sender.RunOnce(ctx); err != nil || n != 0 {
			t.Fatalf("again: sent %d, %v; want none", n, err)
		}
		got := saleReminderCounts(t, s, sale.ID, users)
		for _, u := range users {
			if want := map[bool]int{true: 0, false: 1}[u == 103]; got[u] != want {
				t.Fatalf("user %d has %d reminders; want %d (all: %v)", u, got[u], want, got)
			}
		}
		if node.bus.users.Load() != 4 {
			t.Fatalf("announced %d users; want 4", node.bus.users.Load())
		}

		// Once the sale has begun, and once it is over, reminders are refused.
		clock.Set(begin)
		wantCode(t, "remindMe of a sale begun", cmds.RemindMe(ctx, 106, sale.ID), domain.CodeAlreadyStarted)
		wantCode(t, "cancelReminder of a sale begun", cmds.CancelReminder(ctx, 101, sale.ID), domain.CodeAlreadyStarted)
		clock.Set(begin.Add(time.Hour))
		wantCode(t, "remindMe of a sale over", cmds.RemindMe(ctx, 106, sale.ID), domain.CodeEnded)
	})
}

// A user holds at most MaxPerUser reminders still waiting; asking again for one held
// is fine.
func TestSaleRemindersPerUserLimit(t *testing.T) {
	t.Parallel()
	onEveryStore(t, func(t *testing.T, open func(t *testing.T) *entstore.Store) {
		s := open(t)
		ctx := t.Context()
		clock := &reminderClock{now: time.Now()}
		node := newReminderNode(t, s, clock, 10, nil)
		var sales []domain.Voucher
		for range 4 {
			sales = append(sales, createSale(t, s, clock.Now().Add(time.Hour)))
		}
		for _, v := range sales[:3] {
			if err := node.svc.Commands.RemindMe(ctx, 7, v.ID); err != nil {
				t.Fatal(err)
			}
		}
		wantCode(t, "a fourth reminder", node.svc.Commands.RemindMe(ctx, 7, sales[3].ID), domain.CodeBadUserInput)
		if err := node.svc.Commands.RemindMe(ctx, 7, sales[0].ID); err != nil {
			t.Fatalf("asking again past the limit: %v", err)
		}
	})
}

// openShared opens two stores (two nodes' pools) on one fresh database.
func openShared(t *testing.T, db string) (*entstore.Store, *entstore.Store) {
	t.Helper()
	url := "sqlite://" + filepath.ToSlash(filepath.Join(t.TempDir(), "data", "dealspot.db"))
	if db == "postgres" {
		testsupport.Require(t, testsupport.EnvPostgres)
		url = testsupport.PostgresURL(t)
	}
	return openMigrated(t, url), openMigrated(t, url)
}

// remindAll has users remind of the sale, 16 at a time.
func remindAll(t *testing.T, cmds *reminders.Commands, voucherID int64, users []int64) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, len(users))
	next := make(chan int64)
	for range 16 {
		wg.Go(func() {
			for u := range next {
				if err := cmds.RemindMe(context.Background(), u, voucherID); err != nil {
					errs <- fmt.Errorf("user %d: %w", u, err)
				}
			}
		})
	}
	for _, u := range users {
		next <- u
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func userRange(from, n int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = from + int64(i)
	}
	return out
}

// wantEachOnce fails unless every user has exactly one reminder of the sale.
func wantEachOnce(t *testing.T, s *entstore.Store, voucherID int64, users []int64) {
	t.Helper()
	got := saleReminderCounts(t, s, voucherID, users)
	for _, u := range users {
		if got[u] != 1 {
			t.Fatalf("user %d has %d SALE_REMINDER notifications; want exactly 1", u, got[u])
		}
	}
}

// 1,000 users remind of one sale; two nodes' senders on the same database run at once:
// each user gets exactly one SALE_REMINDER.
func TestSaleRemindersTwoNodesSendEachOnce(t *testing.T) {
	t.Parallel()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			t.Parallel()
			s1, s2 := openShared(t, db)
			clock := &reminderClock{now: time.Now()}
			sale := createSale(t, s1, clock.Now().Add(time.Hour))
			a := newReminderNode(t, s1, clock, 50, nil)
			b := newReminderNode(t, s2, clock, 50, nil)
			users := userRange(10_000, 1000)
			remindAll(t, a.svc.Commands, sale.ID, users)
			clock.Set(clock.Now().Add(56 * time.Minute))
			var sent [2]int
			var wg sync.WaitGroup
			for i, n := range []reminderNode{a, b} {
				wg.Go(func() {
					for { // each node sweeps until nothing is due, as its ticker would
						k, err := n.svc.Sender.RunOnce(t.Context())
						if err != nil {
							t.Errorf("node %d: %v", i, err)
							return
						}
						if k == 0 {
							return
						}
						sent[i] += k
					}
				})
			}
			wg.Wait()
			if sent[0]+sent[1] != len(users) {
				t.Fatalf("nodes sent %d + %d; want %d in all", sent[0], sent[1], len(users))
			}
			t.Logf("node a sent %d, node b %d", sent[0], sent[1])
			wantEachOnce(t, s2, sale.ID, users)
		})
	}
}

// killingStore cancels its sender's context in the middle of a claim's transaction,
// after writing `after` notifications: the process dying half-way.
type killingStore struct {
	reminders.Store
	after  int64
	n      atomic.Int64
	cancel context.CancelFunc
}

func (k *killingStore) SendDue(ctx context.Context, d reminders.Due, limit int, notification func(domain.SaleReminder) inbox.Addition) ([]domain.SaleReminder, error) {
	return k.Store.SendDue(ctx, d, limit, func(r domain.SaleReminder) inbox.Addition {
		if k.n.Add(1) == k.after {
			k.cancel()
		}
		return notification(r)
	})
}

// A sender killed half-way (its transaction cut off mid-batch) loses nothing and sends
// nothing twice: a new node on the same database sends the rest.
func TestSaleRemindersSenderKilledHalfWay(t *testing.T) {
	t.Parallel()
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			t.Parallel()
			s1, s2 := openShared(t, db)
			clock := &reminderClock{now: time.Now()}
			sale := createSale(t, s1, clock.Now().Add(time.Hour))
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			killer := &killingStore{after: 525, cancel: cancel}
			a := newReminderNode(t, s1, clock, 50, func(st reminders.Store) reminders.Store { killer.Store = st; return killer })
			users := userRange(20_000, 1000)
			remindAll(t, a.svc.Commands, sale.ID, users)
			// One user cancels: never sent, by either node.
			if err := a.svc.Commands.CancelReminder(t.Context(), users[0], sale.ID); err != nil {
				t.Fatal(err)
			}
			clock.Set(clock.Now().Add(56 * time.Minute))
			sentA, err := a.svc.Sender.RunOnce(ctx)
			if err == nil {
				t.Fatalf("the killed sender finished (%d sent)", sentA)
			}
			if sentA != 500 {
				t.Fatalf("the killed sender committed %d; want the 10 batches before the kill, 500", sentA)
			}
			b := newReminderNode(t, s2, clock, 50, nil)
			sentB, err := b.svc.Sender.RunOnce(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if sentA+sentB != len(users)-1 {
				t.Fatalf("sent %d before the kill and %d after; want %d in all", sentA, sentB, len(users)-1)
			}
			if got := saleReminderCounts(t, s2, sale.ID, users[:1]); got[users[0]] != 0 {
				t.Fatalf("the canceled reminder was sent")
			}
			wantEachOnce(t, s2, sale.ID, users[1:])
		})
	}
}
