package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/config"
)

// persistenceTimeout bounds the start-up read of Redis's persistence settings.
const persistenceTimeout = 2 * time.Second

// redisPersistence judges the configured Redis's persistence against the queue: what a
// Redis restart would lose.
type redisPersistence struct {
	redis *redisadapter.Conn
	// queue is QUEUE: with QUEUE=redis, Redis keeps the only copy of accepted claims.
	queue      string
	production bool
	// allowVolatile is ALLOW_VOLATILE_QUEUE.
	allowVolatile bool
	log           *slog.Logger
}

// newRedisPersistence is the judge of rc's persistence under cfg's queue.
func newRedisPersistence(rc *redisadapter.Conn, cfg config.Config, log *slog.Logger) redisPersistence {
	return redisPersistence{redis: rc, queue: cfg.Queue, production: cfg.IsProduction(), allowVolatile: cfg.AllowVolatileQueue, log: log}
}

// check logs, once at start, what a Redis restart would cost with the
// configured Redis's persistence. In production it refuses QUEUE=redis on a Redis
// without AOF (on a cluster, any master without it), or one whose persistence cannot be
// read, unless ALLOW_VOLATILE_QUEUE accepts the loss; that is then logged at WARN.
func (p redisPersistence) check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, persistenceTimeout)
	defer cancel()
	if p.queue == config.QueueRedis && p.production {
		st, err := p.redis.Persistence(ctx)
		switch {
		case err == nil && st.AOF:
		case p.allowVolatile:
			p.log.Warn("ALLOW_VOLATILE_QUEUE=true: QUEUE=redis runs on a Redis without AOF; a Redis restart loses the claims accepted but not yet written (they end FAILED with reason LOST); set appendonly yes on every master")
		case err != nil:
			return fmt.Errorf("QUEUE=redis: cannot read Redis's persistence to check that accepted claims survive a restart (%w); production needs appendonly yes, or ALLOW_VOLATILE_QUEUE=true to accept the loss", err)
		default:
			return errors.New("QUEUE=redis: Redis reports no AOF (aof_enabled:0 on at least one master), so a Redis restart loses every claim accepted but not yet written; production needs appendonly yes on every master, another QUEUE, or ALLOW_VOLATILE_QUEUE=true to accept the loss")
		}
	}
	switch note, serious := p.note(ctx); {
	case note == "":
	case serious:
		p.log.Warn(note)
	default:
		p.log.Info(note)
	}
	return nil
}

// warning is /readyz's note on Redis persistence; "" when there is nothing to say.
func (p redisPersistence) warning(ctx context.Context) string {
	note, _ := p.note(ctx)
	return note
}

// note says what the configured Redis loses on a restart, and whether that
// loses accepted claims (serious) or only costs rebuilding from the database.
func (p redisPersistence) note(ctx context.Context) (note string, serious bool) {
	st, err := p.redis.Persistence(ctx)
	if err != nil {
		return "", false // /readyz's redis check reports an unreachable Redis
	}
	onlyCopy := p.queue == config.QueueRedis
	switch {
	case st.Embedded:
		return "the embedded Redis keeps nothing on disk: it is for development", false
	case st.AOF && st.AppendFsync == "no":
		if onlyCopy {
			return "redis AOF has appendfsync no: with QUEUE=redis, claims answered PENDING in the last ~30 s are lost if the Redis host crashes; set appendfsync everysec (or always)", true
		}
		return "", false
	case st.AOF:
		return "", false
	case onlyCopy && st.Snapshots:
		return "redis has RDB snapshots but no AOF while QUEUE=redis keeps the only copy of accepted claims: claims answered PENDING since the last snapshot are lost if Redis restarts; set appendonly yes (see README, Redis persistence in production)", true
	case onlyCopy:
		return "redis has no persistence (no AOF, no snapshots known) while QUEUE=redis keeps the only copy of accepted claims: claims answered PENDING are lost if Redis restarts; set appendonly yes (see README, Redis persistence in production)", true
	case st.SnapshotsKnown && !st.Snapshots:
		return "redis has no persistence: a restart empties it; accepted claims survive in the queue and what Redis derives from the database (sales, follows, the nearby index, feeds) is rebuilt, but rate limits and visitor counts start over", false
	}
	return "", false
}
