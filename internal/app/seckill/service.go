// Package seckill holds the flash sale: creating sales, the claim path (decided in one
// Redis round trip, no SQL), writing orders from the queue, order status, and the
// repairs that keep Redis and the database in step.
//
// Users and the GraphQL schema say "flash sale"; the package keeps the name seckill
// (秒杀, "second kill"), the name the write-ups of this design and the Redis keys
// (seckill:…) use, so that code, keys and literature can be searched with one word.
//
// Each use case is a type of its own, holding only what it needs; New builds them all
// on one shared core (the adapters, the clock, this node's sold-out board).
package seckill

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// Config holds the flash sale's limits.
type Config struct {
	// ClaimsPerUser claims per ClaimWindow are allowed per user across all sales (0 turns
	// the limit off). Each node counts them in memory before the gate, and the gate counts
	// them again in its atomic step per shard of sales (which bounds a user spread over
	// several nodes), so the limit costs no round trip of its own.
	ClaimsPerUser int
	ClaimWindow   time.Duration
	// GlobalClaims is a token bucket over every claim this node takes to the gate: Max
	// claims, refilled at Max per Window (Max 0: off).
	GlobalClaims RateLimit
	// PayTimeout is how long a CREATED order waits for payment before it is canceled
	// (ORDER_PAY_TIMEOUT, default 15m).
	PayTimeout time.Duration
	// KeepSlotAfterCancel keeps a user from claiming a sale again after their order of it
	// was canceled or refunded (ORDER_RECLAIM_AFTER_CANCEL=false; by default they may).
	KeepSlotAfterCancel bool
	// MaxStock bounds a sale's stock.
	MaxStock int64
	// MaxBuckets bounds how many parts a sale's stock may be split into (0: 1). Each
	// part needs a shard of its own, so it is the number of shards.
	MaxBuckets int
	// Pages bounds myOrders.
	Pages domain.PageLimits
	// SoldOutMarkTTL is how long a node trusts its sold-out mark of a sale before asking
	// the gate again (default 10s).
	SoldOutMarkTTL time.Duration
	// StatusRecheck is how often an orderStatus subscription still at PENDING re-reads
	// its order, in case its final event was never published or got lost (0: only
	// when the status bus asks for it after a reconnect).
	StatusRecheck time.Duration
	// StatusRecheckConcurrency bounds the re-reads running at once on this node, so a
	// reconnect with many open subscriptions does not flood the stores (default 16).
	StatusRecheckConcurrency int
	// AcceptedMax bounds the accepted claims a node remembers until it sees their orders
	// written (0: none are remembered; see AcceptedClaims).
	AcceptedMax int
	// ClaimsInRedis says that the queue lives in Redis (QUEUE=redis: the gate enqueues
	// claims in its atomic step), so a Redis that comes back empty lost the claims not
	// yet written with their reservations.
	ClaimsInRedis bool
	// WarmupBefore is how long before it begins a sale is loaded into the gate
	// (SALE_WARMUP_BEFORE, default 10m; 0: from its creation on).
	WarmupBefore time.Duration
	// ProgressInterval is the shortest time between two pushes of a sale's progress, and
	// how often the node reads a followed sale (default 1s); ProgressMaxSales bounds the
	// sales followed at once (0: unlimited).
	ProgressInterval time.Duration
	ProgressMaxSales int
	// PublishTimeout bounds the gate step of a claim and the publish of an accepted one,
	// each, which run whatever the client does (default 5s); when a publish outlasts it,
	// its outcome is unknown and the claim stays reserved for the reconciler.
	PublishTimeout time.Duration
}

