package seckill

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// acceptedClaims are the claims this node answered PENDING whose orders it has not yet
// seen in the database: in memory, at most max of them (the oldest go first). They are
// what the node knows of its claims when Redis, which holds their reservations (and with
// QUEUE=redis the claims themselves), comes back empty.
type acceptedClaims struct {
	max int

	mu     sync.Mutex
	claims map[int64]domain.Claim
	// ids are the claims' order ids in the order they were accepted (ids of claims
	// since removed are skipped when met, and dropped at the next sweep).
	ids []int64
	// evicted counts the claims forgotten to stay within max since the last sweep.
	evicted int
}

func newAcceptedClaims(max int) *acceptedClaims {
	return &acceptedClaims{max: max, claims: map[int64]domain.Claim{}}
}

// add remembers an accepted claim, forgetting the oldest beyond max.
func (a *acceptedClaims) add(c domain.Claim) {
	if a.max <= 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.claims[c.OrderID] = c
	a.ids = append(a.ids, c.OrderID)
	for len(a.claims) > a.max && len(a.ids) > 0 {
		id := a.ids[0]
		a.ids = a.ids[1:]
		if _, ok := a.claims[id]; ok {
			delete(a.claims, id)
			a.evicted++
		}
	}
}

// get returns the remembered claim of an order id.
func (a *acceptedClaims) get(orderID int64) (domain.Claim, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, ok := a.claims[orderID]
	return c, ok
}

// snapshot returns the remembered claims accepted before (or at) before, oldest first.
func (a *acceptedClaims) snapshot(before time.Time) []domain.Claim {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]domain.Claim, 0, len(a.claims))
	for _, c := range a.claims {
		if !c.ClaimedAt.After(before) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(x, y domain.Claim) int { return cmp.Compare(x.OrderID, y.OrderID) })
	return out
}

// forget drops the claims of ids, compacts the order of the rest and returns how many
// claims were forgotten to stay within max since the last call.
func (a *acceptedClaims) forget(ids []int64) (evicted int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, id := range ids {
		delete(a.claims, id)
	}
	kept := a.ids[:0]
	for _, id := range a.ids {
		if _, ok := a.claims[id]; ok {
			kept = append(kept, id)
		}
	}
	a.ids = slices.Clip(kept)
	evicted, a.evicted = a.evicted, 0
	return evicted
}

func (a *acceptedClaims) len() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.claims)
}

// AcceptedClaims keeps this node's accepted claims honest until their orders are
// written, whatever Redis does: order(id) answers PENDING from them while Redis has lost
// their reservations, and when Redis comes back empty (RedisCameBackEmpty) each one is
// either put back into the reloaded gate — it is still in the queue and will be written —
// or, where the queue lived in the same Redis (QUEUE=redis), recorded FAILED with reason
// domain.FailLost, since nothing can write it any more.
type AcceptedClaims struct{ c *core }

// AcceptedReport counts what one pass over the accepted claims did.
type AcceptedReport struct {
	// Written are claims whose orders are in the database: forgotten.
	Written int
	// Kept are claims still waiting, their reservations in Redis.
	Kept int
	// Restored are claims still queued whose reservations Redis lost, reserved again.
	Restored int
	// Unrestored are such claims the reloaded gate could not take back (sold out by
	// claims accepted after the reload, or the sale ended): they stay PENDING here,
	// and the database decides when they are written.
	Unrestored int
	// Lost are claims lost with Redis, now FAILED with reason LOST.
	Lost int
	// Evicted are claims forgotten to stay within the bound since the last pass.
	Evicted int
}

// Remembered is how many accepted claims the node remembers now.
func (a *AcceptedClaims) Remembered() int { return a.c.accepted.len() }

// Sweep forgets the accepted claims whose orders are now in the database. It runs
// periodically (every AcceptedSweepInterval).
func (a *AcceptedClaims) Sweep(ctx context.Context) (AcceptedReport, error) {
	var rep AcceptedReport
	claims := a.c.accepted.snapshot(a.c.now())
	written, err := a.written(ctx, claims)
	rep.Written = len(written)
	rep.Evicted = a.c.accepted.forget(written)
	rep.Kept = len(claims) - len(written)
	if rep.Evicted > 0 {
		a.c.log.Warn("accepted claims forgotten before their orders were seen written (ACCEPTED_CLAIMS_MAX reached)",
			slog.Int("forgotten", rep.Evicted))
	}
	return rep, err
}

// RunSweeper sweeps every interval until ctx ends.
func (a *AcceptedClaims) RunSweeper(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := a.Sweep(ctx); err != nil && ctx.Err() == nil {
			a.c.log.Warn("cannot check which accepted claims are written", slog.Any("error", err))
		}
	}
}

// written returns the order ids of claims whose orders are in the database.
func (a *AcceptedClaims) written(ctx context.Context, claims []domain.Claim) ([]int64, error) {
	if len(claims) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(claims))
	for i, c := range claims {
		ids[i] = c.OrderID
	}
	found, err := a.c.d.Orders.WrittenOrders(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("look up accepted claims' orders: %w", err)
	}
	return found, nil
}

