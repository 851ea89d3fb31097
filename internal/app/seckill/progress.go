package seckill

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// ProgressPhase is where a flash sale stands in its window.
type ProgressPhase string

const (
	PhaseUpcoming ProgressPhase = "UPCOMING"
	PhaseLive     ProgressPhase = "LIVE"
	PhaseEnded    ProgressPhase = "ENDED"
)

// Progress is what a buyer's page shows of a flash sale: the units left and where the
// sale stands in its window.
type Progress struct {
	VoucherID int64
	// Remaining is the units still to give out (the gate's count while it holds the
	// sale, else the database's).
	Remaining int64
	SoldOut   bool
	Phase     ProgressPhase
	BeginTime time.Time
	EndTime   time.Time
	At        time.Time
}

// same says whether p and q show a viewer the same thing.
func (p Progress) same(q Progress) bool {
	return p.Remaining == q.Remaining && p.SoldOut == q.SoldOut && p.Phase == q.Phase &&
		p.BeginTime.Equal(q.BeginTime) && p.EndTime.Equal(q.EndTime)
}

// SaleProgress follows flash sales for buyers' pages. However many viewers follow a
// sale on this node, one loop per sale reads it — one voucher-cache read and one gate
// read per ProgressInterval — and hands the same value to every viewer when it changed,
// so a page opened by thousands costs Redis what one page costs. The loop starts with
// the sale's first viewer on the node and stops after its last one leaves or the sale
// ends.
type SaleProgress struct {
	c *core

	mu    sync.Mutex
	sales map[int64]*progressFeed
}

// progressFeed is one sale's loop and its viewers.
type progressFeed struct {
	voucherID int64
	viewers   map[*progressViewer]struct{}
	last      Progress
	stop      context.CancelFunc
}

// progressViewer is one subscription: a buffer of one value that a newer one replaces,
// so a slow viewer gets the latest numbers, never a backlog, and never slows the others.
type progressViewer struct {
	out  chan Progress
	done chan struct{} // closed when the feed ends (the sale ended)
}

func (v *progressViewer) offer(p Progress) {
	for {
		select {
		case v.out <- p:
			return
		default:
		}
		select {
		case <-v.out: // drop the older value the viewer has not taken yet
		default:
		}
	}
}

// Watch follows sale voucherID for one viewer (anyone, logged in or not): the current
// progress at once, then every change, at most one per ProgressInterval; the channel is
// closed once the sale has ended (after a last ENDED push) or when ctx ends. Errors:
// NOT_FOUND for an unknown voucher, BAD_USER_INPUT for a normal voucher,
// RATE_LIMITED when this node already follows SALE_PROGRESS_MAX_SALES sales.
func (s *SaleProgress) Watch(ctx context.Context, voucherID int64) (<-chan Progress, error) {
	v, err := s.sale(ctx, voucherID)
	if err != nil {
		return nil, err
	}
	viewer := &progressViewer{out: make(chan Progress, 1)}
	f, err := s.join(ctx, v, viewer)
	if err != nil {
		return nil, err
	}

	out := make(chan Progress, 1)
	go func() {
		defer close(out)
		defer s.leave(f, viewer)
		for {
			select {
			case <-ctx.Done():
				return
			case p := <-viewer.out:
				select {
				case out <- p:
				case <-ctx.Done():
					return
				}
			case <-viewer.done:
				// The sale ended: hand over the last value if it is still waiting.
				select {
				case p := <-viewer.out:
					select {
					case out <- p:
					case <-ctx.Done():
					}
				default:
				}
				return
			}
		}
	}()
	return out, nil
}