// Deps are the adapters the flash sale needs.
type Deps struct {
	Vouchers Vouchers
	// Orders is the order package's store: claims are written, failed and read there.
	Orders orders.OrderStore
	// Stock is the sales' stock (redis.NewSaleGate): it decides claims, loads sales,
	// takes back the units of canceled and refunded orders (SaleUnits is how the order
	// lifecycle reaches it) and reads and repairs sales.
	Stock SaleStock
	// Publisher enqueues the claims ClaimVoucher accepts. Where the gate enqueues them
	// itself (in Reserve), it is a publisher that does nothing.
	Publisher ClaimPublisher
	// Republisher enqueues again the claims the reconciler finds stale; it always
	// reaches the queue.
	Republisher ClaimPublisher
	IDs         IDGenerator
	// WarmupLocks lets one node of many warm a sale up (nil: every node tries; the load
	// is idempotent).
	WarmupLocks WarmupLocks
	Status      StatusBus
	SoldOut     SoldOutBus
	// Shops says who runs a shop (merchants create and edit their own shops' sales).
	Shops ShopOwners
	// VoucherCache caches vouchers by id for the claim path; VoucherChanges drops a
	// changed voucher from it.
	VoucherCache   VoucherReader
	VoucherChanges VoucherInvalidator
	// Payments says whether an order's money still moves, so that an orderStatus
	// subscription of a canceled order stays until its late payment is refunded (nil:
	// subscriptions end at the final status).
	Payments OpenPayments
	// Sold is told when the order writer wrote orders PAID at once (free vouchers),
	// which count in their shops' sold (nil: nobody caches them).
	Sold orders.SoldChanges
	// Observer counts claims, written and failed orders and repairs (nil: nothing).
	Observer Observer
	// Notifier tells the fans of a shop of its new flash sales (nil: nobody).
	Notifier SaleNotifier
	Log      *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// After is the clock's timer (the periodic re-reads of subscribed orders wait on
	// it); nil means time.After.
	After func(time.Duration) <-chan time.Time
}

// noSaleNotifier tells nobody.
type noSaleNotifier struct{}

func (noSaleNotifier) Notify(context.Context, domain.NotificationEvent) {}

// DefaultPayTimeout is how long a written order waits for payment unless configured.
const DefaultPayTimeout = 15 * time.Minute

// Service is the flash sale's use cases, one type each.
type Service struct {
	// ClaimVoucher is the claim path (a client's command).
	ClaimVoucher *ClaimVoucher
	// FlashSales creates vouchers and sales and edits sales (administrators' commands).
	FlashSales *FlashSales
	// VouchersOfShop lists a shop's vouchers with their remaining stock.
	VouchersOfShop *VouchersOfShop
	// Orders reads a user's orders and follows their status.
	Orders *OrderQueries
	// OrderWriter writes the orders of queued claims (the queue consumer).
	OrderWriter *OrderWriter
	// Reconciler loads sales into Redis and repairs Redis and the database.
	Reconciler *Reconciler
	// AcceptedClaims keeps this node's accepted claims visible and settled until their
	// orders are written, whatever Redis does.
	AcceptedClaims *AcceptedClaims
	// Warmup loads upcoming sales into the gate SALE_WARMUP_BEFORE before they begin.
	Warmup *Warmup
	// Progress follows sales for buyers' pages, one read per sale and interval however
	// many follow it.
	Progress *SaleProgress
	// Units takes back the units of canceled and refunded orders and reads a sale's live
	// numbers, for the order lifecycle (orders.Sales).
	Units *SaleUnits
	// ForWaitlist is the sales' stock as their waitlists see it (waitlist.Sales).
	ForWaitlist *WaitlistStock

	c *core
}

// core is what the use cases share: the adapters, the clock and this node's sold-out
// board.
type core struct {
	cfg     Config
	d       Deps
	now     func() time.Time
	after   func(time.Duration) <-chan time.Time
	log     *slog.Logger
	soldOut *soldOutBoard
	stopBus func()
	// accepted are this node's claims answered PENDING and not yet seen written.
	accepted *acceptedClaims
	// line holds the sales' waitlists (a waitlistRef; empty: no waitlist), set once by
	// UseWaitlist.
	line atomic.Value
}

// waitlistRef wraps the Waitlist so that atomic.Value always stores one type.
type waitlistRef struct{ w Waitlist }

// waitlist returns the sales' waitlists, or nil.
func (s *core) waitlist() Waitlist {
	if r, ok := s.line.Load().(waitlistRef); ok {
		return r.w
	}
	return nil
}

// UseWaitlist makes every unit that comes back to a sale go to w first (the waitlist is
// built on this service's stock, so it is handed over once both exist).
func (s *Service) UseWaitlist(w Waitlist) { s.c.line.Store(waitlistRef{w}) }

