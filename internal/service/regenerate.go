package service

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/adapters/metrics"
	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/app/regen"
)

// generationWatch watches Redis's generation marker and, when Redis comes back empty,
// rebuilds what Redis derives from the database.
type generationWatch struct {
	regen *regen.Watcher
	// interval is REDIS_GENERATION_CHECK_INTERVAL (0: no checks).
	interval time.Duration
	log      *slog.Logger
}

// claimGeneration sets up the watcher of Redis's generation marker and makes sure the
// marker exists. It runs before New builds the derived structures (nearby index, follow
// mirror, flash sales), so a wipe during the build shows at the first check.
func claimGeneration(ctx context.Context, reg prometheus.Registerer, rc *redisadapter.Conn, interval time.Duration,
	log *slog.Logger) (*generationWatch, error) {
	obs, err := metrics.NewRegenMetrics(reg)
	if err != nil {
		return nil, err
	}
	w, err := regen.New(redisadapter.NewGenerationMarker(rc.Client), regen.Config{
		Interval: interval,
		Log:      log,
		Observer: obs,
	})
	if err != nil {
		return nil, err
	}
	gen, err := w.Start(ctx)
	if err != nil {
		return nil, err
	}
	log.Debug("redis generation", slog.String("generation", gen[:min(8, len(gen))]))
	return &generationWatch{regen: w, interval: interval, log: log}, nil
}

// watch registers the rebuilders of what Redis derives from the database and, unless
// REDIS_GENERATION_CHECK_INTERVAL is 0, checks the marker until stop is called. Other
// parts of the service register their own rebuilders on the watcher (Node.Regen) before
// this runs.
//
// Rebuilt eagerly here: the nearby index (one pass over the shops), the follow mirror
// (one pass over the follows) and the live flash sales (LoadSales leaves loaded sales
// alone and reloads lost ones from the database). Feed inboxes are refilled lazily, per
// user at their next feed read (see follows.FeedQueries.Page): an eager pass would read every
// user's followed authors at once, mostly for users who are not reading.
func (g *generationWatch) watch(ops *app.Operations) (stop func() error) {
	g.regen.Register("nearby_index", func(ctx context.Context) error {
		_, err := ops.Shops.RebuildNearbyIndex(ctx)
		return err
	})
	g.regen.Register("follow_mirror", func(ctx context.Context) error {
		_, err := ops.FollowMirror.RebuildFollows(ctx)
		return err
	})
	g.regen.Register("flash_sales", func(ctx context.Context) error {
		if _, err := ops.Reconciler.LoadSales(ctx); err != nil {
			return err
		}
		// Then the claims this node accepted whose reservations went with Redis: put
		// back into the reloaded sales (still queued), or recorded LOST (QUEUE=redis).
		_, err := ops.AcceptedClaims.RedisCameBackEmpty(ctx)
		return err
	})
	if g.interval <= 0 {
		g.log.Warn("REDIS_GENERATION_CHECK_INTERVAL=0: a Redis that comes back empty is repaired only by a restart")
		return nothingToStop
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		g.regen.Run(ctx)
	}()
	return func() error { cancel(); <-done; return nil }
}
