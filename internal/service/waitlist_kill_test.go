package service_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestWaitlistUnitsSurviveServerKilledMidCancels: two sales sell out — A (30 units, 40
// in line) and B (10 units, 4 in line) — and all their buyers cancel at once. The server
// is killed (SIGKILL) while the first cancellations hand their units to the lines (the
// test holds a lock on the lines' table, so each stalls right there), and again at a
// random point of the burst, with the reconciler repairing the sales' drift every
// 200ms. After a new node starts on the same database and Redis: every order is
// CANCELED; the audit holds (stock + live orders + held units = initial stock); each
// unit is held for one user, the first in line, one unit each (A: all 30, 10 still
// waiting); and the units nobody waits for are back in the stock, database and Redis
// (B: 4 held, 6 in stock).
func TestWaitlistUnitsSurviveServerKilledMidCancels(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"QUEUE_NAMESPACE":    "t" + testsupport.RandomSuffix(8) + ".",
		"RECONCILE_INTERVAL": "200ms", "ORDER_PAY_TIMEOUT": "1h", "WAITLIST_OFFER_TTL": "1h",
		"WAITLIST_SWEEP_INTERVAL": "100ms", "PAYMENT_SIM_DELAY": "1h",
	}
	p, c, admin := startKillable(t, env, "13700000200")
	sales := []*killSale{{stock: 30, waiting: 40}, {stock: 10, waiting: 4}}
	for k, s := range sales {
		s.setUp(t, c, admin, fmt.Sprintf("137%d", k+1))
	}
	type cancel struct {
		s *killSale
		i int
	}
	var all []cancel
	for i := range 30 {
		for _, s := range sales {
			if i < s.stock {
				all = append(all, cancel{s, i})
			}
		}
	}

	// Stall every hand-over of a unit to a line: writes to the lines' table wait.
	ctx := context.Background()
	db, err := sql.Open("postgres", env["DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lock, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.ExecContext(ctx, "LOCK TABLE waitlist_entries IN EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}

	// Every buyer cancels, retrying while the server is down.
	var (
		mu       sync.Mutex
		canceled int
		wg       sync.WaitGroup
	)
	hc := &http.Client{Timeout: 30 * time.Second}
	stop := make(chan struct{})
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := w; j < len(all); j += 8 {
				for !all[j].s.cancel(hc, c.URL, all[j].i) {
					select {
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
					}
				}
				mu.Lock()
				canceled++
				mu.Unlock()
			}
		}()
	}
	// Kill the server once the first cancellations wait to hand their units over.
	waitlistPoll(t, "cancellations waiting on the lines' table", func() bool {
		var n int
		err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM pg_locks WHERE NOT granted AND relation = 'waitlist_entries'::regclass").Scan(&n)
		return err == nil && n >= 4
	})
	p.kill(syscall.SIGKILL)
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	t.Logf("killed with %d of %d cancels answered, the first ones waiting to hand their units over", canceled, len(all))
	mu.Unlock()
	p.start()
	time.Sleep(time.Duration(20+rand.IntN(150)) * time.Millisecond)
	p.kill(syscall.SIGKILL)
	mu.Lock()
	t.Logf("killed again with %d of %d cancels answered", canceled, len(all))
	mu.Unlock()
	p.start()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		close(stop)
		<-done
		t.Fatalf("only %d of %d cancels went through", canceled, len(all))
	}
	p.kill(syscall.SIGKILL)

	// A new node on the same stores: the sweeps and the reconciler run there.
	_, svc := startService(t, env)
	for _, s := range sales {
		s.check(t, svc)
	}
}

// killSale is a sold-out sale of the kill test: its buyers, their orders and its line.
type killSale struct {
	stock, waiting int
	vid            string
	id             int64
	buyers         []string // tokens
	orders         []string
}

