package service_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// waitlistEnv is storeBackends' env for a node whose waitlist is driven by the test.
func waitlistEnv(env map[string]string, extra map[string]string) map[string]string {
	return merge(env, map[string]string{
		"CLAIM_RATE_PER_USER": "off", "ORDER_EXPIRY_INTERVAL": "100ms", "ORDER_PAY_TIMEOUT": "1h",
		"WAITLIST_SWEEP_INTERVAL": "100ms", "PAYMENT_SIM_DELAY": "1h",
	}, extra)
}

// soldOutSale creates a sale of stock units and has users 1..stock claim them all,
// returning the sale and each buyer's order id.
func soldOutSale(t *testing.T, svc *service.Node, stock int) (domain.Voucher, map[int64]int64) {
	t.Helper()
	v := newSale(t, svc, int64(stock))
	orders := map[int64]int64{}
	for u := int64(1); u <= int64(stock); u++ {
		r, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), u, v.ID)
		if err != nil {
			t.Fatalf("claim of user %d: %v", u, err)
		}
		orders[u] = r.OrderID
	}
	for u, id := range orders {
		if _, err := waitWritten(svc, u, id); err != nil {
			t.Fatal(err)
		}
	}
	drain(t, svc, v.ID)
	if _, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), 999999, v.ID); domain.ErrorCode(err) != domain.CodeSoldOut {
		t.Fatalf("a claim of the sold-out sale: %v, want SOLD_OUT", err)
	}
	return v, orders
}

// joinInOrder makes users join the sale's waitlist one after the other and checks each
// place's position.
func joinInOrder(t *testing.T, svc *service.Node, voucherID int64, users []int64) {
	t.Helper()
	for i, u := range users {
		e, err := svc.App.Commands.JoinWaitlist.Handle(context.Background(), user(u), voucherID)
		if err != nil {
			t.Fatalf("join of user %d: %v", u, err)
		}
		if e.Status != domain.WaitlistWaiting || e.Position != i+1 {
			t.Fatalf("user %d joined %s at position %d, want WAITING at %d", u, e.Status, e.Position, i+1)
		}
	}
}

// placeOf is the user's live place in the sale's line (found false: none).
func placeOf(t *testing.T, svc *service.Node, userID, voucherID int64) (domain.WaitlistEntry, bool) {
	t.Helper()
	es, err := svc.App.Queries.MyWaitlist.Handle(context.Background(), user(userID))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.VoucherID == voucherID {
			return e, true
		}
	}
	return domain.WaitlistEntry{}, false
}

// waitlistPoll polls cond until it holds, failing after a while.
func waitlistPoll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// heldUnits is the audit's count of the units held for the sale's waitlist.
func heldUnits(t *testing.T, svc *service.Node, voucherID int64) int64 {
	t.Helper()
	a, err := svc.Ops.Reconciler.Audit(context.Background(), voucherID)
	if err != nil {
		t.Fatal(err)
	}
	return a.Held
}

// checkAudit drains the sale and checks I1–I5 with the held units counted.
func checkAudit(t *testing.T, svc *service.Node, voucherID, stock int64) seckill.Audit {
	t.Helper()
	a := drain(t, svc, voucherID)
	if bad := a.Check(stock); len(bad) > 0 {
		t.Fatalf("audit of sale %d: %v (%+v)", voucherID, bad, a)
	}
	return a
}

// expireNow moves the orders' pay deadlines into the past, for the expiry sweep.
func expireNow(t *testing.T, svc *service.Node, orderIDs []int64) {
	t.Helper()
	q := "UPDATE voucher_orders SET pay_deadline = ? WHERE id = ?"
	if svc.Store.Dialect() == dialect.Postgres {
		q = "UPDATE voucher_orders SET pay_deadline = $1 WHERE id = $2"
	}
	for _, id := range orderIDs {
		if _, err := svc.Store.DB().ExecContext(context.Background(), q, time.Now().Add(-time.Minute).UTC(), id); err != nil {
			t.Fatal(err)
		}
	}
}