// New checks deps and starts listening for sold-out announcements; Close stops it.
func New(ctx context.Context, cfg Config, d Deps) (*Service, error) {
	switch {
	case d.Vouchers == nil, d.Orders == nil, d.Stock == nil, d.Publisher == nil, d.Republisher == nil, d.IDs == nil,
		d.Status == nil, d.SoldOut == nil, d.VoucherCache == nil, d.VoucherChanges == nil, d.Shops == nil:
		return nil, errors.New("seckill: missing dependency")
	case cfg.ClaimsPerUser > 0 && cfg.ClaimWindow <= 0:
		return nil, errors.New("seckill: the per-user claim limit needs a window")
	case cfg.GlobalClaims.Max > 0 && cfg.GlobalClaims.Window <= 0:
		return nil, errors.New("seckill: the global claim limit needs a window")
	case cfg.MaxStock <= 0:
		return nil, errors.New("seckill: MaxStock must be positive")
	}
	if err := cfg.Pages.Validate(); err != nil {
		return nil, fmt.Errorf("seckill: %w", err)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Observer == nil {
		d.Observer = NopObserver{}
	}
	if d.Notifier == nil {
		d.Notifier = noSaleNotifier{}
	}
	if cfg.SoldOutMarkTTL <= 0 {
		cfg.SoldOutMarkTTL = 10 * time.Second
	}
	cfg.MaxBuckets = max(1, cfg.MaxBuckets)
	if cfg.PayTimeout <= 0 {
		cfg.PayTimeout = DefaultPayTimeout
	}
	if cfg.StatusRecheckConcurrency <= 0 {
		cfg.StatusRecheckConcurrency = 16
	}
	if cfg.ProgressInterval <= 0 {
		cfg.ProgressInterval = time.Second
	}
	if cfg.PublishTimeout <= 0 {
		cfg.PublishTimeout = 5 * time.Second
	}
	c := &core{cfg: cfg, d: d, now: d.Now, after: d.After, log: d.Log, soldOut: newSoldOutBoard(cfg.SoldOutMarkTTL, d.Now),
		accepted: newAcceptedClaims(cfg.AcceptedMax)}
	stop, err := d.SoldOut.Subscribe(context.WithoutCancel(ctx), c.onAnnouncement)
	if err != nil {
		return nil, fmt.Errorf("seckill: listen for sold-out announcements: %w", err)
	}
	c.stopBus = stop
	return &Service{
		ClaimVoucher: &ClaimVoucher{c: c,
			users:  newUserClaimLimiter(RateLimit{Max: cfg.ClaimsPerUser, Window: cfg.ClaimWindow}),
			bucket: newClaimBucket(cfg.GlobalClaims, d.Now())},
		FlashSales:     &FlashSales{c: c},
		VouchersOfShop: &VouchersOfShop{c: c},
		Orders:         &OrderQueries{c: c, rereads: newRereadLimit(cfg.StatusRecheckConcurrency)},
		OrderWriter:    &OrderWriter{c: c},
		Reconciler:     &Reconciler{c: c},
		AcceptedClaims: &AcceptedClaims{c: c},
		Units:          &SaleUnits{c: c},
		ForWaitlist:    &WaitlistStock{c: c},
		Warmup:         &Warmup{c: c},
		Progress:       &SaleProgress{c: c, sales: map[int64]*progressFeed{}},
		c:              c,
	}, nil
}

// Close stops listening for announcements.
func (s *Service) Close() {
	if s.c.stopBus != nil {
		s.c.stopBus()
	}
}

// wait returns a channel that receives after d, on the service's clock.
func (s *core) wait(d time.Duration) <-chan time.Time {
	if s.after != nil {
		return s.after(d)
	}
	return time.After(d)
}

// saleState reads what Redis should hold for a sale from the database.
func (s *core) saleState(ctx context.Context, v domain.Voucher) (SaleState, error) {
	stock, err := s.d.Orders.SaleStock(ctx, v.ID)
	if err != nil {
		return SaleState{}, err
	}
	holders, err := s.d.Orders.LiveHolders(ctx, v.ID, s.cfg.KeepSlotAfterCancel)
	if err != nil {
		return SaleState{}, err
	}
	return SaleState{VoucherID: v.ID, Stock: stock, BeginTime: v.FlashSale.BeginTime, EndTime: v.FlashSale.EndTime, Holders: holders,
		Buckets: v.FlashSale.Buckets}, nil
}

func (s *core) loadSale(ctx context.Context, v domain.Voucher, replace bool) (bool, error) {
	st, err := s.saleState(ctx, v)
	if err != nil {
		return false, fmt.Errorf("read sale %d: %w", v.ID, err)
	}
	ok, err := s.d.Stock.Load(ctx, st, replace)
	if err != nil {
		return false, err
	}
	if ok {
		s.log.Info("flash sale loaded into redis", slog.Int64("voucher_id", v.ID), slog.Int64("stock", st.Stock), slog.Int("holders", len(st.Holders)))
		if st.Stock > 0 {
			s.soldOut.stockBack(v.ID)
		}
	}
	return ok, nil
}