// setUp creates the sale, has stock buyers take it all (phones prefix+1…) and waiting
// users join its line in order (phones prefix+2…).
func (s *killSale) setUp(t *testing.T, c, admin testsupport.GraphQLClient, prefix string) {
	t.Helper()
	s.vid = createFlashSale(t, admin, s.stock, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	fmt.Sscan(s.vid, &s.id)
	s.buyers, s.orders = make([]string, s.stock), make([]string, s.stock)
	var wg sync.WaitGroup
	for i := range s.stock {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := c
			u.Token = login(t, c, fmt.Sprintf("%s1%06d", prefix, i)).AccessToken
			var a claimAnswer
			u.Do(t, claimMutation, map[string]any{"v": s.vid}).Decode(t, &a)
			s.buyers[i], s.orders[i] = u.Token, a.ClaimVoucher.OrderID
		}()
	}
	wg.Wait()
	for i, id := range s.orders {
		u := c
		u.Token = s.buyers[i]
		if st := waitOrder(t, u, id); st != "CREATED" {
			t.Fatalf("order %s of sale %s: %s, want CREATED", id, s.vid, st)
		}
	}
	for i := range s.waiting {
		u := c
		u.Token = login(t, c, fmt.Sprintf("%s2%06d", prefix, i)).AccessToken
		deadline := time.Now().Add(10 * time.Second)
		for {
			resp := u.Do(t, `mutation($v: ID!) { joinWaitlist(voucherId: $v) { status } }`, map[string]any{"v": s.vid})
			if len(resp.Errors) == 0 {
				break
			}
			// CONFLICT until the gate's stock and the database agree the sale is sold out.
			if time.Now().After(deadline) {
				t.Fatalf("join of waiter %d of sale %s: %+v", i, s.vid, resp.Errors)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// cancel asks once for buyer i's order to be canceled and reports whether it is: the
// answer, or CONFLICT (an earlier try committed, its answer lost with the server).
func (s *killSale) cancel(hc *http.Client, url string, i int) bool {
	body, _ := json.Marshal(map[string]any{"query": `mutation($id: ID!) { cancelOrder(orderId: $id) { status } }`,
		"variables": map[string]any{"id": s.orders[i]}})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.buyers[i])
	resp, err := hc.Do(req)
	if err != nil {
		return false // the server is down
	}
	var out struct {
		Data   *struct{ CancelOrder *struct{ Status string } }
		Errors []struct {
			Extensions struct{ Code string }
		}
	}
	_ = jsonDecode(resp, &out)
	return (out.Data != nil && out.Data.CancelOrder != nil) || (len(out.Errors) > 0 && out.Errors[0].Extensions.Code == "CONFLICT")
}

// check waits for the sale's books to settle on svc and checks them: every order
// CANCELED, the audit balanced, min(stock, waiting) units held — one per user, for the
// first in line — and the rest in the stock, database and Redis.
func (s *killSale) check(t *testing.T, svc *service.Node) {
	t.Helper()
	ctx := context.Background()
	for _, id := range s.orders {
		var oid int64
		fmt.Sscan(id, &oid)
		if o, err := svc.Store.Orders().Order(ctx, oid); err != nil || o.Status != domain.OrderCanceled {
			t.Errorf("order %s after the kills: %+v %v", id, o, err)
		}
	}
	held := int64(min(s.stock, s.waiting))
	left := int64(s.stock) - held
	deadline := time.Now().Add(30 * time.Second)
	for {
		a := drain(t, svc, s.id)
		if bad := a.Check(int64(s.stock)); len(bad) > 0 {
			t.Fatalf("audit of sale %d: %v (%+v)", s.id, bad, a)
		}
		if a.Held == held && a.Orders.Created == 0 && a.DBStock == left && a.RedisStock == left {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sale %d after the kills: %+v, want %d held, no live order, a stock of %d in the database and Redis",
				s.id, a, held, left)
		}
		time.Sleep(100 * time.Millisecond)
	}
	q := func(s string) string {
		if svc.Store.Dialect() == dialect.Postgres {
			return strings.ReplaceAll(s, "?", "$1")
		}
		return s
	}
	db := svc.Store.DB()
	var units, users, places, matched int
	if err := db.QueryRowContext(ctx, q(`SELECT COUNT(*), COUNT(DISTINCT user_id), COUNT(DISTINCT entry_id) FROM waitlist_units
		WHERE voucher_id = ? AND status = 'HELD'`), s.id).Scan(&units, &users, &places); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, q(`SELECT COUNT(*) FROM waitlist_units u JOIN waitlist_entries e ON e.id = u.entry_id
		WHERE u.voucher_id = ? AND u.status = 'HELD' AND e.status = 'OFFERED' AND e.user_id = u.user_id`), s.id).Scan(&matched); err != nil {
		t.Fatal(err)
	}
	if int64(units) != held || int64(users) != held || int64(places) != held || int64(matched) != held {
		t.Fatalf("sale %d: %d held units for %d users and %d places, %d matching their OFFERED place; want %d of each",
			s.id, units, users, places, matched, held)
	}
	// In line order: the first held places are OFFERED, the others still WAITING.
	rows, err := db.QueryContext(ctx, q(`SELECT status FROM waitlist_entries WHERE voucher_id = ? ORDER BY id`), s.id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := int64(0)
	for rows.Next() {
		var st string
		if err := rows.Scan(&st); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{true: "OFFERED", false: "WAITING"}[n < held]; st != want {
			t.Errorf("sale %d: place #%d in line is %s, want %s", s.id, n+1, st, want)
		}
		n++
	}
	if n != int64(s.waiting) {
		t.Errorf("sale %d: %d places, want %d", s.id, n, s.waiting)
	}
	// Nothing comes back twice once the reconciler has run again.
	time.Sleep(time.Second)
	if a := drain(t, svc, s.id); a.Held != held || a.DBStock != left || a.RedisStock != left {
		t.Errorf("sale %d later: %+v", s.id, a)
	}
}