// directClaims floods the sale with direct claims of fresh users (16 goroutines, users
// from base on) until the returned stop is called; stop waits for them and fails the
// test when a claim was answered anything but SOLD_OUT or none was made, and returns
// how many were accepted.
func directClaims(t *testing.T, svc *service.Node, voucherID, base int64) (stop func() int64) {
	t.Helper()
	ctx := context.Background()
	done := make(chan struct{})
	var (
		wg      sync.WaitGroup
		stolen  atomic.Int64
		tries   atomic.Int64
		answers sync.Map
	)
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := int64(0); ; n++ {
				select {
				case <-done:
					return
				default:
				}
				_, err := svc.App.Commands.ClaimVoucher.Handle(ctx, base+int64(w)*100000+n, voucherID)
				tries.Add(1)
				if err == nil {
					stolen.Add(1)
				} else {
					answers.Store(domain.ErrorCode(err), true)
				}
			}
		}()
	}
	halt := sync.OnceFunc(func() { close(done); wg.Wait() })
	t.Cleanup(halt) // also when the test fails early
	return func() int64 {
		t.Helper()
		halt()
		if tries.Load() == 0 {
			t.Fatal("the flood made no claim")
		}
		answers.Range(func(k, _ any) bool {
			if k.(domain.Code) != domain.CodeSoldOut {
				t.Errorf("a direct claim was answered %s, want SOLD_OUT", k)
			}
			return true
		})
		return stolen.Load()
	}
}

// checkLine checks the places of the users in line, in order: the first offered hold an
// offer (for ttl, when not 0), the others wait at their live positions.
func checkLine(t *testing.T, svc *service.Node, voucherID int64, line []int64, offered int, ttl time.Duration) {
	t.Helper()
	for i, u := range line {
		e, ok := placeOf(t, svc, u, voucherID)
		switch {
		case !ok:
			t.Fatalf("user %d (#%d in line) lost the place", u, i+1)
		case i < offered && (e.Status != domain.WaitlistOffered || e.Offer == nil):
			t.Fatalf("user %d, #%d in line, is %s without an offer", u, i+1, e.Status)
		case i < offered && ttl > 0 && e.Offer.ExpiresAt.Sub(e.Offer.OfferedAt) != ttl:
			t.Fatalf("offer of user %d held %s, want WAITLIST_OFFER_TTL", u, e.Offer.ExpiresAt.Sub(e.Offer.OfferedAt))
		case i >= offered && (e.Status != domain.WaitlistWaiting || e.Position != i+1-offered):
			t.Fatalf("user %d, #%d in line: %s at position %d, want WAITING at %d", u, i+1, e.Status, e.Position, i+1-offered)
		}
	}
}

