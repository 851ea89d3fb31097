package seckill

import (
	"context"
	"errors"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// Verdict is the gate's answer to a reservation.
type Verdict int

// Verdicts.
const (
	Accepted Verdict = iota
	SoldOut
	AlreadyClaimed
	NotStarted
	Ended
	// NotLoaded means Redis holds no state for the sale (never preloaded, or lost).
	NotLoaded
	// RateLimited means the user claimed too often; the number returned is the wait in
	// milliseconds.
	RateLimited
)

// RateLimit allows Max claims per user per sliding Window (Max 0: no limit).
type RateLimit struct {
	Max    int
	Window time.Duration
}

// Reservation is one unit of stock held for a user until the order is written.
type Reservation struct {
	OrderID   int64
	UserID    int64
	VoucherID int64
	At        time.Time
	// RateLimit is checked (and the claim counted) in the same atomic step.
	RateLimit RateLimit
	// Buckets is the sale's domain.FlashSale.Buckets (0 or 1: one bucket); the gate
	// looks it up when it is 0 and it does not know the sale.
	Buckets int
}

// SaleState is what the gate needs to know about a sale.
type SaleState struct {
	VoucherID int64
	// Stock is the number of units still to give out.
	Stock     int64
	BeginTime time.Time
	EndTime   time.Time
	// Holders are the users who already hold an order.
	Holders []int64
	// Buckets is the sale's domain.FlashSale.Buckets (0 or 1: one bucket).
	Buckets int
}

// Release says what a dropped reservation gives back.
type Release struct {
	// Stock returns the unit to the sale.
	Stock bool
	// Slot lets the user claim again.
	Slot bool
}

// ReturnedUnit is the unit of a written order, canceled or refunded, going back to its
// sale.
type ReturnedUnit struct {
	OrderID int64
	UserID  int64
	// Held is set when the transaction that released the order held the unit for the
	// sale's waitlist already (orders.LineHold): it is announced, not given to the gate.
	Held bool
}

// SaleStock is the one port to a sale's stock (in Redis: redis.NewSaleGate), grouped by
// intent: claim — reserve, drop, settle, pending; load — load, window, transfers; return;
// inspect and repair — snapshot, stock, holders, reservations, repair. It decides claims
// atomically: it holds a unit for a claim until its order is written (settled) or given
// up (dropped).
type SaleStock interface {
	// Claim.

	// Reserve checks the user's claim rate, the window, the user and the stock, and if
	// all pass takes one unit, marks the user and records the reservation — one atomic
	// step; where the queue is fed by the gate it also enqueues the claim in that step.
	// It returns the verdict and the stock left (the wait in ms when RateLimited).
	Reserve(ctx context.Context, r Reservation) (Verdict, int64, error)
	// Drop removes a reservation and gives back what rel says; false when there was no
	// such reservation (already settled or dropped).
	Drop(ctx context.Context, voucherID, orderID int64, rel Release) (bool, error)
	// Settle removes the reservations of orders that are now written.
	Settle(ctx context.Context, voucherID int64, orderIDs []int64) error
	// Pending returns a reservation still waiting for its order, found by the order id
	// alone at a cost that does not grow with the number of sales.
	Pending(ctx context.Context, orderID int64) (Reservation, bool, error)
	// PendingOfUser lists the user's reservations still waiting for their orders,
	// across every sale, newest first.
	PendingOfUser(ctx context.Context, userID int64) ([]Reservation, error)

	// Load.

	// Load writes a sale's state. With replace false it does nothing when the sale is
	// already loaded (returns false).
	Load(ctx context.Context, s SaleState, replace bool) (bool, error)
	// SetWindow changes a loaded sale's window, leaving its stock and holders alone.
	SetWindow(ctx context.Context, voucherID int64, begin, end time.Time) error
	// CompleteTransfers finishes the moves of units between the buckets of a sale split
	// into buckets that were started before before and not known finished (a node that
	// died between taking units from one bucket and giving them to another leaves them
	// in neither); it returns how many it finished. Nothing to do for a sale in one
	// bucket.
	CompleteTransfers(ctx context.Context, voucherID int64, before time.Time) (int, error)

	// Return.

	// ReturnUnits gives the units of canceled and refunded orders back: it adds one unit
	// per order to the sale's stock — at most once per order id however often it is
	// called — and, when freeSlot, lets each order's user claim the sale again. A sale
	// the gate does not hold is left alone (it is loaded from the database, which
	// already has the units). It returns how many units went back now.
	ReturnUnits(ctx context.Context, voucherID int64, units []ReturnedUnit, freeSlot bool) (int, error)

	// Slots.

	// TakeSlot marks the user as holding the sale, as an accepted claim does, without
	// taking a unit (a unit held for the user outside the stock: the waitlist's):
	// false when the user is marked already; loaded false, and nothing done, when the
	// gate does not hold the sale.
	TakeSlot(ctx context.Context, voucherID, userID int64) (taken, loaded bool, err error)
	// FreeSlots lets the users claim the sale again (their marks go); a sale the gate
	// does not hold is left alone.
	FreeSlots(ctx context.Context, voucherID int64, userIDs []int64) error

	// Inspect and repair.

	// Snapshot reads a sale's state in one atomic step; Loaded is false when Redis holds
	// no stock for it.
	Snapshot(ctx context.Context, voucherID int64) (GateSnapshot, error)
	// Stock returns the stock left in Redis; false when the sale is not loaded.
	Stock(ctx context.Context, voucherID int64) (int64, bool, error)
	// Stocks is Stock for many sales in one round trip: the stock left of each sale
	// Redis holds, by voucher id; sales not loaded are left out.
	Stocks(ctx context.Context, sales []SaleRef) (map[int64]int64, error)
	// Holders lists the users marked as holding the voucher.
	Holders(ctx context.Context, voucherID int64) ([]int64, error)
	// Reservations lists the sale's pending reservations.
	Reservations(ctx context.Context, voucherID int64) ([]Reservation, error)
	// Repair applies r in one atomic step unless a reservation of the sale was dropped,
	// or the sale loaded or repaired, since r.Version was read (false then: read again).
	Repair(ctx context.Context, r GateRepair) (bool, error)
}

// Waitlist holds returned units for the people waiting for a sale (package waitlist).
// Every unit that comes back to a sale is offered to it first, and only the units it
// does not hold go back to the stock.
type Waitlist interface {
	// Hold holds units for the first in line of the sale, each taken off the sale's
	// database stock in the transaction that holds it, and returns the source order ids
	// of those held — now, or by an earlier call for the same order. An error means some
	// may be held: the caller gives none of them to the gate (the reconciler brings the
	// gate in line with the database).
	Hold(ctx context.Context, voucherID int64, units []ReturnedUnit) (map[int64]bool, error)
	// HoldDropped decides, once per claim that failed before it became an order (u, keyed
	// by minus its order id), whether its unit is held for the first in line — taken off
	// the sale's database stock in the transaction that holds it — or goes to the stock;
	// every call for the same claim answers the same. An error decides nothing the
	// caller can rely on: it leaves the reservation for a later try.
	HoldDropped(ctx context.Context, voucherID int64, u ReturnedUnit) (bool, error)
	// HeldUnits counts the sale's units held for its line (out of its stock, in no order
	// yet).
	HeldUnits(ctx context.Context, voucherID int64) (int64, error)
	// OfferTTL is how long a unit is held for one user: the releases of orders hold
	// their units for the line themselves, for that long (orders.LineHold).
	OfferTTL() time.Duration
}

// SaleRef names a sale for a read of many: its voucher and its bucket count
// (domain.FlashSale.Buckets; 0: looked up as for a call that does not carry it).
type SaleRef struct {
	VoucherID int64
	Buckets   int
}

// GateSnapshot is a sale's state in Redis at one instant.
type GateSnapshot struct {
	Loaded bool
	// Version changes whenever a reservation is dropped and whenever the sale is loaded
	// or repaired — not when one is reserved or settled.
	Version int64
	// Versions are, for a sale split into buckets, each bucket's version (Version is
	// then their sum); nil for a sale in one bucket.
	Versions     []int64
	Stock        int64
	Reservations []Reservation
	Holders      []int64
}

// GateRepair brings a sale's Redis state back in line with the database.
type GateRepair struct {
	VoucherID int64
	// Version (and Versions) are the GateSnapshot's the repair was computed from.
	Version  int64
	Versions []int64
	// StockDelta is added to the stock (which never goes below 0 by it).
	StockDelta int64
	// Remove are reservations whose orders exist (settled or FAILED).
	Remove []int64
	// AddHolders and RemoveHolders change the holder set.
	AddHolders    []int64
	RemoveHolders []int64
}

// ClaimPublisher enqueues accepted claims for the order writer.
type ClaimPublisher interface {
	// PublishClaim enqueues c; an error means it may not be enqueued.
	PublishClaim(ctx context.Context, c domain.Claim) error
}

// VoucherReader is a read-through cache of vouchers by id, for the claim path.
type VoucherReader interface {
	// Get returns the voucher with id from the cache or, on a miss, from load, whose
	// answer it caches, "not found" (found false) included. The error is load's or ctx's:
	// a cache that cannot be reached only makes reads slower.
	Get(ctx context.Context, id int64, load func(ctx context.Context) (v domain.Voucher, found bool, err error)) (domain.Voucher, bool, error)
}

// VoucherInvalidator drops cached copies of a voucher after it changed.
type VoucherInvalidator interface {
	// VoucherChanged is told after the database holds the new voucher (or a new id); an
	// error means some copies may be served until they expire.
	VoucherChanged(ctx context.Context, id int64) error
}

// SaleNotifier hands a shop's new sale to the inboxes of the users who marked the shop
// as a favourite, without waiting for them (the inbox package writes them later).
type SaleNotifier interface {
	Notify(ctx context.Context, e domain.NotificationEvent)
}

// ShopOwners says who runs a shop.
type ShopOwners interface {
	// ShopOwner returns the shop's owner (0: none), or domain.ErrNotFound.
	ShopOwner(ctx context.Context, shopID int64) (int64, error)
}

// IDGenerator hands out order ids: 64-bit, time-ordered, unique across nodes.
type IDGenerator interface {
	NextID(ctx context.Context) (int64, error)
}

// Vouchers reads and writes vouchers in the relational store.
type Vouchers interface {
	// CreateVoucher stores a voucher (with its flash sale, in one transaction);
	// BAD_USER_INPUT for an unknown shop.
	CreateVoucher(ctx context.Context, v domain.Voucher) (domain.Voucher, error)
	// Voucher returns one voucher with its flash sale, or domain.ErrNotFound.
	Voucher(ctx context.Context, id int64) (domain.Voucher, error)
	// VouchersOfShop lists a shop's vouchers.
	VouchersOfShop(ctx context.Context, shopID int64) ([]domain.Voucher, error)
	// VouchersOfShops lists the vouchers of several shops by shop, each shop's by id, in
	// one query; shops without vouchers are left out.
	VouchersOfShops(ctx context.Context, shopIDs []int64) (map[int64][]domain.Voucher, error)
	// FlashSalesEndingAfter lists flash-sale vouchers whose sale ends after t.
	FlashSalesEndingAfter(ctx context.Context, t time.Time) ([]domain.Voucher, error)
	// UpdateFlashSale changes a sale in one transaction through update, which sees the
	// voucher as stored. Errors: domain.ErrNotFound (also for a normal voucher); what
	// update returns.
	UpdateFlashSale(ctx context.Context, voucherID int64, update func(v domain.Voucher, fs *domain.FlashSale) error) (domain.Voucher, error)
}

// StatusBus carries order events to every server node.
type StatusBus interface {
	// Publish sends events to every node.
	Publish(ctx context.Context, events ...domain.OrderEvent) error
	// Subscribe delivers the events of one order until cancel is called. Delivery is at
	// most once; when events may have been lost (the bus reconnected) the subscriber
	// gets an event with the order id and no Status, asking it to re-read the order.
	Subscribe(ctx context.Context, orderID int64) (events <-chan domain.OrderEvent, cancel func(), err error)
}

// OpenPayments says whether an order's money still moves.
type OpenPayments interface {
	// OpenPayment reports whether one of the order's payments is PENDING or
	// REFUND_PENDING.
	OpenPayment(ctx context.Context, orderID int64) (bool, error)
}

// SoldOutBus tells every node when a sale sells out or gets stock back.
type SoldOutBus interface {
	// Publish announces that voucherID is sold out (true) or has stock again (false).
	Publish(ctx context.Context, voucherID int64, soldOut bool) error
	// Subscribe calls fn for every announcement until the returned stop is called.
	Subscribe(ctx context.Context, fn func(voucherID int64, soldOut bool)) (stop func(), err error)
}

// ErrNotEnqueued marks a publish known not to have queued its claim: the broker refused
// it, or it was never sent (no connection, the channel or the publisher closed first).
var ErrNotEnqueued = errors.New("claim not enqueued")

// ClaimOutcome is how a claim was answered, for the operator's counts.
type ClaimOutcome uint8

// Claim outcomes. Every answer of ClaimVoucher.Handle is exactly one of them.
const (
	ClaimAccepted ClaimOutcome = iota
	ClaimSoldOut
	ClaimAlreadyClaimed
	ClaimNotStarted
	ClaimEnded
	ClaimRateLimited
	// ClaimRefused is a claim that never was one: no user, an unknown voucher, a voucher
	// that is not a flash sale.
	ClaimRefused
	// ClaimError is a claim that failed inside: Redis, the queue or the cache could not
	// answer (INTERNAL).
	ClaimError
	claimOutcomes
)

// ClaimOutcomes lists every outcome, so that an observer can prepare one counter each.
func ClaimOutcomes() []ClaimOutcome {
	out := make([]ClaimOutcome, claimOutcomes)
	for i := range out {
		out[i] = ClaimOutcome(i)
	}
	return out
}

// String names the outcome in snake case (a metric label).
func (o ClaimOutcome) String() string {
	switch o {
	case ClaimAccepted:
		return "accepted"
	case ClaimSoldOut:
		return "sold_out"
	case ClaimAlreadyClaimed:
		return "already_claimed"
	case ClaimNotStarted:
		return "not_started"
	case ClaimEnded:
		return "ended"
	case ClaimRateLimited:
		return "rate_limited"
	case ClaimRefused:
		return "refused"
	default:
		return "error"
	}
}

// FailReason is why an order was recorded FAILED, for the operator's counts.
type FailReason uint8

// Reasons an order is recorded FAILED (see the Reason… texts told to the user).
const (
	FailDuplicate FailReason = iota // the user holds another order of the sale
	FailNoStock                     // the database had no unit for the claim
	FailPoison                      // the claim was dead-lettered
	FailExpired                     // the reconciler gave up waiting for the order
	FailIDTaken                     // the order id belongs to another order
	FailLost                        // the claim was lost with Redis before it was written
	failReasons
)

// FailReasons lists every reason.
func FailReasons() []FailReason {
	out := make([]FailReason, failReasons)
	for i := range out {
		out[i] = FailReason(i)
	}
	return out
}

// String names the reason in snake case (a metric label).
func (r FailReason) String() string {
	switch r {
	case FailDuplicate:
		return "duplicate"
	case FailNoStock:
		return "no_stock"
	case FailPoison:
		return "poison"
	case FailExpired:
		return "expired"
	case FailLost:
		return "lost"
	default:
		return "id_taken"
	}
}

// Observer is told what the flash sale did, for metrics. Claimed runs on every claim:
// implementations must be cheap (an atomic add), never block and never allocate.
type Observer interface {
	// Claimed counts one answered claim.
	Claimed(o ClaimOutcome)
	// OrdersWritten counts claims whose orders the order writer wrote (or found written,
	// for a claim delivered again); WriteFailed counts batches whose write failed and
	// will be retried, and the claims in them.
	OrdersWritten(n int)
	WriteFailed(claims int)
	// OrderFailed counts one order recorded FAILED.
	OrderFailed(r FailReason)
	// Reconciled counts what one reconcile pass repaired.
	Reconciled(rep ReconcileReport)
}

// NopObserver observes nothing.
type NopObserver struct{}

var _ Observer = NopObserver{}

func (NopObserver) Claimed(ClaimOutcome)       {}
func (NopObserver) OrdersWritten(int)          {}
func (NopObserver) WriteFailed(int)            {}
func (NopObserver) OrderFailed(FailReason)     {}
func (NopObserver) Reconciled(ReconcileReport) {}
