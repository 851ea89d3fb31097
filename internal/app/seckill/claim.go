package seckill

// The claim path's use case, in the order a claim meets it: ClaimVoucher.Handle, then
// the limits, the sold-out mark, the voucher read, the order id, the gate step, the
// enqueue (and its undo) and the memory of accepted claims.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/app/periodic"
	"github.com/dealspot/dealspot/internal/domain"
)

// ClaimVoucher is the claim path.
type ClaimVoucher struct {
	c *core
	// users and bucket are the claim rate limits (nil: off).
	users  *userClaimLimiter
	bucket *claimBucket
}

// ClaimResult is an accepted claim: the order will be written asynchronously.
type ClaimResult struct {
	OrderID int64
	Status  domain.OrderStatus
}

// Handle decides a claim without touching the database: the user's claim rate
// (counted here, across sales), the local sold-out mark, the node's global claim bucket,
// then one atomic gate step in Redis (which checks the sale's window and counts the
// user's claims again per shard), then the queue. The voucher is read (cached) only
// when the gate does not hold the sale.
//
// Errors: UNAUTHENTICATED without a user; RATE_LIMITED; NOT_FOUND for an unknown voucher;
// BAD_USER_INPUT for a voucher that is not a flash sale; NOT_STARTED; ENDED;
// ALREADY_CLAIMED (also when the sale is sold out); SOLD_OUT; INTERNAL when the claim is
// known not to be enqueued (the publisher said ErrNotEnqueued: its reservation is then
// undone, so nothing is promised).
//
// Once it reaches the gate, a claim's fate no longer depends on the client: the gate
// step and the publish run on contexts the client cannot cancel, each bounded by
// PublishTimeout (see enqueue), and a publish whose outcome is unknown keeps the
// reservation and is answered PENDING like any other.
func (u *ClaimVoucher) Handle(ctx context.Context, userID, voucherID int64) (_ ClaimResult, err error) {
	ctx, span := childSpan(ctx, "seckill.ClaimVoucher")
	if span != nil {
		defer func() { endSpan(span, err) }()
		span.SetAttributes(attribute.Int64("dealspot.voucher_id", voucherID))
	}
	res, err := u.handle(ctx, span, userID, voucherID)
	if err == nil {
		u.c.d.Observer.Claimed(ClaimAccepted)
	} else {
		u.c.d.Observer.Claimed(outcomeOf(err))
	}
	return res, err
}

// outcomeOf classifies a refused claim.
func outcomeOf(err error) ClaimOutcome {
	switch domain.ErrorCode(err) {
	case domain.CodeSoldOut:
		return ClaimSoldOut
	case domain.CodeAlreadyClaimed:
		return ClaimAlreadyClaimed
	case domain.CodeNotStarted:
		return ClaimNotStarted
	case domain.CodeEnded:
		return ClaimEnded
	case domain.CodeRateLimited:
		return ClaimRateLimited
	case domain.CodeUnauthenticated, domain.CodeNotFound, domain.CodeBadUserInput:
		return ClaimRefused
	default:
		return ClaimError
	}
}