// TestWaitlistOffersReturnedUnitsInOrder: a sale of 30 sells out, 100 users join its
// waitlist, 20 orders are canceled and 10 expire unpaid while direct claims flood the
// sale and the reconciler runs: exactly the first 30 in line are offered a unit, the flood takes none, the audit
// counts the held units; the 30 accept and hold the sale's 30 orders.
func TestWaitlistOffersReturnedUnitsInOrder(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		// The reconciler repairs the sale's drift every 200ms meanwhile: a released order's
		// unit is held for the line in the release's transaction, so it never sits in the
		// stock for the repair to hand to the gate.
		_, svc := startService(t, waitlistEnv(env, map[string]string{"WAITLIST_OFFER_TTL": "1h", "RECONCILE_INTERVAL": "200ms"}))
		ctx := context.Background()
		const stock, waiting = 30, 100
		v, bought := soldOutSale(t, svc, stock)
		line := make([]int64, waiting)
		for i := range line {
			line[i] = 1001 + int64(i)
		}
		joinInOrder(t, svc, v.ID, line)

		// A flood of direct claims by other users while the units come back.
		stopFlood := directClaims(t, svc, v.ID, 100000)
		var expire []int64
		for u := int64(1); u <= stock; u++ {
			if u <= 20 {
				if _, err := svc.App.Commands.CancelOrder.Handle(ctx, user(u), bought[u]); err != nil {
					t.Fatalf("cancel of user %d: %v", u, err)
				}
			} else {
				expire = append(expire, bought[u])
			}
		}
		expireNow(t, svc, expire)
		waitlistPoll(t, "30 units held", func() bool { return heldUnits(t, svc, v.ID) == stock })
		time.Sleep(200 * time.Millisecond) // the flood goes on a little after the last offer
		if n := stopFlood(); n != 0 {
			t.Fatalf("direct claims took %d units during the offers", n)
		}
		a := checkAudit(t, svc, v.ID, stock)
		if a.Held != stock || a.Orders.Created != 0 || a.DBStock != 0 || a.RedisStock != 0 {
			t.Fatalf("audit %+v: want 30 held units, no order and no stock", a)
		}
		checkLine(t, svc, v.ID, line, stock, time.Hour)
		// The 30 take their units: orders as a claim makes them, one each.
		for _, u := range line[:stock] {
			o, err := svc.App.Commands.AcceptOffer.Handle(ctx, user(u), v.ID)
			if err != nil {
				t.Fatalf("accept of user %d: %v", u, err)
			}
			if o.Status != domain.OrderCreated || o.PayDeadline == nil || o.Kind != domain.VoucherFlashSale || o.Amount != v.PayValue {
				t.Fatalf("accepted order %+v: want a CREATED flash-sale order with a pay deadline", o)
			}
			if d := time.Until(*o.PayDeadline); d < 59*time.Minute || d > time.Hour {
				t.Fatalf("pay deadline in %s, want ORDER_PAY_TIMEOUT (1h)", d)
			}
			if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, u, v.ID); domain.ErrorCode(err) != domain.CodeAlreadyClaimed {
				t.Fatalf("a claim after accepting: %v, want ALREADY_CLAIMED", err)
			}
			if _, err := svc.App.Commands.AcceptOffer.Handle(ctx, user(u), v.ID); domain.ErrorCode(err) != domain.CodeNoOffer {
				t.Fatalf("a second acceptOffer: %v, want NO_OFFER", err)
			}
		}
		a = checkAudit(t, svc, v.ID, stock)
		if a.Held != 0 || a.Orders.Created != stock || a.RedisHolders != stock {
			t.Fatalf("audit %+v: want 30 orders of 30 holders, nothing held", a)
		}
	})
}

