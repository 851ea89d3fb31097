package seckill

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/domain"
)

// ClaimResult is an accepted claim: the order will be written asynchronously.
type ClaimResult struct {
	OrderID int64
	Status  domain.OrderStatus
}

// ClaimVoucher is the claim path.
type ClaimVoucher struct {
	c *core
	// users and bucket are the claim rate limits (nil: off).
	users  *userClaimLimiter
	bucket *claimBucket
}

// Handle decides a claim without touching the database: the user's claim rate
// (counted here, across sales), the local sold-out mark, the cached voucher and its
// window, the node's global claim bucket, then one atomic gate step in Redis (which
// counts the user's claims again per shard), then the queue.
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
	if ok, wait := u.users.allow(userID, u.c.now()); !ok {
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
	v, found, err := u.c.voucher(ctx, voucherID)
	if err != nil {
		return ClaimResult{}, fmt.Errorf("read voucher %d: %w", voucherID, err)
	}
	if !found {
		return ClaimResult{}, domain.Errorf(domain.CodeNotFound, "no such voucher")
	}
	if v.FlashSale == nil {
		return ClaimResult{}, domain.Errorf(domain.CodeBadUserInput, "this voucher is not a flash sale")
	}
	now := u.c.now()
	switch {
	case now.Before(v.FlashSale.BeginTime):
		return ClaimResult{}, domain.ErrNotStarted
	case !now.Before(v.FlashSale.EndTime):
		return ClaimResult{}, domain.ErrEnded
	}
	// The global bucket guards Redis and the queue: answers given without them are free.
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
		RateLimit: RateLimit{Max: u.c.cfg.ClaimsPerUser, Window: u.c.cfg.ClaimWindow}, Buckets: v.FlashSale.Buckets}
	verdict, n, err := u.c.d.Stock.Reserve(ctx, r)
	if err == nil && verdict == NotLoaded {
		// Redis lost the sale (or never had it): put it back from the database, once.
		if _, err = u.c.loadSale(ctx, v, false); err == nil {
			verdict, n, err = u.c.d.Stock.Reserve(ctx, r)
		}
	}
	if err != nil {
		return ClaimResult{}, fmt.Errorf("reserve: %w", err)
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

// rateLimited is a RATE_LIMITED error asking the client to wait (whole seconds, at
// least one).
func rateLimited(msg string, wait time.Duration) error {
	return &domain.Error{Code: domain.CodeRateLimited, Message: msg,
		RetryAfterSeconds: max(1, int((wait+time.Second-1)/time.Second))}
}

// undo gives back a reservation whose claim is known not to be enqueued, so the
// client's INTERNAL answer promises nothing. If even that fails, the reconciler finds the
// reservation later.
func (u *ClaimVoucher) undo(ctx context.Context, r Reservation, cause error) {
	ctx = context.WithoutCancel(ctx)
	if _, err := u.c.giveBack(ctx, r.VoucherID, unitsBack{Drop: r.OrderID, Release: Release{Stock: true, Slot: true}}); err != nil {
		u.c.log.Error("cannot undo a reservation whose claim was not enqueued",
			slog.Int64("order_id", r.OrderID), slog.Any("publish_error", cause), slog.Any("error", err))
	}
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