// RedisCameBackEmpty settles the accepted claims whose reservations Redis lost. Run it
// after the live sales are reloaded from the database, when the node notices that Redis
// came back empty (its generation marker changed). For each claim this node remembers,
// not yet written:
//   - its reservation is in Redis: nothing to do (accepted after the reload);
//   - with QUEUE=redis (ClaimsInRedis) the claim itself was in Redis: no one can write
//     its order any more, so it is recorded FAILED with reason LOST (unless its order
//     was written meanwhile, which then stands) and its status event is sent;
//   - otherwise it is still in the queue: it is reserved again in the reloaded gate,
//     so that the sale's stock counts it and every node's order(id) sees it PENDING.
//
// It is idempotent; an error leaves the rest for the next call.
func (a *AcceptedClaims) RedisCameBackEmpty(ctx context.Context) (AcceptedReport, error) {
	var rep AcceptedReport
	claims := a.c.accepted.snapshot(a.c.now())
	written, err := a.written(ctx, claims)
	if err != nil {
		return rep, err
	}
	rep.Written = len(written)
	done := map[int64]bool{}
	for _, id := range written {
		done[id] = true
	}
	// A few at a time: after a wipe under load there are thousands, each a few round
	// trips, and their clients are waiting.
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
		sem  = make(chan struct{}, settleConcurrency)
	)
	for _, c := range claims {
		if done[c.OrderID] {
			continue
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			var one AcceptedReport
			settled, err := a.settleAfterLoss(ctx, c, &one)
			mu.Lock()
			defer mu.Unlock()
			rep.Written += one.Written
			rep.Kept += one.Kept
			rep.Restored += one.Restored
			rep.Unrestored += one.Unrestored
			rep.Lost += one.Lost
			if err != nil {
				errs = append(errs, err)
			} else if settled {
				written = append(written, c.OrderID)
			}
		})
	}
	wg.Wait()
	rep.Evicted = a.c.accepted.forget(written)
	if rep.Lost+rep.Restored+rep.Unrestored > 0 {
		a.c.log.Warn("accepted claims whose reservations redis lost", slog.Int("lost", rep.Lost),
			slog.Int("reserved_again", rep.Restored), slog.Int("not_reserved_again", rep.Unrestored), slog.Int("waiting", rep.Kept))
	}
	return rep, errors.Join(errs...)
}

// settleConcurrency bounds the accepted claims RedisCameBackEmpty settles at once.
const settleConcurrency = 16

// settleAfterLoss handles one accepted claim not seen written; settled is true when the
// node may forget it (its order is in the database now, or recorded LOST).
func (a *AcceptedClaims) settleAfterLoss(ctx context.Context, c domain.Claim, rep *AcceptedReport) (settled bool, err error) {
	if _, ok, err := a.c.d.Stock.Pending(ctx, c.OrderID); err != nil {
		return false, fmt.Errorf("look up reservation of order %d: %w", c.OrderID, err)
	} else if ok {
		rep.Kept++
		return false, nil
	}
	// Gone from Redis: settled meanwhile (written first), or lost with it.
	if a.c.cfg.ClaimsInRedis {
		// Nothing to return in Redis: the reservation, the user's mark and the claim
		// went with it, and the reloaded sale counts only the orders in the database.
		// An order written meanwhile stands (FailClaim records FAILED only where there
		// is none).
		o, err := a.c.d.Orders.FailClaim(ctx, c, ReasonLost)
		if err != nil {
			return false, fmt.Errorf("record lost order %d: %w", c.OrderID, err)
		}
		if o.Status != domain.OrderFailed || o.FailReason != ReasonLost || o.UserID != c.UserID {
			rep.Written++
			return true, nil
		}
		a.c.d.Observer.OrderFailed(FailLost)
		a.c.publish(ctx, domain.OrderFailed, ReasonLost, c)
		rep.Lost++
		return true, nil
	}
	switch _, err := a.c.d.Orders.Order(ctx, c.OrderID); {
	case err == nil:
		rep.Written++
		return true, nil
	case !errors.Is(err, domain.ErrNotFound):
		return false, fmt.Errorf("read order %d: %w", c.OrderID, err)
	}
	r := Reservation{OrderID: c.OrderID, UserID: c.UserID, VoucherID: c.VoucherID, At: c.ClaimedAt}
	verdict, _, err := a.c.d.Stock.Reserve(ctx, r)
	if err == nil && verdict == NotLoaded {
		var v domain.Voucher
		var found bool
		if v, found, err = a.c.voucher(ctx, c.VoucherID); err == nil && found {
			if _, err = a.c.loadSale(ctx, v, false); err == nil {
				verdict, _, err = a.c.d.Stock.Reserve(ctx, r)
			}
		}
	}
	if err != nil {
		return false, fmt.Errorf("reserve order %d again: %w", c.OrderID, err)
	}
	if verdict == Accepted {
		rep.Restored++
	} else {
		rep.Unrestored++
	}
	return false, nil
}