// TestWaitlistOfferRunsOutAndPassesOn: an offer not accepted within WAITLIST_OFFER_TTL
// passes to the next in line, acceptOffer then answers OFFER_EXPIRED; declined by the
// last in line, the unit goes back to the stock and a direct claim takes it.
func TestWaitlistOfferRunsOutAndPassesOn(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		_, svc := startService(t, waitlistEnv(env, map[string]string{"WAITLIST_OFFER_TTL": "1s"}))
		ctx := context.Background()
		v, bought := soldOutSale(t, svc, 1)
		// Joining needs a sold-out sale, a user without an order, and is idempotent.
		if _, err := svc.App.Commands.JoinWaitlist.Handle(ctx, user(1), v.ID); domain.ErrorCode(err) != domain.CodeAlreadyClaimed {
			t.Fatalf("the buyer joining: %v, want ALREADY_CLAIMED", err)
		}
		joinInOrder(t, svc, v.ID, []int64{2, 3})
		if e, err := svc.App.Commands.JoinWaitlist.Handle(ctx, user(2), v.ID); err != nil || e.Position != 1 {
			t.Fatalf("joining again: %+v %v, want the first place", e, err)
		}
		if _, err := svc.App.Commands.AcceptOffer.Handle(ctx, user(2), v.ID); domain.ErrorCode(err) != domain.CodeNoOffer {
			t.Fatalf("accept without an offer: %v, want NO_OFFER", err)
		}
		if _, err := svc.App.Commands.CancelOrder.Handle(ctx, user(1), bought[1]); err != nil {
			t.Fatal(err)
		}
		first, ok := placeOf(t, svc, 2, v.ID)
		if !ok || first.Offer == nil {
			t.Fatalf("user 2's place after the cancel: %+v, want an offer", first)
		}
		checkAudit(t, svc, v.ID, 1)
		waitlistPoll(t, "the offer passes to user 3", func() bool {
			e, ok := placeOf(t, svc, 3, v.ID)
			return ok && e.Offer != nil
		})
		if _, ok := placeOf(t, svc, 2, v.ID); ok {
			t.Fatal("user 2 kept a place after the offer ran out")
		}
		if _, err := svc.App.Commands.AcceptOffer.Handle(ctx, user(2), v.ID); domain.ErrorCode(err) != domain.CodeOfferExpired {
			t.Fatalf("accept after the offer ran out: %v, want OFFER_EXPIRED", err)
		}
		if a := checkAudit(t, svc, v.ID, 1); a.Held != 1 {
			t.Fatalf("audit %+v: want the unit held", a)
		}
		if ok, err := svc.App.Commands.DeclineOffer.Handle(ctx, user(3), v.ID); err != nil || !ok {
			t.Fatalf("decline: %v %v", ok, err)
		}
		a := checkAudit(t, svc, v.ID, 1)
		if a.Held != 0 || a.DBStock != 1 || a.RedisStock != 1 {
			t.Fatalf("audit %+v: want the unit back in the stock", a)
		}
		if _, err := svc.App.Commands.ClaimVoucher.Handle(ctx, 4, v.ID); err != nil {
			t.Fatalf("a direct claim of the unit back in stock: %v", err)
		}
	})
}

// startNode builds a node on env without closing it at the test's end (the caller does).
func startNode(t *testing.T, env map[string]string) *service.Node {
	t.Helper()
	testsupport.DevModeOnPurpose(env)
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// TestWaitlistOfferRunsOutAfterARestart: the node that held a unit stops; a new node on
// the same database passes the offer that ran out meanwhile to the next in line.
func TestWaitlistOfferRunsOutAfterARestart(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		env = waitlistEnv(env, map[string]string{"WAITLIST_OFFER_TTL": "1s"})
		if env["DATABASE_URL"] == "" {
			env["DATABASE_URL"] = "sqlite://" + env["DEALSPOT_DATA_DIR"] + "/waitlist.db"
		}
		ctx := context.Background()
		first := startNode(t, env)
		v, bought := soldOutSale(t, first, 1)
		joinInOrder(t, first, v.ID, []int64{2, 3})
		if _, err := first.App.Commands.CancelOrder.Handle(ctx, user(1), bought[1]); err != nil {
			t.Fatal(err)
		}
		if e, ok := placeOf(t, first, 2, v.ID); !ok || e.Offer == nil {
			t.Fatalf("user 2's place: %+v, want an offer", e)
		}
		if err := first.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond) // the offer runs out while no node runs

		second := startNode(t, env)
		t.Cleanup(func() {
			if err := second.Close(); err != nil {
				t.Error(err)
			}
		})
		waitlistPoll(t, "the new node passes the offer to user 3", func() bool {
			e, ok := placeOf(t, second, 3, v.ID)
			return ok && e.Offer != nil
		})
		if _, err := second.App.Commands.AcceptOffer.Handle(ctx, user(2), v.ID); domain.ErrorCode(err) != domain.CodeOfferExpired {
			t.Fatalf("user 2's accept: %v, want OFFER_EXPIRED", err)
		}
		o, err := second.App.Commands.AcceptOffer.Handle(ctx, user(3), v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := waitWritten(second, 3, o.ID); err != nil {
			t.Fatal(err)
		}
		if a := checkAudit(t, second, v.ID, 1); a.Orders.Created != 1 || a.Held != 0 {
			t.Fatalf("audit %+v: want user 3's order", a)
		}
	})
}

