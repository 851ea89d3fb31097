package service_test

import (
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// movableClock is a clock the test sets.
type movableClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *movableClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *movableClock) Set(t time.Time)     { c.mu.Lock(); defer c.mu.Unlock(); c.now = t }
func (c *movableClock) Add(d time.Duration) { c.Set(c.Now().Add(d)) }

type reminderVoucher struct {
	ID            string
	RemindedByMe  bool
	ReminderCount *int
}

const reminderFields = `id remindedByMe reminderCount`

// TestSaleRemindersOverGraphQL: remindMe and cancelReminder through the GraphQL handler
// (idempotent, coded errors), remindedByMe for the caller, reminderCount for the shop's
// MERCHANT and ADMINs only, and the SALE_REMINDER notification written once when the
// sale is SALE_REMINDER_BEFORE away, naming the voucher; a canceled reminder not sent.
func TestSaleRemindersOverGraphQL(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		env["ADMIN_PHONES"] = "13700000800"
		env["SALE_REMINDER_INTERVAL"] = "1h" // the test runs the sender itself
		clock := &movableClock{now: time.Now()}
		srv, node := startService(t, env, service.WithReminderClock(clock.Now))
		anon := client(srv)
		admin := as(srv, login(t, anon, "13700000800").AccessToken)
		a := as(srv, login(t, anon, "13700000801").AccessToken)
		b := as(srv, login(t, anon, "13700000802").AccessToken)
		m := login(t, anon, "13700000803")
		var owned struct{ SetShopOwner struct{ ID string } }
		admin.Do(t, `mutation($u: ID!) { setShopOwner(shopId: "1", userId: $u) { id } }`, map[string]any{"u": m.User.ID}).Decode(t, &owned)
		merchant := as(srv, login(t, anon, "13700000803").AccessToken)

		sale := createSale(t, admin, "1", 100, 5, time.Hour, 2*time.Hour)
		live := createSale(t, admin, "1", 100, 5, -time.Minute, time.Hour)
		normal := createVoucher(t, admin, "1", 100)

		set := func(c testsupport.GraphQLClient, mutation, id string) reminderVoucher {
			t.Helper()
			var out map[string]reminderVoucher
			c.Do(t, `mutation($v: ID!) { `+mutation+`(voucherId: $v) { `+reminderFields+` } }`, map[string]any{"v": id}).Decode(t, &out)
			return out[mutation]
		}
		for i := range 2 { // idempotent
			if v := set(a, "remindMe", sale); v.ID != sale || !v.RemindedByMe || v.ReminderCount != nil {
				t.Fatalf("remindMe #%d by a = %+v; want reminded, no count for a USER", i+1, v)
			}
		}
		if v := set(b, "remindMe", sale); !v.RemindedByMe {
			t.Fatalf("remindMe by b = %+v", v)
		}
		for i := range 2 {
			if v := set(b, "cancelReminder", sale); v.RemindedByMe {
				t.Fatalf("cancelReminder #%d by b = %+v; want not reminded", i+1, v)
			}
		}
		count := func(c testsupport.GraphQLClient) *int {
			t.Helper()
			var out struct {
				Shop struct{ Vouchers []reminderVoucher }
			}
			c.Do(t, `{ shop(id: "1") { vouchers { `+reminderFields+` } } }`, nil).Decode(t, &out)
			for _, v := range out.Shop.Vouchers {
				if v.ID == sale {
					return v.ReminderCount
				}
			}
			t.Fatalf("sale %s not among shop 1's vouchers", sale)
			return nil
		}
		for name, c := range map[string]testsupport.GraphQLClient{"the shop's merchant": merchant, "an admin": admin} {
			if n := count(c); n == nil || *n != 1 {
				t.Fatalf("reminderCount for %s = %v; want 1", name, n)
			}
		}
		for name, c := range map[string]testsupport.GraphQLClient{"a user": a, "anyone": anon} {
			if n := count(c); n != nil {
				t.Fatalf("reminderCount for %s = %d; want null", name, *n)
			}
		}

		for _, tc := range []struct {
			name string
			c    testsupport.GraphQLClient
			id   string
			code string
		}{
			{"unknown voucher", a, "987654", "NOT_FOUND"},
			{"sale begun", a, live, "ALREADY_STARTED"},
			{"normal voucher", a, normal, "BAD_USER_INPUT"},
			{"anonymous", anon, sale, "UNAUTHENTICATED"},
		} {
			for _, mutation := range []string{"remindMe", "cancelReminder"} {
				r := tc.c.Do(t, `mutation($v: ID!) { `+mutation+`(voucherId: $v) { id } }`, map[string]any{"v": tc.id})
				if codes := r.Codes(); len(codes) != 1 || codes[0] != tc.code {
					t.Fatalf("%s of %s: codes %v; want %s", mutation, tc.name, codes, tc.code)
				}
			}
		}

		ctx := t.Context()
		if n, err := node.Ops.SaleReminders.RunOnce(ctx); err != nil || n != 0 {
			t.Fatalf("an hour before: sent %d, %v; want none", n, err)
		}
		clock.Add(56 * time.Minute)
		if n, err := node.Ops.SaleReminders.RunOnce(ctx); err != nil || n != 1 {
			t.Fatalf("4 minutes before: sent %d, %v; want a's one", n, err)
		}
		if n, err := node.Ops.SaleReminders.RunOnce(ctx); err != nil || n != 0 {
			t.Fatalf("again: sent %d, %v; want none", n, err)
		}
		var inbox struct {
			Notifications struct {
				Edges []struct {
					Node struct {
						Kind    string
						Text    string
						Voucher *struct{ ID string }
					}
				}
			}
			UnreadNotificationCount int
		}
		a.Do(t, `{ notifications(first: 10) { edges { node { kind text voucher { id } } } } unreadNotificationCount }`, nil).Decode(t, &inbox)
		if len(inbox.Notifications.Edges) != 1 || inbox.UnreadNotificationCount != 1 {
			t.Fatalf("a's inbox = %+v; want one unread reminder", inbox)
		}
		if n := inbox.Notifications.Edges[0].Node; n.Kind != "SALE_REMINDER" || n.Voucher == nil || n.Voucher.ID != sale || n.Text == "" {
			t.Fatalf("a's notification = %+v; want a SALE_REMINDER of sale %s", n, sale)
		}
		b.Do(t, `{ notifications(first: 10) { edges { node { kind } } } unreadNotificationCount }`, nil).Decode(t, &inbox)
		if len(inbox.Notifications.Edges) != 0 {
			t.Fatalf("b canceled, yet has %+v", inbox.Notifications.Edges)
		}
	})
}
