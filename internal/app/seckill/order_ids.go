package seckill

import (
	"context"
	"errors"
	"sync"
	"time"
)

// OrderIDEpoch is the start of order-id time: 2024-01-01T00:00:00Z.
var OrderIDEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// Order-id layout, from the top: 31 bits of UTC seconds since OrderIDEpoch, 10 bits of
// node, 22 bits of sequence within the second.
const (
	orderIDNodeBits = 10
	orderIDSeqBits  = 22
	// OrderIDNodes is how many node parts there are (1 … OrderIDNodes; 0 is never used,
	// so no id repeats one of the ids of the former layout, whose sequence sat there).
	OrderIDNodes  = 1<<orderIDNodeBits - 1
	orderIDPerSec = 1 << orderIDSeqBits
)

// OrderIDs hands out order ids in memory, without a round trip: each process gets its
// node part from a durable counter when it starts (NodeOfStart), so ids stay unique
// across processes, restarts (even within the same second) and the loss of Redis. Ids
// are ordered by second. A node that hands out more than 2^22 ids in a second borrows
// from the next second rather than wait.
type OrderIDs struct {
	node int64
	now  func() time.Time

	mu     sync.Mutex
	second int64
	next   int64
}

var _ IDGenerator = (*OrderIDs)(nil)

// NodeOfStart maps the number of a process start, as a durable counter gave it (1, 2,
// …), to a node part. Two starts share a node part only if OrderIDNodes other starts
// come between them, and then only collide if both hand out ids in the same second.
func NodeOfStart(start int64) (int64, error) {
	if start <= 0 {
		return 0, errors.New("order ids: a process start is numbered from 1")
	}
	return (start-1)%OrderIDNodes + 1, nil
}

// NewOrderIDs returns the generator of node part node (1 … OrderIDNodes); now nil means
// time.Now.
func NewOrderIDs(node int64, now func() time.Time) (*OrderIDs, error) {
	if node < 1 || node > OrderIDNodes {
		return nil, errors.New("order ids: the node part must be between 1 and 1023")
	}
	if now == nil {
		now = time.Now
	}
	return &OrderIDs{node: node, now: now}, nil
}

// NextID returns a fresh id; it never fails.
func (g *OrderIDs) NextID(context.Context) (int64, error) {
	sec := int64(g.now().UTC().Sub(OrderIDEpoch) / time.Second)
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case sec > g.second:
		g.second, g.next = sec, 0
	case g.next >= orderIDPerSec:
		// This second is used up (or the clock went back and the later second is): go on
		// in the next one.
		g.second, g.next = g.second+1, 0
	}
	id := g.second<<(orderIDNodeBits+orderIDSeqBits) | g.node<<orderIDSeqBits | g.next
	g.next++
	return id, nil
}

// OrderIDSecond returns the second an order id was handed out in.
func OrderIDSecond(id int64) time.Time {
	return OrderIDEpoch.Add(time.Duration(id>>(orderIDNodeBits+orderIDSeqBits)) * time.Second)
}