// TestWaitlistJoinRules: with nobody waiting a returned unit goes back to the stock, and
// a sale with stock, an anonymous caller or an unknown sale cannot be joined.
func TestWaitlistJoinRules(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		_, svc := startService(t, waitlistEnv(env, nil))
		ctx := context.Background()
		v, bought := soldOutSale(t, svc, 2)
		if _, err := svc.App.Commands.CancelOrder.Handle(ctx, user(1), bought[1]); err != nil {
			t.Fatal(err)
		}
		if a := checkAudit(t, svc, v.ID, 2); a.Held != 0 || a.RedisStock != 1 {
			t.Fatalf("audit %+v: with nobody waiting the unit goes back to the stock", a)
		}
		if _, err := svc.App.Commands.JoinWaitlist.Handle(ctx, user(5), v.ID); domain.ErrorCode(err) != domain.CodeConflict {
			t.Fatalf("joining a sale with stock: %v, want CONFLICT", err)
		}
		if _, err := svc.App.Commands.JoinWaitlist.Handle(ctx, domain.Actor{}, v.ID); domain.ErrorCode(err) != domain.CodeUnauthenticated {
			t.Fatalf("joining anonymously: %v, want UNAUTHENTICATED", err)
		}
		if _, err := svc.App.Commands.JoinWaitlist.Handle(ctx, user(5), 1<<40); domain.ErrorCode(err) != domain.CodeNotFound {
			t.Fatalf("joining an unknown sale: %v, want NOT_FOUND", err)
		}
	})
}