// handle decides the claim; span is the claim's span (nil when it is not traced).
func (u *ClaimVoucher) handle(ctx context.Context, span trace.Span, userID, voucherID int64) (ClaimResult, error) {
	if userID <= 0 {
		return ClaimResult{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	if voucherID <= 0 {
		return ClaimResult{}, domain.Errorf(domain.CodeNotFound, "no such voucher")
	}
	now := u.c.now()
	if ok, wait := u.users.allow(userID, now); !ok {
		return ClaimResult{}, rateLimited("too many claims; slow down", wait)
	}
	if soldOut, holder, refresh := u.c.soldOut.check(voucherID, userID); soldOut {
		if refresh {
			go u.refreshSoldOut(voucherID)
		}
		if holder {
			return ClaimResult{}, domain.ErrAlreadyClaimed
		}
		return ClaimResult{}, domain.ErrSoldOut
	}
	// The global bucket guards Redis and the queue: answers given without them are free.
	// The sale's window is the gate's to check (it holds the sale as loaded and edited),
	// so a claim outside it reaches the gate too and takes a token like any other.
	if ok, wait := u.bucket.take(now); !ok {
		return ClaimResult{}, rateLimited("the sale is busy; try again shortly", wait)
	}
	// From here on the claim does not depend on its client: a client that gives up while
	// Redis decides would otherwise leave a reservation behind an INTERNAL answer. One
	// already gone is not started.
	if err := ctx.Err(); err != nil {
		return ClaimResult{}, fmt.Errorf("claim abandoned by its client: %w", err)
	}
	detached := context.WithoutCancel(ctx)
	ctx, cancel := context.WithTimeout(detached, u.c.cfg.PublishTimeout)
	defer cancel()
	orderID, err := u.c.d.IDs.NextID(ctx)
	if err != nil {
		return ClaimResult{}, fmt.Errorf("order id: %w", err)
	}
	if span != nil {
		span.SetAttributes(attribute.Int64("dealspot.order_id", orderID))
	}
	r := Reservation{OrderID: orderID, UserID: userID, VoucherID: voucherID, At: now,
		RateLimit: RateLimit{Max: u.c.cfg.ClaimsPerUser, Window: u.c.cfg.ClaimWindow}}
	verdict, n, err := u.reserve(ctx, r)
	if err != nil {
		return ClaimResult{}, err
	}
	switch verdict {
	case Accepted:
	case SoldOut:
		u.announceSoldOut(ctx, voucherID)
		return ClaimResult{}, domain.ErrSoldOut
	case AlreadyClaimed:
		return ClaimResult{}, domain.ErrAlreadyClaimed
	case NotStarted:
		return ClaimResult{}, domain.ErrNotStarted
	case Ended:
		return ClaimResult{}, domain.ErrEnded
	case RateLimited:
		return ClaimResult{}, rateLimited("too many claims; slow down", time.Duration(n)*time.Millisecond)
	default:
		return ClaimResult{}, fmt.Errorf("reserve: sale %d is not loaded", voucherID)
	}
	if err := u.enqueue(detached, r); err != nil {
		return ClaimResult{}, err
	}
	u.c.accepted.add(domain.Claim{OrderID: r.OrderID, UserID: r.UserID, VoucherID: r.VoucherID, ClaimedAt: r.At})
	return ClaimResult{OrderID: orderID, Status: domain.OrderPending}, nil
}

// Limits: the user's claim rate, counted in this process before the gate, and the
// node's global claim bucket, taken after the answers that cost nothing.

// rateLimited is a RATE_LIMITED error asking the client to wait (whole seconds, at
// least one).
func rateLimited(msg string, wait time.Duration) error {
	return &domain.Error{Code: domain.CodeRateLimited, Message: msg,
		RetryAfterSeconds: max(1, int((wait+time.Second-1)/time.Second))}
}

// userClaimLimiter holds each user to Max claims per sliding Window across every sale,
// in this process. It is checked before the gate, so it costs the claim no round trip;
// the gate still counts each user's claims per shard of sales in Redis, which bounds a
// user who spreads claims over several server nodes.
type userClaimLimiter struct {
	limit  RateLimit
	shards [64]userClaimShard
}

type userClaimShard struct {
	mu sync.Mutex
	// claims holds each user's claim times within the window, oldest first.
	claims map[int64][]time.Time
	// sweepAt is when users idle for a whole window are next forgotten.
	sweepAt time.Time
}

func newUserClaimLimiter(limit RateLimit) *userClaimLimiter {
	if limit.Max <= 0 || limit.Window <= 0 {
		return nil
	}
	l := &userClaimLimiter{limit: limit}
	for i := range l.shards {
		l.shards[i].claims = map[int64][]time.Time{}
	}
	return l
}

// allow counts a claim by user at now; when the user is over the limit it counts nothing
// and returns how long until the next claim fits.
func (l *userClaimLimiter) allow(user int64, now time.Time) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	sh := &l.shards[uint64(user)%uint64(len(l.shards))]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if now.After(sh.sweepAt) {
		sh.sweep(now.Add(-l.limit.Window))
		sh.sweepAt = now.Add(l.limit.Window)
	}
	times := sh.claims[user]
	cut := 0
	for cut < len(times) && !times[cut].After(now.Add(-l.limit.Window)) {
		cut++
	}
	times = times[cut:]
	if len(times) >= l.limit.Max {
		sh.claims[user] = times
		return false, times[len(times)-l.limit.Max].Add(l.limit.Window).Sub(now)
	}
	sh.claims[user] = append(times, now)
	return true, 0
}

// sweep forgets users whose last claim is not after since.
func (sh *userClaimShard) sweep(since time.Time) {
	for u, times := range sh.claims {
		if len(times) == 0 || !times[len(times)-1].After(since) {
			delete(sh.claims, u)
		}
	}
}

// claimBucket is a token bucket over all claims in this process: Max tokens, refilled at
// Max per Window.
type claimBucket struct {
	mu       sync.Mutex
	capacity float64
	perNano  float64
	tokens   float64
	last     time.Time
}

func newClaimBucket(rate RateLimit, now time.Time) *claimBucket {
	if rate.Max <= 0 || rate.Window <= 0 {
		return nil
	}
	return &claimBucket{capacity: float64(rate.Max), perNano: float64(rate.Max) / float64(rate.Window),
		tokens: float64(rate.Max), last: now}
}

// take spends one token at now; when none is left it returns how long until one is.
func (b *claimBucket) take(now time.Time) (bool, time.Duration) {
	if b == nil {
		return true, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.After(b.last) {
		b.tokens = min(b.capacity, b.tokens+float64(now.Sub(b.last))*b.perNano)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1-b.tokens)/b.perNano) + 1
}

// The sold-out mark: a sale known sold out is answered here, without Redis; the mark is
// announced to every node and checked against the gate again before it runs out.

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

// addHolder counts userID among the holders of a sale marked sold out (a unit held for
// the user outside the stock became the user's order), so that its claims are answered
// ALREADY_CLAIMED here at once. The holders are copied: readers use a mark's set
// without the lock.
func (b *soldOutBoard) addHolder(voucherID, userID int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	mark, ok := b.sales[voucherID]
	if !ok {
		return
	}
	set := make(map[int64]struct{}, len(mark.holders)+1)
	for u := range mark.holders {
		set[u] = struct{}{}
	}
	set[userID] = struct{}{}
	mark.holders = set
	b.sales[voucherID] = mark
}

// stockBack forgets that the sale was sold out.
func (b *soldOutBoard) stockBack(voucherID int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.sales, voucherID)
	b.gen[voucherID]++
}

