package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dealspot/dealspot/adapters/metrics"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/regen"
	"github.com/dealspot/dealspot/internal/config"
)

// claimGeneration sets up the watcher of Redis's generation marker and makes sure the
// marker exists. It runs before New builds the derived structures (nearby index, follow
// mirror, flash sales), so a wipe during the build shows at the first check.
func (s *Node) claimGeneration(ctx context.Context) error {
	obs, err := metrics.NewRegenMetrics(s.Metrics.Registry)
	if err != nil {
		return err
	}
	s.Regen, err = regen.New(redisadapter.NewGenerationMarker(s.Redis.Client), regen.Config{
		Interval: s.Config.RedisGenerationCheck,
		Log:      s.Log,
		Observer: obs,
	})
	if err != nil {
		return err
	}
	gen, err := s.Regen.Start(ctx)
	if err != nil {
		return err
	}
	s.Log.Debug("redis generation", slog.String("generation", gen[:min(8, len(gen))]))
	return nil
}

// watchGeneration registers the rebuilders of what Redis derives from the database and,
// unless REDIS_GENERATION_CHECK_INTERVAL is 0, checks the marker until Close. Other parts
// of the service register their own rebuilders on s.Regen before this runs.
//
// Rebuilt eagerly here: the nearby index (one pass over the shops), the follow mirror
// (one pass over the follows) and the live flash sales (LoadSales leaves loaded sales
// alone and reloads lost ones from the database). Feed inboxes are refilled lazily, per
// user at their next feed read (see follows.FeedQueries.Page): an eager pass would read every
// user's followed authors at once, mostly for users who are not reading.
func (s *Node) watchGeneration() {
	s.Regen.Register("nearby_index", func(ctx context.Context) error {
		_, err := s.Ops.Shops.RebuildNearbyIndex(ctx)
		return err
	})
	s.Regen.Register("follow_mirror", func(ctx context.Context) error {
		_, err := s.Ops.FollowMirror.RebuildFollows(ctx)
		return err
	})
	s.Regen.Register("flash_sales", func(ctx context.Context) error {
		if _, err := s.Ops.Reconciler.LoadSales(ctx); err != nil {
			return err
		}
		// Then the claims this node accepted whose reservations went with Redis: put
		// back into the reloaded sales (still queued), or recorded LOST (QUEUE=redis).
		_, err := s.Ops.AcceptedClaims.RedisCameBackEmpty(ctx)
		return err
	})
	if s.Config.RedisGenerationCheck <= 0 {
		s.Log.Warn("REDIS_GENERATION_CHECK_INTERVAL=0: a Redis that comes back empty is repaired only by a restart")
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Regen.Run(ctx)
	}()
	s.closers = append(s.closers, func() error { cancel(); <-done; return nil })
}

// persistenceTimeout bounds the start-up read of Redis's persistence settings.
const persistenceTimeout = 2 * time.Second

// checkPersistence logs, once at start, what a Redis restart would cost with the
// configured Redis's persistence. In production it refuses QUEUE=redis on a Redis
// without AOF (on a cluster, any master without it), or one whose persistence cannot be
// read, unless ALLOW_VOLATILE_QUEUE accepts the loss; that is then logged at WARN.
func (s *Node) checkPersistence(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, persistenceTimeout)
	defer cancel()
	if s.Config.Queue == config.QueueRedis && s.Config.IsProduction() {
		p, err := s.Redis.Persistence(ctx)
		switch {
		case err == nil && p.AOF:
		case s.Config.AllowVolatileQueue:
			s.Log.Warn("ALLOW_VOLATILE_QUEUE=true: QUEUE=redis runs on a Redis without AOF; a Redis restart loses the claims accepted but not yet written (they end FAILED with reason LOST); set appendonly yes on every master")
		case err != nil:
			return fmt.Errorf("QUEUE=redis: cannot read Redis's persistence to check that accepted claims survive a restart (%w); production needs appendonly yes, or ALLOW_VOLATILE_QUEUE=true to accept the loss", err)
		default:
			return errors.New("QUEUE=redis: Redis reports no AOF (aof_enabled:0 on at least one master), so a Redis restart loses every claim accepted but not yet written; production needs appendonly yes on every master, another QUEUE, or ALLOW_VOLATILE_QUEUE=true to accept the loss")
		}
	}
	switch note, serious := s.persistenceNote(ctx); {
	case note == "":
	case serious:
		s.Log.Warn(note)
	default:
		s.Log.Info(note)
	}
	return nil
}

// persistenceWarning is /readyz's note on Redis persistence; "" when there is nothing
// to say.
func (s *Node) persistenceWarning(ctx context.Context) string {
	note, _ := s.persistenceNote(ctx)
	return note
}

// persistenceNote says what the configured Redis loses on a restart, and whether that
// loses accepted claims (serious) or only costs rebuilding from the database.
func (s *Node) persistenceNote(ctx context.Context) (note string, serious bool) {
	p, err := s.Redis.Persistence(ctx)
	if err != nil {
		return "", false // /readyz's redis check reports an unreachable Redis
	}
	onlyCopy := s.Config.Queue == config.QueueRedis
	switch {
	case p.Embedded:
		return "the embedded Redis keeps nothing on disk: it is for development", false
	case p.AOF && p.AppendFsync == "no":
		if onlyCopy {
			return "redis AOF has appendfsync no: with QUEUE=redis, claims answered PENDING in the last ~30 s are lost if the Redis host crashes; set appendfsync everysec (or always)", true
		}
		return "", false
	case p.AOF:
		return "", false
	case onlyCopy && p.Snapshots:
		return "redis has RDB snapshots but no AOF while QUEUE=redis keeps the only copy of accepted claims: claims answered PENDING since the last snapshot are lost if Redis restarts; set appendonly yes (see README, Redis persistence in production)", true
	case onlyCopy:
		return "redis has no persistence (no AOF, no snapshots known) while QUEUE=redis keeps the only copy of accepted claims: claims answered PENDING are lost if Redis restarts; set appendonly yes (see README, Redis persistence in production)", true
	case p.SnapshotsKnown && !p.Snapshots:
		return "redis has no persistence: a restart empties it; accepted claims survive in the queue and what Redis derives from the database (sales, follows, the nearby index, feeds) is rebuilt, but rate limits and visitor counts start over", false
	}
	return "", false
}
