package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// poll is one look at the sale's bookkeeping.
type poll struct {
	at      time.Time
	pending int
	created int64
	failed  int64
}

// orderWatch follows the sale during and after the flood, so that the time until every
// accepted claim is an order can be told afterwards, whenever the claims were accepted.
type orderWatch struct {
	audit     func(ctx context.Context, voucherID int64) (seckill.Audit, error)
	voucherID int64
	base      seckill.Audit
	every     time.Duration

	mu    sync.Mutex
	polls []poll
	err   error
	stop  chan struct{}
	done  chan struct{}
}

func startOrderWatch(audit func(context.Context, int64) (seckill.Audit, error), voucherID int64, base seckill.Audit, stock int64) *orderWatch {
	// Each look lists the sale's holders; large sales are looked at less often.
	every := 100 * time.Millisecond
	if stock > 10_000 {
		every = 500 * time.Millisecond
	}
	w := &orderWatch{audit: audit, voucherID: voucherID, base: base, every: every, stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *orderWatch) run() {
	defer close(w.done)
	t := time.NewTicker(w.every)
	defer t.Stop()
	for {
		// A failed look is kept in w.err and reported by finish.
		_, _ = w.look(context.Background())
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
	}
}

func (w *orderWatch) look(ctx context.Context) (seckill.Audit, error) {
	a, err := w.audit(ctx, w.voucherID)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.err = err
		return a, err
	}
	w.polls = append(w.polls, poll{
		at: time.Now(), pending: a.Pending,
		created: a.Orders.Created - w.base.Orders.Created, failed: a.Orders.Failed - w.base.Orders.Failed,
	})
	return a, nil
}

// settled reports whether p shows every one of accepted claims written.
func settled(p poll, accepted int64) bool {
	return p.pending == 0 && p.created+p.failed >= accepted
}

// finish waits (up to timeout) until the accepted claims are all written, then returns
// the last audit, the first look from which the sale stayed settled (zero if it never
// did) and how long before that look the previous one was: the moment the last order
// was written lies in between.
func (w *orderWatch) finish(ctx context.Context, accepted int64, timeout time.Duration) (seckill.Audit, time.Time, time.Duration, error) {
	close(w.stop)
	<-w.done
	deadline := time.Now().Add(timeout)
	var last seckill.Audit
	for {
		a, err := w.look(ctx)
		if err != nil {
			return a, time.Time{}, 0, err
		}
		last = a
		w.mu.Lock()
		p := w.polls[len(w.polls)-1]
		w.mu.Unlock()
		if settled(p, accepted) || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	first := len(w.polls)
	for first > 0 && settled(w.polls[first-1], accepted) {
		first--
	}
	if first == len(w.polls) {
		return last, time.Time{}, 0, nil
	}
	var gap time.Duration
	if first > 0 {
		gap = w.polls[first].at.Sub(w.polls[first-1].at)
	}
	return last, w.polls[first].at, gap, nil
}

// check is one verified property.
type check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// verdict checks the invariants on the drained sale: I1–I4 as seckill.Audit.Check
// states them, and that every accepted claim became exactly one order.
func verdict(a, base seckill.Audit, initialStock, accepted int64, lostAnswers uint64) []check {
	violations := a.Check(initialStock)
	has := func(prefixes ...string) []string {
		var out []string
		for _, v := range violations {
			for _, p := range prefixes {
				if strings.HasPrefix(v, p) {
					out = append(out, v)
				}
			}
		}
		return out
	}
	mk := func(name, detail string, bad []string) check {
		if len(bad) > 0 {
			return check{Name: name, OK: false, Detail: strings.Join(bad, "; ")}
		}
		return check{Name: name, OK: true, Detail: detail}
	}
	created := a.Orders.Created - base.Orders.Created
	failed := a.Orders.Failed - base.Orders.Failed
	checks := []check{
		mk("I1 no oversell", fmt.Sprintf("%d orders for a stock of %d", a.Orders.Created, initialStock), has("I1")),
		mk("I2 one order per user", fmt.Sprintf("%d orders held by %d users", a.Orders.Created, a.Orders.LiveUsers), has("I2")),
	}
	i3 := has("I3")
	switch {
	case lostAnswers == 0 && created+failed != accepted:
		i3 = append(i3, fmt.Sprintf("I3 %d claims accepted but %d orders CREATED and %d FAILED", accepted, created, failed))
	case lostAnswers > 0 && created+failed < accepted:
		i3 = append(i3, fmt.Sprintf("I3 %d claims accepted but only %d orders CREATED and %d FAILED", accepted, created, failed))
	}
	detail := fmt.Sprintf("0 pending; %d accepted → %d CREATED, %d FAILED", accepted, created, failed)
	if lostAnswers > 0 {
		detail += fmt.Sprintf(" (%d answers lost in transport may hide accepted claims)", lostAnswers)
	}
	checks = append(checks, mk("I3 every accepted claim is one order", detail, i3))
	redisPart := "redis stock not loaded"
	if a.RedisLoaded {
		redisPart = fmt.Sprintf("redis stock %d + orders %d = %d", a.RedisStock, a.Orders.Created, initialStock)
	}
	checks = append(checks, mk("I4 stocks add up",
		fmt.Sprintf("%s; database stock %d + orders %d = %d", redisPart, a.DBStock, a.Orders.Created, initialStock),
		has("I4", "database stock")))
	return checks
}

// acceptedCheck checks, from the answers alone, that a sale created for the run gave
// out exactly min(stock, users) units. That holds once every user got a decisive answer
// (an order id, SOLD_OUT or ALREADY_CLAIMED), or the sale answered SOLD_OUT, which it
// only does with its stock gone; otherwise the check is not made.
func acceptedCheck(stock, accepted int64, users, undecided int, soldOut bool) check {
	name := "accepted = min(stock, users)"
	if !soldOut && undecided > 0 {
		return check{Name: name, OK: true,
			Detail: fmt.Sprintf("not checked: the sale did not sell out and %d users got no decisive answer", undecided)}
	}
	want := min(stock, int64(users))
	return check{Name: name, OK: accepted == want,
		Detail: fmt.Sprintf("%d accepted, min(%d, %d) = %d", accepted, stock, users, want)}
}
