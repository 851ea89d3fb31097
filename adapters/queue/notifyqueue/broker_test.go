package notifyqueue_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/dealspot/dealspot/adapters/queue/notifyqueue"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/inbox/inboxtest"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// brokerCase opens brokers on one backend; brokers of one case share their topic.
type brokerCase struct {
	name string
	open func(t *testing.T) func(t *testing.T) *notifyqueue.Broker
}

func openBroker(t *testing.T, cfg notifyqueue.BrokerConfig, conn *redis.Conn) *notifyqueue.Broker {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var b *notifyqueue.Broker
	var err error
	if conn != nil {
		b, err = notifyqueue.OpenBroker(ctx, cfg, conn.Client, nil, slog.New(slog.DiscardHandler))
	} else {
		b, err = notifyqueue.OpenBroker(ctx, cfg, nil, nil, slog.New(slog.DiscardHandler))
	}
	if err != nil {
		t.Fatalf("open %s broker: %v", cfg.Backend, err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func openRedis(t *testing.T, url string) *redis.Conn {
	t.Helper()
	conn, err := redis.Open(t.Context(), url)
	if err != nil {
		t.Fatalf("open redis: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func brokerCases() []brokerCase {
	redisCase := func(name string, url func(t *testing.T) string) brokerCase {
		return brokerCase{name: name, open: func(t *testing.T) func(t *testing.T) *notifyqueue.Broker {
			conn := openRedis(t, url(t))
			cfg := notifyqueue.BrokerConfig{Backend: notifyqueue.BackendRedis, Namespace: "t" + testsupport.RandomSuffix(8) + ":",
				ClaimIdle: 2 * time.Second, Backoff: 10 * time.Millisecond}
			return func(t *testing.T) *notifyqueue.Broker { return openBroker(t, cfg, conn) }
		}}
	}
	return []brokerCase{
		redisCase("redis-embedded", func(*testing.T) string { return redis.Embedded }),
		redisCase("redis", func(t *testing.T) string { return testsupport.RedisURL(t) }),
		{name: "amqp", open: func(t *testing.T) func(t *testing.T) *notifyqueue.Broker {
			cfg := notifyqueue.BrokerConfig{Backend: notifyqueue.BackendAMQP, AMQPURL: testsupport.Require(t, testsupport.EnvAMQP),
				Namespace: "t" + testsupport.RandomSuffix(8) + ".", Backoff: 10 * time.Millisecond}
			return func(t *testing.T) *notifyqueue.Broker { return openBroker(t, cfg, nil) }
		}},
		{name: "kafka", open: func(t *testing.T) func(t *testing.T) *notifyqueue.Broker {
			cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
			if err != nil {
				t.Fatalf("start kfake: %v", err)
			}
			t.Cleanup(cluster.Close)
			cfg := notifyqueue.BrokerConfig{Backend: notifyqueue.BackendKafka, KafkaBrokers: cluster.ListenAddrs(),
				Namespace: "t" + testsupport.RandomSuffix(8) + ".", Backoff: 10 * time.Millisecond}
			return func(t *testing.T) *notifyqueue.Broker { return openBroker(t, cfg, nil) }
		}},
	}
}

// noReads answers the inbox's look-ups with nothing: the events of these tests need
// none.
type noReads struct{}

func (noReads) BlogViews(context.Context, int64, []int64) ([]notes.BlogView, error) { return nil, nil }
func (noReads) UsersByIDs(context.Context, []int64) ([]domain.User, error)          { return nil, nil }
func (noReads) OrdersByIDs(context.Context, []int64) ([]domain.VoucherOrder, error) { return nil, nil }
func (noReads) FollowerIDs(context.Context, int64, int64, int) ([]int64, error)     { return nil, nil }
func (noReads) Fans(context.Context, int64, int64, int) ([]int64, error)            { return nil, nil }
func (noReads) VouchersByIDs(context.Context, []int64) ([]domain.Voucher, error)    { return nil, nil }
func (noReads) ShopsByIDs(context.Context, []int64) ([]domain.Shop, error)          { return nil, nil }

// countingWriter is the inbox's writer on a store in memory, counting every event it is
// handed by its kind and actor.
type countingWriter struct {
	store  *inboxtest.MemStore
	writer *inbox.Writer
	mu     sync.Mutex
	seen   map[string]int
	events int
}

func newCountingWriter(t *testing.T) *countingWriter {
	t.Helper()
	store := inboxtest.NewMemStore()
	svc, err := inbox.New(inbox.Config{Keep: 500, Pages: domain.PageLimits{Default: 10, Max: 50}}, inbox.Deps{
		Store: store, Bus: inboxtest.NewMemBus(), Blogs: noReads{}, Users: noReads{}, Orders: noReads{}, Audience: noReads{},
		Sales: noReads{}, Log: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &countingWriter{store: store, writer: svc.Writer, seen: map[string]int{}}
}

func (w *countingWriter) handle(ctx context.Context, events []domain.NotificationEvent) error {
	if err := w.writer.Handle(ctx, events); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range events {
		w.seen[fmt.Sprintf("%s/%d/%d", e.Kind, e.ActorID, e.RecipientID)]++
		w.events++
	}
	return nil
}

func (w *countingWriter) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.events
}

// floodEvents are likes of user 1's note 10 by likers distinct users, and follows of
// user 2 by followers distinct users.
func floodEvents(likers, followers int) []domain.NotificationEvent {
	var out []domain.NotificationEvent
	for i := range likers {
		out = append(out, domain.NotificationEvent{Kind: domain.NotifyBlogLiked, ActorID: int64(1000 + i), RecipientID: 1, BlogID: 10})
	}
	for i := range followers {
		out = append(out, domain.NotificationEvent{Kind: domain.NotifyFollowed, ActorID: int64(100_000 + i), RecipientID: 2})
	}
	return out
}

// Events published while no writer runs (it crashed before writing them, or has not
// started) wait in the broker; a writer that starts later writes every one of them,
// once, and a writer started after it finds nothing left.
func TestEventsPublishedBeforeTheWriterStartsAreWrittenOnce(t *testing.T) {
	t.Parallel()
	for _, bc := range brokerCases() {
		t.Run(bc.name, func(t *testing.T) {
			t.Parallel()
			open := bc.open(t)
			const likers, followers = 2000, 700
			events := floodEvents(likers, followers)

			// Node one: the use cases report, the buffer publishes; then it stops (no
			// writer ever ran on it).
			first := open(t)
			buf := notifyqueue.New(notifyqueue.Config{Capacity: len(events), MaxBatch: 500, FailReason: notifyqueue.ReasonPublishFailed}, nil)
			for _, e := range events {
				buf.Notify(t.Context(), e)
			}
			done := make(chan struct{})
			go func() { defer close(done); buf.Run(t.Context(), first.Publish) }()
			buf.Close()
			<-done
			if buf.Dropped() != 0 {
				t.Fatalf("%d events dropped while publishing", buf.Dropped())
			}
			if err := first.Close(); err != nil {
				t.Fatal(err)
			}

			// Node two starts later, with the writer.
			w := newCountingWriter(t)
			second := open(t)
			ctx, cancel := context.WithCancel(t.Context())
			stopped := make(chan error, 1)
			go func() { stopped <- second.Consume(ctx, w.handle) }()
			deadline := time.Now().Add(60 * time.Second)
			for w.count() < len(events) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond) // room for a delivery too many
			cancel()
			if err := <-stopped; err != nil {
				t.Fatal(err)
			}
			if n := w.count(); n != len(events) {
				t.Fatalf("the writer was handed %d events; want the %d published", n, len(events))
			}
			for k, n := range w.seen {
				if n != 1 {
					t.Fatalf("event %s handed %d times", k, n)
				}
			}
			checkInbox(t, w.store, 1, domain.NotifyBlogLiked, likers)
			checkInbox(t, w.store, 2, domain.NotifyFollowed, followers)

			// A third node finds nothing left: every message was acknowledged.
			again := newCountingWriter(t)
			third := open(t)
			ctx, cancel = context.WithTimeout(t.Context(), 1500*time.Millisecond)
			defer cancel()
			if err := third.Consume(ctx, again.handle); err != nil {
				t.Fatal(err)
			}
			if n := again.count(); n != 0 {
				t.Fatalf("a later writer was handed %d events again", n)
			}
		})
	}
}

// checkInbox wants the user's inbox to hold one unread notification of kind counting
// actors users.
func checkInbox(t *testing.T, store *inboxtest.MemStore, userID int64, kind domain.NotificationKind, actors int) {
	t.Helper()
	ns, err := store.Page(t.Context(), userID, false, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 1 || ns[0].Kind != kind || ns[0].ActorCount != actors {
		t.Fatalf("user %d's inbox: %+v; want one %s notification counting %d", userID, ns, kind, actors)
	}
}

// A message the writer keeps failing on is handed again with back-off, then given up
// and counted as dropped (write_failed); one that fails once is written on the next
// attempt.
func TestTheConsumerRetriesThenCountsTheDrop(t *testing.T) {
	t.Parallel()
	conn := openRedis(t, redis.Embedded)
	drops := map[string]int{}
	var mu sync.Mutex
	cfg := notifyqueue.BrokerConfig{Backend: notifyqueue.BackendRedis, Namespace: "t:", ClaimIdle: 2 * time.Second,
		Attempts: 3, Backoff: time.Millisecond}
	b, err := notifyqueue.OpenBroker(t.Context(), cfg, conn.Client, func(reason string, n int) {
		mu.Lock()
		defer mu.Unlock()
		drops[reason] += n
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	for _, batch := range [][]domain.NotificationEvent{floodEvents(3, 0), floodEvents(0, 2)} {
		if err := b.Publish(t.Context(), batch); err != nil {
			t.Fatal(err)
		}
	}
	calls := map[domain.NotificationKind]int{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = b.Consume(ctx, func(_ context.Context, events []domain.NotificationEvent) error {
			k := events[0].Kind
			mu.Lock()
			calls[k]++
			n := calls[k]
			mu.Unlock()
			if k == domain.NotifyBlogLiked || n == 1 {
				return fmt.Errorf("failure %d", n)
			}
			if n == 2 {
				cancel()
			}
			return nil
		})
	}()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if calls[domain.NotifyBlogLiked] != 3 || calls[domain.NotifyFollowed] != 2 || drops[notifyqueue.ReasonWriteFailed] != 3 {
		t.Fatalf("handed the likes %d times, the follows %d times; drops %v; want 3, 2 and the 3 likes dropped",
			calls[domain.NotifyBlogLiked], calls[domain.NotifyFollowed], drops)
	}
}
