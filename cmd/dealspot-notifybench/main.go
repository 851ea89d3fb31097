// Command dealspot-notifybench measures what a flood of likes of one note costs the
// notification inbox: how many notification rows are written, and how many pushes
// (PUBLISHes of notifications:changed) are sent, per like.
//
//	dealspot-notifybench -server 'postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable'
//	dealspot-notifybench -likes 10000 -spread 1m      10,000 likes of distinct users over a minute
//	dealspot-notifybench -spread 0                    all at once
//	dealspot-notifybench -sqlite                      the same on a SQLite file
//
// It makes a fresh database (dropped at the end unless -keep) and migrates it, then
// reports -likes BLOG_LIKED events of distinct users on one note, evenly over -spread,
// through the node's notification buffer (adapters/queue/notifyqueue, as the likeBlog use
// case does) into the inbox's writer (internal/app/inbox) on the store
// (adapters/entstore). The pushes are counted by a bus that publishes nothing. It
// reports the writer's batches, the notification rows inserted and updated, the actor
// rows inserted, the pushes, each per like, and the time the last like took to be
// written.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/adapters/queue/notifyqueue"
	"github.com/dealspot/dealspot/internal/app/inbox"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

type options struct {
	server string
	sqlite bool
	likes  int
	spread time.Duration
	batch  int
	keep   bool
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "dealspot-notifybench:", err)
		}
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	var o options
	fs := flag.NewFlagSet("dealspot-notifybench", flag.ContinueOnError)
	fs.StringVar(&o.server, "server", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable",
		"a PostgreSQL server on which a database may be created (and dropped)")
	fs.BoolVar(&o.sqlite, "sqlite", false, "measure SQLite (a file in a temporary directory) instead of PostgreSQL")
	fs.IntVar(&o.likes, "likes", 10_000, "likes of the note, each by another user")
	fs.DurationVar(&o.spread, "spread", time.Minute, "how long the likes are spread over, evenly (0: all at once)")
	fs.IntVar(&o.batch, "batch", 1000, "most events the buffer hands the writer at once (the server's is 1000)")
	fs.BoolVar(&o.keep, "keep", false, "keep the database")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.likes <= 0 || o.batch <= 0 || o.spread < 0 {
		return errors.New("-likes and -batch must be positive, -spread not negative")
	}
	ctx := context.Background()
	s, closeStore, err := open(ctx, o)
	if err != nil {
		return err
	}
	defer closeStore()

	store := &countingStore{Store: entstore.NewNotifications(s)}
	bus := &countingBus{}
	svc, err := inbox.New(inbox.Config{Keep: 500, Pages: domain.PageLimits{Default: 10, Max: 50}}, inbox.Deps{
		Store: store, Bus: bus, Blogs: nothing{}, Users: nothing{}, Orders: nothing{}, Audience: nothing{}, Sales: nothing{},
		Log: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		return err
	}
	var batches, written atomic.Int64
	handle := func(ctx context.Context, events []domain.NotificationEvent) error {
		if err := svc.Writer.Handle(ctx, events); err != nil {
			return err
		}
		batches.Add(1)
		written.Add(int64(len(events)))
		return nil
	}
	buf := notifyqueue.New(notifyqueue.Config{Capacity: o.likes, MaxBatch: o.batch}, slog.New(slog.DiscardHandler))
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { buf.Run(runCtx, handle) })

	const author, blogID = 1, 1
	start := time.Now()
	for i := range o.likes {
		if o.spread > 0 {
			if wait := time.Until(start.Add(o.spread * time.Duration(i) / time.Duration(o.likes))); wait > 0 {
				time.Sleep(wait)
			}
		}
		buf.Notify(ctx, domain.NotificationEvent{Kind: domain.NotifyBlogLiked, ActorID: int64(1_000_000 + i), RecipientID: author,
			BlogID: blogID, At: time.Now()})
	}
	reported := time.Since(start)
	for written.Load()+buf.Dropped() < int64(o.likes) {
		time.Sleep(time.Millisecond)
	}
	lag := time.Since(start) - reported
	stop()
	wg.Wait()

	var rows, actors int64
	db := s.DB()
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM notifications").Scan(&rows); err != nil {
		return err
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM notification_actors").Scan(&actors); err != nil {
		return err
	}
	var count int64
	if err := db.QueryRowContext(ctx, "SELECT actor_count FROM notifications WHERE user_id = 1 AND read_at IS NULL").Scan(&count); err != nil {
		return err
	}
	per := func(n int64) float64 { return float64(n) / float64(o.likes) }
	dbName := "PostgreSQL"
	if o.sqlite {
		dbName = "SQLite"
	}
	fmt.Fprintf(out, "%d likes of one note by distinct users over %s on %s (buffer batches of up to %d)\n", o.likes, o.spread, dbName, o.batch)
	fmt.Fprintf(out, "  dropped events:                 %d\n", buf.Dropped())
	fmt.Fprintf(out, "  writer batches:                 %d (%.1f likes each)\n", batches.Load(), float64(written.Load())/float64(max(1, batches.Load())))
	fmt.Fprintf(out, "  notification rows in the table: %d (one unread, counting %d)\n", rows, count)
	fmt.Fprintf(out, "  notification row writes:        %d (%d inserted, %d updated) = %.4f per like\n",
		store.inserts.Load()+store.updates.Load(), store.inserts.Load(), store.updates.Load(), per(store.inserts.Load()+store.updates.Load()))
	fmt.Fprintf(out, "  actor rows inserted:            %d = %.4f per like\n", actors, per(actors))
	fmt.Fprintf(out, "  pushes (PUBLISH):               %d = %.4f per like\n", bus.publishes.Load(), per(bus.publishes.Load()))
	fmt.Fprintf(out, "  last like written after:        %s past the last report\n", lag.Round(time.Millisecond))
	return nil
}

