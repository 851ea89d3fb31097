package metrics

import (
	"database/sql"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	goredis "github.com/redis/go-redis/v9"
)

// RegisterDBStats registers the database pool's statistics (go_sql_… with
// db_name=name: open, in use and idle connections, waits and their duration, closes).
func RegisterDBStats(reg prometheus.Registerer, db *sql.DB, name string) error {
	return reg.Register(collectors.NewDBStatsCollector(db, name))
}

// RedisPoolCollector reports a go-redis client's connection pool at scrape time.
type RedisPoolCollector struct {
	stats                         func() *goredis.PoolStats
	hits, misses, timeouts, stale *prometheus.Desc
	total, idle                   *prometheus.Desc
}

// RegisterRedisPool registers the statistics of the pool stats reads (a client's
// PoolStats method), labelled pool=name.
func RegisterRedisPool(reg prometheus.Registerer, name string, stats func() *goredis.PoolStats) error {
	l := prometheus.Labels{"pool": name}
	desc := func(metric, help string) *prometheus.Desc { return prometheus.NewDesc(metric, help, nil, l) }
	return reg.Register(&RedisPoolCollector{
		stats:    stats,
		hits:     desc("dealspot_redis_pool_hits_total", "Times a free connection was found in the Redis pool."),
		misses:   desc("dealspot_redis_pool_misses_total", "Times no free connection was found in the Redis pool (a new one was dialled or awaited)."),
		timeouts: desc("dealspot_redis_pool_timeouts_total", "Times a wait for a Redis pool connection timed out."),
		stale:    desc("dealspot_redis_pool_stale_connections_total", "Stale connections removed from the Redis pool."),
		total:    desc("dealspot_redis_pool_connections", "Connections in the Redis pool, in use or idle."),
		idle:     desc("dealspot_redis_pool_idle_connections", "Idle connections in the Redis pool."),
	})
}

// Describe implements prometheus.Collector.
func (c *RedisPoolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.hits, c.misses, c.timeouts, c.stale, c.total, c.idle} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *RedisPoolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.stats()
	if s == nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(c.hits, prometheus.CounterValue, float64(s.Hits))
	ch <- prometheus.MustNewConstMetric(c.misses, prometheus.CounterValue, float64(s.Misses))
	ch <- prometheus.MustNewConstMetric(c.timeouts, prometheus.CounterValue, float64(s.Timeouts))
	ch <- prometheus.MustNewConstMetric(c.stale, prometheus.CounterValue, float64(s.StaleConns))
	ch <- prometheus.MustNewConstMetric(c.total, prometheus.GaugeValue, float64(s.TotalConns))
	ch <- prometheus.MustNewConstMetric(c.idle, prometheus.GaugeValue, float64(s.IdleConns))
}
