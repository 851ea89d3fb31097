package service_test

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestSaleRemindersSurviveServerKilled: 1,000 users ask to be reminded of a sale two
// hours away; the sale is then moved to begin within SALE_REMINDER_BEFORE, so every
// reminder is due at once. The server is killed (SIGKILL) while its sender has claimed
// its first batch and waits to write the notifications (the test holds a lock on the
// inboxes' table), and again at a random moment of the sending after a restart. A new
// node on the same database and Redis sends the rest. Then every reminder is marked
// sent, and its user has exactly one SALE_REMINDER notification of the sale, written by
// the pass that marked it sent — none lost, none sent twice.
func TestSaleRemindersSurviveServerKilled(t *testing.T) {
	t.Parallel()
	const users = 1000 // five of the sender's batches of 200
	env := map[string]string{
		"QUEUE_NAMESPACE":        "t" + testsupport.RandomSuffix(8) + ".",
		"SALE_REMINDER_INTERVAL": "100ms", "SALE_REMINDER_BEFORE": "5m",
	}
	p, c, admin := startKillable(t, env, "13700000300")
	vid := createFlashSale(t, admin, 10, time.Now().Add(2*time.Hour), time.Now().Add(3*time.Hour))
	voucherID, err := strconv.ParseInt(vid, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	tokens := loginMany(t, []string{c.URL}, users)
	hc := pooledHTTP(t, 16)
	var wg sync.WaitGroup
	next := make(chan string)
	errs := make(chan error, users)
	for range 16 {
		wg.Go(func() {
			for token := range next {
				if _, err := postGraphQL(hc, c.URL, token, `mutation($v: ID!) { remindMe(voucherId: $v) { id } }`,
					map[string]any{"v": vid}); err != nil {
					errs <- err
				}
			}
		})
	}
	for _, token := range tokens {
		next <- token
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("remindMe: %v", err)
	}

	ctx := context.Background()
	db, err := sql.Open("postgres", env["DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func(q string) int {
		t.Helper()
		var n int
		if err := db.QueryRowContext(ctx, q, voucherID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	const (
		sentQ  = `SELECT COUNT(*) FROM sale_reminders WHERE voucher_id = $1 AND sent_at IS NOT NULL`
		notesQ = `SELECT COUNT(*) FROM notifications WHERE kind = 'SALE_REMINDER' AND voucher_id = $1`
	)
	if n := count(`SELECT COUNT(*) FROM sale_reminders WHERE voucher_id = $1 AND sent_at IS NULL`); n != users {
		t.Fatalf("%d reminders waiting; want %d", n, users)
	}

	// Stall the sender's writes to the inboxes: a claimed batch waits for the table.
	lock, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.ExecContext(ctx, "LOCK TABLE notifications IN EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	// The sale moves to begin within SALE_REMINDER_BEFORE: every reminder is due.
	admin.Do(t, `mutation($in: UpdateFlashSaleInput!) { updateFlashSale(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"voucherId": vid, "beginTime": time.Now().Add(4 * time.Minute).Format(time.RFC3339Nano),
	}}).Decode(t, &struct{}{})
	waitlistPoll(t, "the sender waiting to write its first batch", func() bool {
		var n int
		err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_locks WHERE NOT granted AND relation = 'notifications'::regclass
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&n)
		return err == nil && n >= 1
	})
	p.kill(syscall.SIGKILL)
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	// The killed batch never committed: nothing is marked sent, nothing is in an inbox.
	if sent, notes := count(sentQ), count(notesQ); sent != 0 || notes != 0 {
		t.Fatalf("after the kill mid-batch: %d reminders marked sent, %d notifications; want none of either", sent, notes)
	}

	// A restart sends; it is killed at a random moment once the first reminders are in
	// the inboxes (a sender that wrote them apart from marking them sent would likely be
	// caught in between).
	p.start()
	waitlistPoll(t, "the restarted server sending", func() bool { return count(notesQ) > 0 })
	time.Sleep(time.Duration(rand.IntN(100)) * time.Millisecond)
	p.kill(syscall.SIGKILL)
	t.Logf("killed again with %d of %d reminders sent", count(sentQ), users)

	// A new node on the same stores sends the rest.
	srv, svc := startService(t, env)
	deadline := time.Now().Add(60 * time.Second)
	for count(`SELECT COUNT(*) FROM sale_reminders WHERE voucher_id = $1 AND sent_at IS NULL`) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d reminders sent within 60s of the new node's start", count(sentQ), users)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n, err := svc.Ops.SaleReminders.RunOnce(ctx); err != nil || n != 0 {
		t.Fatalf("a pass after all were sent: sent %d, %v; want none", n, err)
	}

	// Each reminder's user has one SALE_REMINDER of the sale, written with the reminder's
	// sent_at. (A second sending to an unread inbox would join the first notification
	// rather than add a row; its time tells: it differs from the sent_at of the pass
	// that marked the reminder sent.)
	rows, err := db.QueryContext(ctx, `SELECT r.user_id, COUNT(n.id), COUNT(n.id) FILTER (WHERE n.created_at = r.sent_at)
		FROM sale_reminders r LEFT JOIN notifications n
			ON n.user_id = r.user_id AND n.kind = 'SALE_REMINDER' AND n.voucher_id = r.voucher_id
		WHERE r.voucher_id = $1 AND r.sent_at IS NOT NULL GROUP BY r.user_id`, voucherID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	reminded, bad := 0, 0
	for rows.Next() {
		var user int64
		var notes, inPass int
		if err := rows.Scan(&user, &notes, &inPass); err != nil {
			t.Fatal(err)
		}
		reminded++
		if notes != 1 || inPass != 1 {
			if bad++; bad <= 5 {
				t.Errorf("user %d: %d SALE_REMINDER notifications of sale %s, %d written when the reminder was marked sent; want 1 and 1",
					user, notes, vid, inPass)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if bad > 0 {
		t.Errorf("%d of %d users without exactly one reminder written with the sending", bad, reminded)
	}
	if reminded != users {
		t.Errorf("%d reminders sent; want %d", reminded, users)
	}
	if n := count(notesQ); n != users {
		t.Errorf("%d SALE_REMINDER notifications of sale %s; want %d, one per reminder", n, vid, users)
	}
	// The inboxes show it: a few users read theirs over GraphQL.
	for _, token := range tokens[:5] {
		var inbox struct {
			Notifications struct {
				Edges []struct {
					Node struct {
						Kind    string
						Voucher *struct{ ID string }
					}
				}
			}
		}
		as(srv, token).Do(t, `{ notifications(first: 10) { edges { node { kind voucher { id } } } } }`, nil).Decode(t, &inbox)
		if e := inbox.Notifications.Edges; len(e) != 1 || e[0].Node.Kind != "SALE_REMINDER" || e[0].Node.Voucher == nil || e[0].Node.Voucher.ID != vid {
			t.Errorf("an inbox after the kills: %+v; want one SALE_REMINDER of sale %s", e, vid)
		}
	}
}