// join adds viewer to the sale's feed, starting the feed (after a first read, made
// without holding the lock) when the sale has none on this node.
func (s *SaleProgress) join(ctx context.Context, v domain.Voucher, viewer *progressViewer) (*progressFeed, error) {
	viewer.done = make(chan struct{})
	s.mu.Lock()
	f, running := s.sales[v.ID]
	if running {
		f.viewers[viewer] = struct{}{}
		viewer.offer(f.last)
		s.mu.Unlock()
		return f, nil
	}
	if max := s.c.cfg.ProgressMaxSales; max > 0 && len(s.sales) >= max {
		s.mu.Unlock()
		return nil, domain.Errorf(domain.CodeRateLimited, "this server follows too many sales for their viewers; try again later")
	}
	s.mu.Unlock()

	first, err := s.read(ctx, v)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, running = s.sales[v.ID]; !running { // nobody started it meanwhile
		loop, stop := context.WithCancel(context.WithoutCancel(ctx))
		f = &progressFeed{voucherID: v.ID, viewers: map[*progressViewer]struct{}{}, last: first, stop: stop}
		s.sales[v.ID] = f
		go s.run(loop, f)
	}
	f.viewers[viewer] = struct{}{}
	viewer.offer(f.last)
	return f, nil
}

// sale reads a flash sale through the voucher cache.
func (s *SaleProgress) sale(ctx context.Context, voucherID int64) (domain.Voucher, error) {
	if voucherID <= 0 {
		return domain.Voucher{}, domain.Errorf(domain.CodeNotFound, "no voucher %d", voucherID)
	}
	v, found, err := s.c.voucher(ctx, voucherID)
	switch {
	case err != nil:
		return domain.Voucher{}, err
	case !found:
		return domain.Voucher{}, domain.Errorf(domain.CodeNotFound, "no voucher %d", voucherID)
	case v.Kind != domain.VoucherFlashSale || v.FlashSale == nil:
		return domain.Voucher{}, domain.Errorf(domain.CodeBadUserInput, "voucher %d is not a flash sale", voucherID)
	}
	return v, nil
}

// read computes a sale's progress now: the gate's stock while it holds the sale, the
// database's (through the voucher) otherwise.
func (s *SaleProgress) read(ctx context.Context, v domain.Voucher) (Progress, error) {
	now := s.c.now()
	fs := v.FlashSale
	p := Progress{VoucherID: v.ID, Remaining: int64(fs.Stock), BeginTime: fs.BeginTime, EndTime: fs.EndTime, At: now}
	n, loaded, err := s.c.d.Stock.Stock(ctx, v.ID)
	if err != nil {
		return Progress{}, err
	}
	if loaded {
		p.Remaining = n
	}
	p.SoldOut = p.Remaining <= 0
	switch {
	case !now.Before(fs.EndTime):
		p.Phase = PhaseEnded
	case now.Before(fs.BeginTime):
		p.Phase = PhaseUpcoming
	default:
		p.Phase = PhaseLive
	}
	return p, nil
}

// run reads the sale every ProgressInterval and hands every change to the viewers,
// until the sale has ended or its last viewer left.
func (s *SaleProgress) run(ctx context.Context, f *progressFeed) {
	interval := s.c.cfg.ProgressInterval
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.c.wait(interval):
		}
		v, err := s.sale(ctx, f.voucherID)
		var p Progress
		if err == nil {
			p, err = s.read(ctx, v)
		}
		if err != nil {
			if ctx.Err() == nil {
				s.c.log.Warn("cannot read sale progress", slog.Int64("voucher_id", f.voucherID), slog.Any("error", err))
			}
			continue
		}
		s.mu.Lock()
		if s.sales[f.voucherID] != f { // the last viewer left meanwhile
			s.mu.Unlock()
			return
		}
		changed := !p.same(f.last)
		if changed {
			f.last = p
			for viewer := range f.viewers {
				viewer.offer(p)
			}
		}
		if p.Phase == PhaseEnded {
			delete(s.sales, f.voucherID)
			for viewer := range f.viewers {
				close(viewer.done)
			}
			f.viewers = nil
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}

// leave removes a viewer; the sale's loop stops with its last viewer.
func (s *SaleProgress) leave(f *progressFeed, viewer *progressViewer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.viewers == nil {
		return // the feed ended and forgot its viewers
	}
	delete(f.viewers, viewer)
	if len(f.viewers) == 0 && s.sales[f.voucherID] == f {
		delete(s.sales, f.voucherID)
		f.stop()
	}
}

// Following is how many sales this node follows for viewers now.
func (s *SaleProgress) Following() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sales)
}