// open makes a fresh, migrated database.
func open(ctx context.Context, o options) (*entstore.Store, func(), error) {
	var (
		dbURL string
		drop  func()
	)
	if o.sqlite {
		dir, err := os.MkdirTemp("", "dealspot-notifybench-")
		if err != nil {
			return nil, nil, err
		}
		dbURL = "sqlite://" + filepath.ToSlash(filepath.Join(dir, "inbox.db"))
		drop = func() {
			if !o.keep {
				_ = os.RemoveAll(dir)
			}
		}
	} else {
		admin, err := sql.Open("postgres", o.server)
		if err != nil {
			return nil, nil, err
		}
		name := fmt.Sprintf("dealspot_notifybench_%d", time.Now().UnixNano())
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
			_ = admin.Close()
			return nil, nil, fmt.Errorf("create database: %w", err)
		}
		u, err := url.Parse(o.server)
		if err != nil {
			return nil, nil, err
		}
		u.Path = "/" + name
		dbURL = u.String()
		drop = func() {
			if !o.keep {
				_, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			}
			_ = admin.Close()
		}
	}
	s, err := entstore.Open(ctx, dbURL, entstore.MaxConns(8))
	if err != nil {
		drop()
		return nil, nil, err
	}
	if err := s.Migrations().Migrate(ctx); err != nil {
		_ = s.Close()
		drop()
		return nil, nil, fmt.Errorf("migrate: %w", err)
	}
	return s, func() { _ = s.Close(); drop() }, nil
}

// countingStore counts the notification rows Add inserts and updates.
type countingStore struct {
	inbox.Store
	inserts, updates atomic.Int64
}

func (c *countingStore) Add(ctx context.Context, a inbox.Addition) (domain.Notification, bool, error) {
	n, changed, err := c.Store.Add(ctx, a)
	if err == nil && changed {
		if n.ActorCount == len(a.Actors) && n.CreatedAt.Equal(n.UpdatedAt) {
			c.inserts.Add(1)
		} else {
			c.updates.Add(1)
		}
	}
	return n, changed, err
}

// countingBus counts the pushes and sends none.
type countingBus struct{ publishes atomic.Int64 }

func (b *countingBus) Publish(context.Context, ...int64) error { b.publishes.Add(1); return nil }
func (b *countingBus) Subscribe(context.Context, int64) (<-chan struct{}, func(), error) {
	return nil, nil, errors.New("not subscribed in the bench")
}

// nothing answers the look-ups likes do not need.
type nothing struct{}

func (nothing) BlogViews(context.Context, int64, []int64) ([]notes.BlogView, error) { return nil, nil }
func (nothing) UsersByIDs(context.Context, []int64) ([]domain.User, error)          { return nil, nil }
func (nothing) OrdersByIDs(context.Context, []int64) ([]domain.VoucherOrder, error) { return nil, nil }
func (nothing) FollowerIDs(context.Context, int64, int64, int) ([]int64, error)     { return nil, nil }
func (nothing) Fans(context.Context, int64, int64, int) ([]int64, error)            { return nil, nil }
func (nothing) VouchersByIDs(context.Context, []int64) ([]domain.Voucher, error)    { return nil, nil }
func (nothing) ShopsByIDs(context.Context, []int64) ([]domain.Shop, error)          { return nil, nil }