// onAnnouncement applies another node's (or this node's) sold-out announcement.
func (s *core) onAnnouncement(voucherID int64, soldOut bool) {
	if !soldOut {
		s.soldOut.stockBack(voucherID)
		return
	}
	s.markInBackground(context.Background(), voucherID, false)
}

// markInBackground marks the sale sold out in this process, announcing it to every node
// first when announce is set — unless it is marked already or another goroutine is at
// it: one at a time per sale.
func (s *core) markInBackground(ctx context.Context, voucherID int64, announce bool) {
	if s.soldOut.marked(voucherID) || !s.soldOut.begin(voucherID) {
		return
	}
	gen := s.soldOut.generation(voucherID)
	go func() {
		defer s.soldOut.done(voucherID)
		if announce {
			if err := s.d.SoldOut.Publish(ctx, voucherID, true); err != nil {
				s.log.Warn("cannot announce a sold-out sale", slog.Int64("voucher_id", voucherID), slog.Any("error", err))
			}
		}
		s.markSoldOut(ctx, voucherID, gen)
	}()
}

// markSoldOut reads the sale's holders once and marks it sold out in this process.
func (s *core) markSoldOut(ctx context.Context, voucherID int64, gen uint64) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	holders, err := s.d.Stock.Holders(ctx, voucherID)
	if err != nil {
		s.log.Warn("cannot read holders of a sold-out sale; claims keep reaching redis", slog.Int64("voucher_id", voucherID), slog.Any("error", err))
		return
	}
	s.soldOut.markSoldOut(voucherID, gen, holders)
}

// announceSoldOut tells every node that the sale sold out and marks it here. Of the
// claims that meet the sold-out gate at once, one announces; the others are answered
// SOLD_OUT meanwhile.
func (u *ClaimVoucher) announceSoldOut(ctx context.Context, voucherID int64) {
	u.c.markInBackground(context.WithoutCancel(ctx), voucherID, true)
}

// refreshSoldOut checks a sold-out mark that is about to run out against the gate: it
// is renewed (holders read again) while the gate has no stock, and dropped here if the
// gate has stock again. If the gate cannot say, the mark runs out and claims ask the
// gate themselves.
func (u *ClaimVoucher) refreshSoldOut(voucherID int64) {
	defer u.c.soldOut.done(voucherID)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	gen := u.c.soldOut.generation(voucherID)
	stock, loaded, err := u.c.d.Stock.Stock(ctx, voucherID)
	switch {
	case err != nil:
		u.c.log.Warn("cannot check a sold-out mark", slog.Int64("voucher_id", voucherID), slog.Any("error", err))
	case !loaded:
	case stock > 0:
		u.c.soldOut.stockBack(voucherID)
	default:
		u.c.markSoldOut(ctx, voucherID, gen)
	}
}

// The voucher read: through the read cache, from the database on a miss.

// voucher reads a voucher through the cache; found is false for an unknown id.
func (s *core) voucher(ctx context.Context, id int64) (domain.Voucher, bool, error) {
	return s.d.VoucherCache.Get(ctx, id, func(ctx context.Context) (domain.Voucher, bool, error) {
		v, err := s.d.Vouchers.Voucher(ctx, id)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.Voucher{}, false, nil
		}
		return v, err == nil, err
	})
}

// BucketsOf returns a sale's bucket count, read like a claim reads its voucher (through
// the voucher cache); 0 for an id that is no flash sale. A claim carries no count, so
// the gate asks this once per sale and process.
func (s *Service) BucketsOf(ctx context.Context, voucherID int64) (int, error) {
	v, found, err := s.c.voucher(ctx, voucherID)
	if err != nil || !found || v.FlashSale == nil {
		return 0, err
	}
	return v.FlashSale.Buckets, nil
}

