package service

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/adapters/metrics"
	"github.com/dealspot/dealspot/adapters/queue/notifyqueue"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
)

// notifications is where the use cases report what may concern other users: a bounded
// in-process buffer (a like, comment or follow never waits for its notification), and,
// unless the queue is the in-process one, the broker its batches travel through to
// every node's writer.
type notifications struct {
	*notifyqueue.Buffer
	// broker is nil on the memory queue: the buffer hands its batches to the writer.
	broker *notifyqueue.Broker
	// direct writes through the inbox's writer at once, for the use cases that record
	// that a notification was written (the waitlist's offers).
	direct directInbox
}

// directInbox hands notifications straight to the inbox's writer, which is built with
// the inbox, after the parts that use it; until then Handle refuses, and those parts
// write them later (the waitlist's sweep announces the offers left unannounced).
type directInbox struct{ writer atomic.Pointer[inbox.Writer] }

// Handle writes the notifications of events and pushes them (inbox.Writer.Handle).
func (d *directInbox) Handle(ctx context.Context, events []domain.NotificationEvent) error {
	w := d.writer.Load()
	if w == nil {
		return errors.New("the inbox is not started yet")
	}
	return w.Handle(ctx, events)
}

// newNotifications builds the buffer and opens the broker of the configured queue; the
// consumer starts with the inbox (startInbox).
func newNotifications(ctx context.Context, s *Node) (*notifications, error) {
	cfg := s.Config
	drops, err := metrics.NewNotificationDrops(s.Metrics.Registry)
	if err != nil {
		return nil, err
	}
	n := &notifications{}
	bufCfg := notifyqueue.Config{Capacity: cfg.Social.NotifyBuffer, Drops: drops}
	if cfg.Queue != config.QueueMemory {
		bufCfg.FailReason = notifyqueue.ReasonPublishFailed
		n.broker, err = notifyqueue.OpenBroker(ctx, notifyqueue.BrokerConfig{
			Backend: cfg.Queue, Namespace: cfg.Seckill.QueueNamespace, KafkaBrokers: cfg.KafkaBrokers, AMQPURL: cfg.AMQPURL,
			ClaimIdle: cfg.Seckill.StreamClaimIdle,
		}, s.Redis.Client, drops, s.Log)
		switch {
		case err != nil && cfg.Queue == config.QueueKafka:
			return nil, blame("KAFKA_BROKERS", "Kafka", strings.Join(cfg.KafkaBrokers, ","), err)
		case err != nil && cfg.Queue == config.QueueAMQP:
			return nil, blame("AMQP_URL", "RabbitMQ", urlHost(cfg.AMQPURL), err)
		case err != nil:
			return nil, err
		}
		s.closers = append(s.closers, n.broker.Close)
	}
	n.Buffer = notifyqueue.New(bufCfg, s.Log)
	return n, nil
}

// inboxAudience reads the followers of an author and the fans of a shop.
type inboxAudience struct {
	follows *entstore.Follows
	fans    func(ctx context.Context, shopID, after int64, limit int) ([]int64, error)
}

func (a inboxAudience) FollowerIDs(ctx context.Context, authorID, after int64, limit int) ([]int64, error) {
	return a.follows.FollowerIDs(ctx, authorID, after, limit)
}

func (a inboxAudience) Fans(ctx context.Context, shopID, after int64, limit int) ([]int64, error) {
	return a.fans(ctx, shopID, after, limit)
}

// inboxSales reads the sales and shops notifications name.
type inboxSales struct {
	*entstore.Vouchers
	*entstore.Shops
}

// startInbox builds the inboxes on the store and the notification bus, hands them to
// the application and starts the workers: the one draining the buffer (into the writer,
// or into the broker), the broker's consumer, and the expiry warnings. They stop, the
// buffer drained first, before the stores close.
func (s *Node) startInbox() error {
	cfg := s.Config
	bus := redisadapter.NewNotificationBus(s.Redis.Client, s.Redis.Channel(redisadapter.DefaultNotificationChannel))
	s.closers = append(s.closers, bus.Close)
	s.notificationBus = bus
	deps := inbox.Deps{
		Store: entstore.NewNotifications(s.Store), Bus: bus, Blogs: s.App.Queries.Blogs, Users: s.Store.Users(), Orders: s.Store.Orders(),
		Audience: inboxAudience{follows: s.Store.Follows(), fans: s.App.Queries.Favorites.Fans},
		Sales:    inboxSales{Vouchers: s.Store.Vouchers(), Shops: s.Store.Shops()},
		Log:      s.Log,
	}
	if cfg.Social.ExpiryWarningBefore > 0 {
		deps.Warnings = entstore.NewExpiryWarnings(s.Store)
	}
	svc, err := inbox.New(inbox.Config{
		Keep:                  cfg.Social.NotificationsKeep,
		Pages:                 domain.PageLimits{Default: cfg.Paging.DefaultPageSize, Max: cfg.Paging.MaxPageSize},
		MaxFanout:             inbox.Fanout{FollowedNote: cfg.Social.FollowedNoteMaxFanout, ShopSale: cfg.Social.ShopSaleMaxFanout},
		ExpiryWarningBefore:   cfg.Social.ExpiryWarningBefore,
		ExpiryWarningInterval: cfg.Social.ExpiryWarningInterval,
		ExpiryWarningBatch:    cfg.Orders.ExpiryBatch,
	}, deps)
	if err != nil {
		return err
	}
	s.App.Commands.InboxCommands, s.App.Queries.InboxQueries, s.Ops.InboxOperations = app.Inbox(svc)
	s.notifications.direct.writer.Store(svc.Writer)
	write := s.Ops.NotificationWriter.Handle

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	if b := s.notifications.broker; b != nil {
		wg.Go(func() {
			if err := b.Consume(ctx, write); err != nil && !errors.Is(err, context.Canceled) {
				s.Log.Error("notification consumer stopped", slog.Any("error", err))
			}
		})
	}
	if w := svc.ExpiryWarner; w != nil {
		wg.Go(func() { w.Run(ctx) })
	}
	s.closers = append(s.closers, func() error { cancel(); wg.Wait(); return nil })

	// Stopped first (closers run last to first): what the buffer holds is handed on
	// while the broker and the writer still run.
	handle := write
	if b := s.notifications.broker; b != nil {
		handle = b.Publish
	}
	bctx, bcancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.notifications.Run(bctx, handle)
	}()
	s.closers = append(s.closers, func() error { bcancel(); <-done; return nil })
	return nil
}