// TestWaitlistOverGraphQL: through the HTTP handler, a user answered SOLD_OUT joins the
// waitlist (again: the same place), reads the place and, once the buyer cancels, the
// offer (also in the inbox), accepts it into a CREATED order and cannot claim again.
func TestWaitlistOverGraphQL(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		srv, svc := startService(t, waitlistEnv(env, nil))
		v := newSale(t, svc, 1)
		vid := fmt.Sprint(v.ID)
		buyer, waiter := client(srv), client(srv)
		buyer.Token = login(t, buyer, "+8613800138101").AccessToken
		waiter.Token = login(t, waiter, "+8613800138102").AccessToken
		const claim = `mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`
		var claimed struct{ ClaimVoucher struct{ OrderID string } }
		buyer.Do(t, claim, map[string]any{"v": vid}).Decode(t, &claimed)
		drain(t, svc, v.ID)
		if codes := waiter.Do(t, claim, map[string]any{"v": vid}).Codes(); len(codes) != 1 || codes[0] != "SOLD_OUT" {
			t.Fatalf("the second claim: %v, want SOLD_OUT", codes)
		}
		const join = `mutation($v: ID!) { joinWaitlist(voucherId: $v) { id voucherId status position offer { expiresAt } voucher { id } } }`
		type entry struct {
			ID, VoucherID, Status string
			Position              *int
			Offer                 *struct{ ExpiresAt time.Time }
			Voucher               struct{ ID string }
		}
		var joined struct{ JoinWaitlist entry }
		waiter.Do(t, join, map[string]any{"v": vid}).Decode(t, &joined)
		if e := joined.JoinWaitlist; e.Status != "WAITING" || e.Position == nil || *e.Position != 1 || e.Voucher.ID != vid {
			t.Fatalf("joinWaitlist: %+v, want WAITING at 1", e)
		}
		var again struct{ JoinWaitlist entry }
		waiter.Do(t, join, map[string]any{"v": vid}).Decode(t, &again)
		if again.JoinWaitlist.ID != joined.JoinWaitlist.ID {
			t.Fatalf("joining again gave place %s, want %s", again.JoinWaitlist.ID, joined.JoinWaitlist.ID)
		}
		if codes := buyer.Do(t, join, map[string]any{"v": vid}).Codes(); len(codes) != 1 || codes[0] != "ALREADY_CLAIMED" {
			t.Fatalf("the buyer joining: %v, want ALREADY_CLAIMED", codes)
		}
		const accept = `mutation($v: ID!) { acceptOffer(voucherId: $v) { id status payDeadline voucherId } }`
		if codes := waiter.Do(t, accept, map[string]any{"v": vid}).Codes(); len(codes) != 1 || codes[0] != "NO_OFFER" {
			t.Fatalf("accept before an offer: %v, want NO_OFFER", codes)
		}
		buyer.Do(t, `mutation($o: ID!) { cancelOrder(orderId: $o) { status } }`, map[string]any{"o": claimed.ClaimVoucher.OrderID}).Decode(t, &struct{}{})
		var mine struct{ MyWaitlist []entry }
		waiter.Do(t, `{ myWaitlist { id voucherId status position offer { expiresAt } voucher { id } } }`, nil).Decode(t, &mine)
		if len(mine.MyWaitlist) != 1 || mine.MyWaitlist[0].Status != "OFFERED" || mine.MyWaitlist[0].Offer == nil ||
			mine.MyWaitlist[0].Position != nil || time.Until(mine.MyWaitlist[0].Offer.ExpiresAt) < time.Minute {
			t.Fatalf("myWaitlist after the cancel: %+v, want an offer for WAITLIST_OFFER_TTL", mine.MyWaitlist)
		}
		waitlistPoll(t, "the offer in the inbox", func() bool {
			var inbox struct {
				Notifications struct {
					Edges []struct{ Node struct{ Kind string } }
				}
			}
			waiter.Do(t, `{ notifications(first: 10) { edges { node { kind } } } }`, nil).Decode(t, &inbox)
			for _, e := range inbox.Notifications.Edges {
				if e.Node.Kind == "WAITLIST_OFFER" {
					return true
				}
			}
			return false
		})
		var accepted struct {
			AcceptOffer struct {
				ID, Status, VoucherID string
				PayDeadline           *time.Time
			}
		}
		waiter.Do(t, accept, map[string]any{"v": vid}).Decode(t, &accepted)
		if o := accepted.AcceptOffer; o.Status != "CREATED" || o.PayDeadline == nil || o.VoucherID != vid {
			t.Fatalf("acceptOffer: %+v, want a CREATED order with a pay deadline", o)
		}
		if codes := waiter.Do(t, claim, map[string]any{"v": vid}).Codes(); len(codes) != 1 || codes[0] != "ALREADY_CLAIMED" {
			t.Fatalf("a claim after accepting: %v, want ALREADY_CLAIMED", codes)
		}
		waiter.Do(t, `{ myWaitlist { id } }`, nil).Decode(t, &mine)
		if len(mine.MyWaitlist) != 0 {
			t.Fatalf("myWaitlist after accepting: %+v, want none", mine.MyWaitlist)
		}
		checkAudit(t, svc, v.ID, 1)
	})
}

