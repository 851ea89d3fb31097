package service

import (
	"context"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/adapters/notifyqueue"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/domain"
)

// newNotifications is where the social and order use cases report what may concern
// other users. It is an in-process buffer drained by one worker (see notifyqueue): a
// like, comment or follow never waits for its notification; the cost is that events
// still in the buffer when the process dies are not told.
func newNotifications(s *Node) *notifyqueue.Buffer {
	return notifyqueue.New(notifyqueue.Config{}, s.Log)
}

// startInbox builds the inboxes on the store and the notification bus, hands them to
// the application and starts the worker that writes the reported events; the worker
// stops, after writing what the buffer holds, before the stores close.
func (s *Node) startInbox() error {
	cfg := s.Config
	bus := redisadapter.NewNotificationBus(s.Redis.Client, s.Redis.Channel(redisadapter.DefaultNotificationChannel))
	s.closers = append(s.closers, bus.Close)
	s.notificationBus = bus
	svc, err := inbox.New(inbox.Config{
		Keep:  cfg.Social.NotificationsKeep,
		Pages: domain.PageLimits{Default: cfg.Paging.DefaultPageSize, Max: cfg.Paging.MaxPageSize},
	}, inbox.Deps{
		Store: entstore.NewNotifications(s.Store), Bus: bus, Blogs: s.App.Queries.Blogs, Users: s.Store.Users(), Orders: s.Store.Orders(),
		Vouchers: inboxVouchers{s.App.Queries.Vouchers}, Log: s.Log,
	})
	if err != nil {
		return err
	}
	s.App.Commands.InboxCommands, s.App.Queries.InboxQueries, s.Ops.InboxOperations = app.Inbox(svc)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.notifications.Run(ctx, s.Ops.NotificationWriter.Handle)
	}()
	s.closers = append(s.closers, func() error { cancel(); <-done; return nil })
	return nil
}
