package seckill

import (
	"sync"
	"time"
)

// soldOutBoard remembers, in this process, which sales are sold out, so that claims for
// them are answered without reaching Redis. With a sale it keeps the users who hold its
// voucher (read once when it sold out), so that they still hear ALREADY_CLAIMED rather
// than SOLD_OUT.
type soldOutBoard struct {
	// ttl bounds how long a mark is trusted: announcements travel over Pub/Sub, which
	// may lose one, so a mark is re-learned from the gate now and then.
	ttl   time.Duration
	now   func() time.Time
	mu    sync.RWMutex
	sales map[int64]soldOutMark
	// gen counts "stock is back" events per sale, so that a sold-out mark computed
	// before such an event is not applied after it.
	gen map[int64]uint64
}

type soldOutMark struct {
	holders map[int64]struct{}
	until   time.Time
}

func newSoldOutBoard(ttl time.Duration, now func() time.Time) *soldOutBoard {
	return &soldOutBoard{ttl: ttl, now: now, sales: map[int64]soldOutMark{}, gen: map[int64]uint64{}}
}

// check reports whether the sale is known sold out here and whether userID holds it.
func (b *soldOutBoard) check(voucherID, userID int64) (soldOut, holder bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	mark, ok := b.sales[voucherID]
	if !ok || !b.now().Before(mark.until) {
		return false, false
	}
	_, holder = mark.holders[userID]
	return true, holder
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
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.gen[voucherID] == gen {
		b.sales[voucherID] = soldOutMark{holders: set, until: b.now().Add(b.ttl)}
	}
}

// stockBack forgets that the sale was sold out.
func (b *soldOutBoard) stockBack(voucherID int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.sales, voucherID)
	b.gen[voucherID]++
}