// offerNotices counts the user's WAITLIST_OFFER notifications of the sale, read or not.
func offerNotices(t *testing.T, svc *service.Node, userID, voucherID int64) int {
	t.Helper()
	page, err := svc.App.Queries.Inbox.Notifications(context.Background(), userID, 50, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range page.Items {
		if v.Kind == domain.NotifyWaitlistOffer && v.VoucherID == voucherID {
			n++
		}
	}
	return n
}

// TestWaitlistSweepAnnouncesOffersANodeLeftUntold: the transaction that releases an
// order holds its unit for the first in line; a node stopped right after it never tells
// that user. The waitlist sweep writes the WAITLIST_OFFER notification once the offer is
// WAITLIST_ANNOUNCE_GRACE old — once, with two sweeps racing, and not again after the
// user read it — and does the same for the next in line when the unit passes on untold.
func TestWaitlistSweepAnnouncesOffersANodeLeftUntold(t *testing.T) {
	t.Parallel()
	storeBackends(t, func(t *testing.T, env map[string]string) {
		// The node's own order expiry and waitlist sweep stay idle: the test runs them.
		_, svc := startService(t, waitlistEnv(env, map[string]string{"WAITLIST_OFFER_TTL": "1h", "WAITLIST_ANNOUNCE_GRACE": "50ms",
			"WAITLIST_SWEEP_INTERVAL": "1h", "ORDER_EXPIRY_INTERVAL": "1h"}))
		ctx := context.Background()
		v, bought := soldOutSale(t, svc, 1)
		joinInOrder(t, svc, v.ID, []int64{2, 3})

		// The order expires and its release holds the unit for user 2; the node stops
		// before handing the unit to the sale, which would announce it.
		expireNow(t, svc, []int64{bought[1]})
		released, err := svc.Store.Orders().ExpireDue(ctx, time.Now(), 10, orders.LineHold{OfferTTL: time.Hour})
		if err != nil || len(released) != 1 {
			t.Fatalf("expire the order: %v %v, want it released", released, err)
		}
		e, ok := placeOf(t, svc, 2, v.ID)
		if !ok || e.Offer == nil {
			t.Fatalf("user 2's place: %+v, want the unit held", e)
		}
		if n := offerNotices(t, svc, 2, v.ID); n != 0 {
			t.Fatalf("user 2 has %d offer notifications before the sweep, want none", n)
		}
		time.Sleep(100 * time.Millisecond) // past WAITLIST_ANNOUNCE_GRACE

		// Two sweeps at once, as two nodes' sweeps would run on one database.
		var (
			wg        sync.WaitGroup
			announced atomic.Int64
		)
		for range 2 {
			wg.Go(func() {
				_, n, err := svc.Ops.WaitlistExpiry.RunOnce(ctx)
				if err != nil {
					t.Error(err)
				}
				announced.Add(int64(n))
			})
		}
		wg.Wait()
		if n := offerNotices(t, svc, 2, v.ID); n != 1 {
			t.Fatalf("user 2 has %d offer notifications after two sweeps, want 1", n)
		}
		if n := announced.Load(); n != 1 {
			t.Fatalf("the sweeps announced %d offers, want 1", n)
		}
		// Announced, it is not announced again, also once the user has read it.
		if _, err := svc.App.Commands.Inbox.MarkRead(ctx, 2, 0); err != nil {
			t.Fatal(err)
		}
		if _, n, err := svc.Ops.WaitlistExpiry.RunOnce(ctx); err != nil || n != 0 {
			t.Fatalf("a later sweep announced %d offers (%v), want none", n, err)
		}
		if n := offerNotices(t, svc, 2, v.ID); n != 1 {
			t.Fatalf("user 2 has %d offer notifications after a later sweep, want 1", n)
		}

		// A node passes the unit on to user 3 and stops before telling them.
		now := time.Now()
		if _, err := entstore.NewWaitlist(svc.Store).PassOn(ctx, e.Offer.ID, 2, false, false, now, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if n := offerNotices(t, svc, 3, v.ID); n != 0 {
			t.Fatalf("user 3 has %d offer notifications before the sweep, want none", n)
		}
		time.Sleep(100 * time.Millisecond)
		if _, n, err := svc.Ops.WaitlistExpiry.RunOnce(ctx); err != nil || n != 1 {
			t.Fatalf("the sweep announced %d offers (%v), want user 3's", n, err)
		}
		if n := offerNotices(t, svc, 3, v.ID); n != 1 {
			t.Fatalf("user 3 has %d offer notifications after the sweep, want 1", n)
		}
		if _, err := svc.App.Commands.AcceptOffer.Handle(ctx, user(3), v.ID); err != nil {
			t.Fatalf("user 3 accepts: %v", err)
		}
	})
}
