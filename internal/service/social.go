package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/social"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

// WithSocialClock makes the notes, feed, sign-in and visitor use cases read time from
// now, so component tests can publish at chosen instants and sign in on chosen days.
func WithSocialClock(now func() time.Time) Option {
	return func(o *options) { o.socialNow = now }
}

// socialParts are the social use cases and the fan-out queue they publish to.
type socialParts struct {
	*social.Service
	fanout *redisadapter.FanoutStream
}

// newSocial builds notes, likes, follows, the feed, sign-ins and visitor counts; the
// shop queries count their views, so they come first. images tells which image paths
// of this site exist.
func (s *Node) newSocial(o options, images notes.Images) (socialParts, error) {
	cfg := s.Config
	rc := s.Redis.Client
	inboxes, err := redisadapter.NewInboxes(rc, cfg.Social.InboxMax)
	if err != nil {
		return socialParts{}, err
	}
	visitors, err := redisadapter.NewVisitors(rc, cfg.Social.VisitorRetention)
	if err != nil {
		return socialParts{}, err
	}
	signIns, err := redisadapter.NewSignIns(rc, cfg.Social.SignInCacheTTL)
	if err != nil {
		return socialParts{}, err
	}
	fanout := redisadapter.NewFanoutStream(rc, redisadapter.FanoutConfig{}, s.Log)
	svc, err := social.New(social.Config{
		Pages:            domain.PageLimits{Default: cfg.Paging.DefaultPageSize, Max: cfg.Paging.MaxPageSize},
		Likers:           domain.PageLimits{Default: cfg.Social.LikersDefault, Max: cfg.Social.LikersMax},
		Location:         cfg.Social.Location,
		InboxMax:         cfg.Social.InboxMax,
		SyncFanoutMax:    cfg.Social.SyncFanoutMax,
		FollowBackfill:   cfg.Social.FollowBackfill,
		CommonFollowsMax: cfg.Social.CommonFollowsMax,
		MaxVisitorDays:   cfg.Social.VisitorMaxDays,
		CommentRate:      notes.Rate(cfg.Social.CommentRate),
		BlogRate:         notes.Rate(cfg.Social.BlogRate),
	}, social.Deps{
		Blogs:    s.Store.Blogs(),
		Follows:  s.Store.Follows(),
		Users:    s.Store.Users(),
		Shops:    s.Store.Shops(),
		Likes:    redisadapter.NewLikes(rc),
		Mirror:   redisadapter.NewFollowSets(rc),
		Inboxes:  inboxes,
		Fanout:   fanout,
		SignIns:  signIns,
		Visitors: visitors,
		// A shop's merchant reads its visitors.
		ShopOwners: s.Store.Shops(),
		Log:        s.Log,
		Now:        o.socialNow,

		LikeStore:   s.Store.Likes(),
		SignInStore: s.Store.SignIns(),
		Comments:    s.Store.Comments(),
		Credits:     s.Store.Users().Credits(),
		Limiter:     redisadapter.NewRateLimiter(rc),
		// The shop cache is built after the social use cases (shops count their views
		// through them); it is looked up when a review changes.
		ShopCache: lateShopInvalidator{s},
		Images:    images,
		Notifier:  s.notifications,
	})
	if err != nil {
		return socialParts{}, err
	}
	s.closers = append(s.closers, func() error { svc.Close(); return nil })
	return socialParts{Service: svc, fanout: fanout}, nil
}

// startSocial hands the social use cases to the application, copies the facts only Redis
// held into the database, fills the follow mirror when Redis lacks it and starts the
// feed's fan-out consumer.
func (s *Node) startSocial(ctx context.Context, soc socialParts) error {
	s.App.Commands.SocialCommands, s.App.Queries.SocialQueries, s.Ops.SocialOperations = app.Social(soc.Service)
	likes, months, err := s.Ops.LegacyFacts.ImportLegacyFacts(ctx)
	if err != nil {
		return fmt.Errorf("copy likes and sign-ins only Redis holds into the database: %w", err)
	}
	if likes+months > 0 {
		s.Log.Info("likes and sign-ins only Redis held copied into the database", slog.Int("likes", likes), slog.Int("months", months))
	}
	n, err := s.Ops.FollowMirror.LoadFollows(ctx)
	if err != nil {
		return fmt.Errorf("fill follow mirror: %w", err)
	}
	if n > 0 {
		s.Log.Info("follow mirror filled from the database", slog.Int("follows", n))
	}

	cctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := soc.fanout.Consume(cctx, s.Ops.FeedFanout.Handle); err != nil && !errors.Is(err, context.Canceled) {
			s.Log.Error("feed fan-out consumer stopped", slog.Any("error", err))
		}
	})
	// Stop consuming before the stores close.
	s.closers = append(s.closers, func() error { cancel(); wg.Wait(); return nil })
	return nil
}

// lateShopInvalidator tells the node's shop cache, once there is one, that a shop
// changed.
type lateShopInvalidator struct{ n *Node }

// A shop's reviews changed (its score and review count), so the lists of its type that
// show it are dropped too; a review never moves a shop to another type.
func (l lateShopInvalidator) ShopChanged(ctx context.Context, id int64) error {
	if l.n.shopInvalidator == nil {
		return nil
	}
	err := l.n.shopInvalidator.ShopChanged(ctx, id)
	s, lerr := l.n.Store.Shops().Shop(ctx, id)
	switch {
	case errors.Is(lerr, domain.ErrNotFound):
		return err
	case lerr != nil:
		return errors.Join(err, fmt.Errorf("read the type of shop %d: %w", id, lerr))
	}
	return errors.Join(err, l.n.shopInvalidator.ShopsOfTypeChanged(ctx, s.TypeID))
}
