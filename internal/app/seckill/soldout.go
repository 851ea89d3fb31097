package seckill

import (
	"sync"
	"time"
)

// soldOutBoard remembers, in this process, which sales are sold out, so that claims for
// them are answered without reaching Redis. With a sale it keeps the users who hold its
// voucher (read once when it sold out), so that they still hear ALREADY_CLAIMED rather
// than SOLD_OUT.
//
// A mark is trusted for ttl: announcements travel over Pub/Sub, which may lose one, so
// a mark is checked against the gate again before it runs out (refresh-ahead), by one
// claim's background task while the others keep being answered from the mark. Work on a
// sale's mark (announcing, reading holders, refreshing) runs once at a time per sale, so
// a flood of claims meeting a sold-out sale at once costs one announcement and one read
// of its holders, not one per claim.
type soldOutBoard struct {
	ttl   time.Duration
	now   func() time.Time
	mu    sync.RWMutex
	sales map[int64]soldOutMark
	// gen counts "stock is back" events per sale, so that a sold-out mark computed
	// before such an event is not applied after it.
	gen map[int64]uint64
	// busy holds the sales whose mark is being worked on, with when that began.
	busy map[int64]time.Time
}

type soldOutMark struct {
	holders map[int64]struct{}
	// refreshAt is when the mark should be checked again; until is when it stops
	// counting.
	refreshAt, until time.Time
}

// staleWork is how long a sale's mark work may run before another may start.
const staleWork = 10 * time.Second

func newSoldOutBoard(ttl time.Duration, now func() time.Time) *soldOutBoard {
	return &soldOutBoard{ttl: ttl, now: now, sales: map[int64]soldOutMark{}, gen: map[int64]uint64{},
		busy: map[int64]time.Time{}}
}

// check reports whether the sale is known sold out here and whether userID holds it.
// refresh is true for the one caller that should check the mark against the gate now
// (it must call done when finished).
func (b *soldOutBoard) check(voucherID, userID int64) (soldOut, holder, refresh bool) {
	now := b.now()
	b.mu.RLock()
	mark, ok := b.sales[voucherID]
	b.mu.RUnlock()
	if !ok || !now.Before(mark.until) {
		return false, false, false
	}
	_, holder = mark.holders[userID]
	return true, holder, !now.Before(mark.refreshAt) && b.beginRefresh(voucherID, now)
}

// beginRefresh is begin for a refresh: it also checks, under the lock, that the mark is
// still due (another caller may have just renewed it).
func (b *soldOutBoard) beginRefresh(voucherID int64, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if mark, ok := b.sales[voucherID]; !ok || now.Before(mark.refreshAt) {
		return false
	}
	return b.beginLocked(voucherID, now)
}

// marked reports whether the sale is known sold out here.
func (b *soldOutBoard) marked(voucherID int64) bool {
	now := b.now()
	b.mu.RLock()
	defer b.mu.RUnlock()
	mark, ok := b.sales[voucherID]
	return ok && now.Before(mark.until)
}

// begin claims the right to work on the sale's mark; false when someone else is.
func (b *soldOutBoard) begin(voucherID int64) bool {
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.beginLocked(voucherID, now)
}

// beginLocked is begin with b.mu held.
func (b *soldOutBoard) beginLocked(voucherID int64, now time.Time) bool {
	if since, ok := b.busy[voucherID]; ok && now.Sub(since) < staleWork {
		return false
	}
	b.busy[voucherID] = now
	return true
}

// done gives up the right taken by begin.
func (b *soldOutBoard) done(voucherID int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.busy, voucherID)
}

// generation returns the sale's current generation, to pass to markSoldOut.
func (b *soldOutBoard) generation(voucherID int64) uint64 {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.gen[voucherID]
}

// markSoldOut records the sale sold out with its holders, unless stock came back since
// generation gen was read.
func (b *soldOutBoard) markSoldOut(voucherID int64, gen uint64, holders []int64) {
	set := make(map[int64]struct{}, len(holders))
	for _, u := range holders {
		set[u] = struct{}{}
	}
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.gen[voucherID] == gen {
		b.sales[voucherID] = soldOutMark{holders: set, refreshAt: now.Add(b.ttl * 8 / 10), until: now.Add(b.ttl)}
	}
}

// stockBack forgets that the sale was sold out.
func (b *soldOutBoard) stockBack(voucherID int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.sales, voucherID)
	b.gen[voucherID]++
}
