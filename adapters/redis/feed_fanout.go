package redis

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/social/follows"
)

// FanoutConfig tunes the fan-out stream. Zero values take the defaults.
type FanoutConfig struct {
	// Stream is the stream key (default feed:fanout).
	Stream string
	// Group is the consumer group every node reads in (default feed-fanout).
	Group string
	// Block is how long one read waits for new jobs (default 500ms); it also bounds how
	// long Consume takes to notice its context ending.
	Block time.Duration
	// ClaimIdle is how long a delivered job may stay unacknowledged before another
	// consumer takes it over (default 30s).
	ClaimIdle time.Duration
	// MaxDeliveries is the most times a job is delivered (run): one still unacknowledged
	// after that many is dropped (default 10).
	MaxDeliveries int64
	// MaxLen keeps the stream about this long (default 100000).
	MaxLen int64
}

// FanoutStream is the fan-out queue on a Redis stream with one consumer group shared by
// every node: a job goes to one node, is acknowledged after it was handled, and is taken
// over by another node when its consumer died with it (at least once).
type FanoutStream struct {
	client   goredis.UniversalClient
	cfg      FanoutConfig
	consumer string
	log      *slog.Logger
}

var _ follows.FanoutQueue = (*FanoutStream)(nil)

// NewFanoutStream returns the fan-out queue on client.
func NewFanoutStream(client goredis.UniversalClient, cfg FanoutConfig, log *slog.Logger) *FanoutStream {
	if cfg.Stream == "" {
		cfg.Stream = "feed:fanout"
	}
	if cfg.Group == "" {
		cfg.Group = "feed-fanout"
	}
	if cfg.Block <= 0 {
		cfg.Block = 500 * time.Millisecond
	}
	if cfg.ClaimIdle <= 0 {
		cfg.ClaimIdle = 30 * time.Second
	}
	if cfg.MaxDeliveries <= 0 {
		cfg.MaxDeliveries = 10
	}
	if cfg.MaxLen <= 0 {
		cfg.MaxLen = 100_000
	}
	if log == nil {
		log = slog.Default()
	}
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	consumer := fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
	return &FanoutStream{client: client, cfg: cfg, consumer: consumer, log: log}
}

// Enqueue implements follows.FanoutQueue.
func (f *FanoutStream) Enqueue(ctx context.Context, job follows.FanoutJob) error {
	err := f.client.XAdd(ctx, &goredis.XAddArgs{
		Stream: f.cfg.Stream,
		MaxLen: f.cfg.MaxLen,
		Approx: true,
		Values: []any{"blog", job.BlogID, "author", job.AuthorID, "at", job.At.UnixMilli()},
	}).Err()
	if err != nil {
		return fmt.Errorf("queue fan-out of blog %d: %w", job.BlogID, err)
	}
	return nil
}

// Consume implements follows.FanoutQueue. It returns nil when ctx ends.
func (f *FanoutStream) Consume(ctx context.Context, handle func(ctx context.Context, job follows.FanoutJob) error) error {
	if err := f.ensureGroup(ctx); err != nil {
		return err
	}
	nextClaim := time.Now()
	for ctx.Err() == nil {
		if time.Now().After(nextClaim) {
			f.takeOver(ctx, handle)
			nextClaim = time.Now().Add(f.cfg.ClaimIdle / 3)
		}
		streams, err := f.client.XReadGroup(ctx, &goredis.XReadGroupArgs{
			Group: f.cfg.Group, Consumer: f.consumer,
			Streams: []string{f.cfg.Stream, ">"},
			Count:   16, Block: f.cfg.Block,
		}).Result()
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, goredis.Nil):
			continue
		case err != nil && strings.HasPrefix(err.Error(), "NOGROUP"):
			// Redis lost the stream (restarted without persistence): start again.
			if err := f.ensureGroup(ctx); err != nil {
				f.log.Warn("cannot recreate the fan-out consumer group", slog.Any("error", err))
				f.pause(ctx)
			}
			continue
		case err != nil:
			f.log.Warn("cannot read fan-out jobs", slog.Any("error", err))
			f.pause(ctx)
			continue
		}
		for _, s := range streams {
			for _, m := range s.Messages {
				f.handle(ctx, m, handle)
			}
		}
	}
	return nil
}

// ensureGroup creates the consumer group, reading from the stream's start so jobs
// queued before any node consumed are not lost.
func (f *FanoutStream) ensureGroup(ctx context.Context) error {
	err := f.client.XGroupCreateMkStream(ctx, f.cfg.Stream, f.cfg.Group, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return fmt.Errorf("create fan-out consumer group: %w", err)
	}
	return nil
}

func (f *FanoutStream) pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

