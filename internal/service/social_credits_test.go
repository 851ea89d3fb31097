package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
)

// TestCreditsAndLevel: credits follow the documented rule — +1 a day signed in (+5 on
// every 7th day in a row), +5 a note (taken back when it is deleted), +1 a yuan of a
// paid order (taken back on refund) — once each however often a sign-in or a payment
// notification is repeated, and the level follows from the credits.
func TestCreditsAndLevel(t *testing.T) {
	t.Parallel()
	databaseBackends(t, func(t *testing.T, env map[string]string) {
		env["DEALSPOT_TIMEZONE"] = "UTC"
		// The test drives the provider's notifications itself.
		env["PAYMENT_SIM_DELAY"] = "1h"
		day := func(d int) time.Time { return time.Date(2030, time.June, d, 12, 0, 0, 0, time.UTC) }
		clock := newTestClock(day(1))
		srv, svc, _ := startSocial(t, env, clock)
		anon := client(srv)
		s := login(t, anon, "13700000620")
		c := as(srv, s.AccessToken)
		uid := mustID(t, s.User.ID)
		ctx := context.Background()
		check := func(what string, credits, level int) {
			t.Helper()
			var out struct {
				Me   struct{ Credits, Level int }
				User struct{ Credits, Level int }
			}
			c.Do(t, `query($id: ID!) { me { credits level } user(id: $id) { credits level } }`, map[string]any{"id": s.User.ID}).Decode(t, &out)
			if out.Me.Credits != credits || out.Me.Level != level || out.User != out.Me {
				t.Fatalf("%s: me %+v, user %+v; want %d credits, level %d", what, out.Me, out.User, credits, level)
			}
		}
		check("a new user", 0, 0)
		for d := 1; d <= 6; d++ {
			clock.Set(day(d))
			for range 2 { // a retried sign-in earns nothing more
				c.Do(t, `mutation { signIn { consecutiveDays } }`, nil).Decode(t, &struct{}{})
			}
		}
		check("six days signed in", 6, 0)
		clock.Set(day(7))
		c.Do(t, `mutation { signIn { consecutiveDays } }`, nil).Decode(t, &struct{}{})
		check("the 7th day in a row", 12, 1)

		note := createBlog(t, c, "credited")
		check("a note", 17, 1)

		vo, err := svc.App.Commands.FlashSales.CreateVoucher(ctx, domain.Operator, seckill.VoucherInput{ShopID: 1, Title: "set meal", PayValue: 2500, ActualValue: 4000})
		if err != nil {
			t.Fatal(err)
		}
		o, err := svc.App.Commands.BuyVoucher.Handle(ctx, user(uid), vo.ID, 2)
		if err != nil {
			t.Fatal(err)
		}
		check("an unpaid order", 17, 1)
		p, err := svc.App.Commands.PayOrder.Handle(ctx, user(uid), o.ID)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // the provider repeats its notification
			if err := svc.Ops.PaymentNotifications.Notify(ctx, orders.Notification{
				PaymentID: p.ID, ProviderRef: p.ProviderRef, Succeeded: true, Amount: p.Amount, At: time.Now(),
			}); err != nil {
				t.Fatal(err)
			}
		}
		check("an order of 50 yuan paid", 67, 2)

		var del struct{ DeleteBlog bool }
		c.Do(t, `mutation($id: ID!) { deleteBlog(id: $id) }`, map[string]any{"id": note.ID}).Decode(t, &del)
		check("the note deleted", 62, 2)
		if _, err := svc.App.Commands.RequestRefund.Handle(ctx, user(uid), o.ID, "changed my mind"); err != nil {
			t.Fatal(err)
		}
		check("the order refunded", 12, 1)
	})
}