// Order ids: handed out in memory, unique across nodes and restarts.

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

// The gate step: one atomic reservation in Redis.

// reserve takes the claim's unit in the gate, in one atomic step that also checks the
// sale's window. The voucher is read only when the gate does not hold the sale — Redis
// lost it (or never had it), or there is no such sale: then the voucher decides the
// answer (NOT_FOUND, BAD_USER_INPUT, NOT_STARTED, ENDED) and a live sale is put back from
// the database, once, and asked again. A claim on a sale the gate holds reads nothing
// else. Errors other than the verdicts are wrapped as "reserve: …".
func (u *ClaimVoucher) reserve(ctx context.Context, r Reservation) (Verdict, int64, error) {
	verdict, n, err := u.c.d.Stock.Reserve(ctx, r)
	if err != nil {
		return 0, 0, fmt.Errorf("reserve: %w", err)
	}
	if verdict != NotLoaded {
		return verdict, n, nil
	}
	v, found, err := u.c.voucher(ctx, r.VoucherID)
	switch {
	case err != nil:
		return 0, 0, fmt.Errorf("read voucher %d: %w", r.VoucherID, err)
	case !found:
		return 0, 0, domain.Errorf(domain.CodeNotFound, "no such voucher")
	case v.FlashSale == nil:
		return 0, 0, domain.Errorf(domain.CodeBadUserInput, "this voucher is not a flash sale")
	case r.At.Before(v.FlashSale.BeginTime):
		return NotStarted, 0, nil
	case !r.At.Before(v.FlashSale.EndTime):
		return Ended, 0, nil
	}
	if _, err := u.c.loadSale(ctx, v, false); err != nil {
		return 0, 0, fmt.Errorf("reserve: %w", err)
	}
	r.Buckets = v.FlashSale.Buckets
	verdict, n, err = u.c.d.Stock.Reserve(ctx, r)
	if err != nil {
		return 0, 0, fmt.Errorf("reserve: %w", err)
	}
	return verdict, n, nil
}

// Enqueue and undo: the accepted claim goes to the order writer's queue; one known not
// to be queued gives its unit and slot back.

// enqueue publishes an accepted claim (where the gate enqueued it already, the publisher
// does nothing). The publish does not depend on the client: it
// runs on a context the client cannot cancel, bounded by PublishTimeout. A publish known
// not to have queued the claim (ErrNotEnqueued) is undone and answered INTERNAL; any
// other failure leaves the outcome unknown — the message may be queued, and undoing it
// then would hand its unit and the user's slot out twice — so the reservation stays, the
// claim is answered PENDING, and the reconciler settles it from the database
// (republishing it after RepublishAfter, failing it after FailAfter).
//
// ctx is already detached from the client; the publish gets a timeout of its own.
func (u *ClaimVoucher) enqueue(ctx context.Context, r Reservation) error {
	pctx, cancel := context.WithTimeout(ctx, u.c.cfg.PublishTimeout)
	defer cancel()
	claim := domain.Claim{OrderID: r.OrderID, UserID: r.UserID, VoucherID: r.VoucherID, ClaimedAt: r.At}
	err := u.c.d.Publisher.PublishClaim(pctx, claim)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotEnqueued):
		u.undo(ctx, r, err)
		return fmt.Errorf("enqueue claim: %w", err)
	default:
		u.c.log.Warn("claim publish outcome unknown; the reservation stays and the reconciler settles it",
			slog.Int64("order_id", r.OrderID), slog.Int64("voucher_id", r.VoucherID), slog.Any("error", err))
		return nil
	}
}

// undo gives back a reservation whose claim is known not to be enqueued, so the
// client's INTERNAL answer promises nothing. If even that fails, the reconciler finds the
// reservation later.
func (u *ClaimVoucher) undo(ctx context.Context, r Reservation, cause error) {
	ctx = context.WithoutCancel(ctx)
	if _, err := u.c.giveBack(ctx, r.VoucherID, unitsBack{Drop: r.OrderID, User: r.UserID, Release: Release{Stock: true, Slot: true}}); err != nil {
		u.c.log.Error("cannot undo a reservation whose claim was not enqueued",
			slog.Int64("order_id", r.OrderID), slog.Any("publish_error", cause), slog.Any("error", err))
	}
}

// Accepted claims: what this node answered PENDING, remembered until the orders are
// seen written, so that a Redis that comes back empty loses nothing silently.

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
	periodic.Every(ctx, interval, func() {
		if _, err := a.Sweep(ctx); err != nil && ctx.Err() == nil {
			a.c.log.Warn("cannot check which accepted claims are written", slog.Any("error", err))
		}
	})
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