var (
	//go:embed lua/feed_fanout_takeover.lua
	fanoutTakeOverLua    string
	fanoutTakeOverScript = goredis.NewScript(fanoutTakeOverLua)
)

// takeOverBatch is the most stalled jobs one take-over pass looks at.
const takeOverBatch = 100

// takeOver handles jobs consumers left unacknowledged for ClaimIdle, dropping those
// delivered MaxDeliveries times. One script decides and claims, so a job never becomes
// idle between the check of its deliveries and its claim (it would run once more than
// allowed), and two nodes never take over the same job at once.
func (f *FanoutStream) takeOver(ctx context.Context, handle func(ctx context.Context, job follows.FanoutJob) error) {
	res, err := fanoutTakeOverScript.Run(ctx, f.client, []string{f.cfg.Stream},
		f.cfg.Group, f.consumer, millis(f.cfg.ClaimIdle), f.cfg.MaxDeliveries, takeOverBatch).Slice()
	if err != nil {
		if ctx.Err() == nil && !strings.Contains(err.Error(), "NOGROUP") {
			f.log.Warn("cannot take over stalled fan-out jobs", slog.Any("error", err))
		}
		return
	}
	claimed, dropped, err := parseTakeOver(res)
	if err != nil {
		f.log.Warn("cannot read the stalled fan-out jobs taken over", slog.Any("error", err))
		return
	}
	for _, d := range dropped {
		f.log.Error("dropping a fan-out job that keeps failing", slog.String("message_id", d.id), slog.Int64("deliveries", d.deliveries))
	}
	for _, m := range claimed {
		f.handle(ctx, m, handle)
	}
}

// droppedJob is a job the take-over script acknowledged unrun.
type droppedJob struct {
	id         string
	deliveries int64
}

// parseTakeOver reads the take-over script's reply: {claimed, dropped}, claimed as
// XCLAIM replies, dropped as id, deliveries pairs.
func parseTakeOver(res []any) ([]goredis.XMessage, []droppedJob, error) {
	if len(res) != 2 {
		return nil, nil, fmt.Errorf("take-over reply has %d parts, want 2", len(res))
	}
	claimedRaw, _ := res[0].([]any)
	droppedRaw, _ := res[1].([]any)
	var claimed []goredis.XMessage
	for _, c := range claimedRaw {
		entry, ok := c.([]any)
		if !ok || len(entry) != 2 {
			continue // an entry trimmed from the stream (nil on Redis before 7)
		}
		id, _ := entry[0].(string)
		fields, _ := entry[1].([]any)
		values := make(map[string]any, len(fields)/2)
		for i := 0; i+1 < len(fields); i += 2 {
			k, _ := fields[i].(string)
			values[k] = fields[i+1]
		}
		claimed = append(claimed, goredis.XMessage{ID: id, Values: values})
	}
	var dropped []droppedJob
	for i := 0; i+1 < len(droppedRaw); i += 2 {
		id, _ := droppedRaw[i].(string)
		n, _ := droppedRaw[i+1].(int64)
		dropped = append(dropped, droppedJob{id: id, deliveries: n})
	}
	return claimed, dropped, nil
}

// handle runs one job and acknowledges it when it succeeded (or can never succeed).
func (f *FanoutStream) handle(ctx context.Context, m goredis.XMessage, handle func(ctx context.Context, job follows.FanoutJob) error) {
	job, err := parseFanoutJob(m.Values)
	if err != nil {
		f.log.Error("dropping a malformed fan-out job", slog.String("message_id", m.ID), slog.Any("error", err))
	} else if err := handle(ctx, job); err != nil {
		// Left unacknowledged: this or another node takes it over after ClaimIdle.
		f.log.Warn("fan-out job failed; it will be retried", slog.String("message_id", m.ID), slog.Int64("blog_id", job.BlogID), slog.Any("error", err))
		return
	}
	if err := f.client.XAck(ctx, f.cfg.Stream, f.cfg.Group, m.ID).Err(); err != nil {
		f.log.Warn("cannot acknowledge fan-out job; it may run again", slog.String("message_id", m.ID), slog.Any("error", err))
	}
}

func parseFanoutJob(values map[string]any) (follows.FanoutJob, error) {
	num := func(k string) (int64, error) {
		s, _ := values[k].(string)
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("field %s: %q is not a positive number", k, s)
		}
		return n, nil
	}
	blog, err1 := num("blog")
	author, err2 := num("author")
	at, err3 := num("at")
	if err := errors.Join(err1, err2, err3); err != nil {
		return follows.FanoutJob{}, err
	}
	return follows.FanoutJob{BlogID: blog, AuthorID: author, At: time.UnixMilli(at)}, nil
}
