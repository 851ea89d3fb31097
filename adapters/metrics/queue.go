package metrics

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// QueueDepth is what one order queue holds (see queue.Depth): Waiting messages not yet
// acknowledged, InFlight of them delivered (-1: the backend does not say).
type QueueDepth struct {
	Queue    string
	Waiting  int64
	InFlight int64
}

// QueueSource is what the queue collector reads at scrape time.
type QueueSource struct {
	// Backend labels every series (memory, redis, kafka, amqp).
	Backend string
	// Depth reads the queues' depths; DeadLetters counts the messages this process moved
	// to the dead-letter topic.
	Depth       func(ctx context.Context) ([]QueueDepth, error)
	DeadLetters func() uint64
	// AbandonedBatches counts the order batches whose handler did not return within
	// twice ORDER_WRITE_TIMEOUT and were answered with an error instead.
	AbandonedBatches func() uint64
}

// queueDepthTimeout bounds one read of the queues' depths; queueDepthMaxAge is how long
// a read is served again, so that several scrapers cost one read.
const (
	queueDepthTimeout = 2 * time.Second
	queueDepthMaxAge  = time.Second
)

// QueueCollector reads the order queues' depths when scraped, at most once per
// queueDepthMaxAge and for at most queueDepthTimeout.
type QueueCollector struct {
	src                       QueueSource
	depth, inFlight, deadDesc *prometheus.Desc
	abandonedDesc             *prometheus.Desc
	readErrors                prometheus.Counter
	mu                        sync.Mutex
	last                      []QueueDepth
	lastRead                  time.Time
}

// NewQueueCollector registers the queue's gauges with reg.
func NewQueueCollector(reg prometheus.Registerer, src QueueSource) (*QueueCollector, error) {
	c := &QueueCollector{
		src: src,
		depth: prometheus.NewDesc("dealspot_queue_depth",
			"Order messages not yet acknowledged, per queue, read at scrape time (redis: stream length, in flight included; amqp: ready messages; memory: messages held while nobody subscribes; kafka: the consumer group's lag on the orders topic).",
			[]string{"queue"}, prometheus.Labels{"backend": src.Backend}),
		inFlight: prometheus.NewDesc("dealspot_queue_in_flight",
			"Order messages delivered to a consumer and not yet acknowledged, per queue (redis: the consumer group's pending entries; other backends: not reported).",
			[]string{"queue"}, prometheus.Labels{"backend": src.Backend}),
		deadDesc: prometheus.NewDesc("dealspot_queue_dead_letters_total",
			"Order messages this process moved to the dead-letter topic after they kept failing.",
			nil, prometheus.Labels{"backend": src.Backend}),
		abandonedDesc: prometheus.NewDesc("dealspot_order_batches_abandoned_total",
			"Order batches whose writer did not return within twice ORDER_WRITE_TIMEOUT; their claims were answered with an error and retried.",
			nil, prometheus.Labels{"backend": src.Backend}),
	}
	var err error
	if c.readErrors, err = register(reg, prometheus.NewCounter(prometheus.CounterOpts{
		Name: "dealspot_queue_depth_read_errors_total",
		Help: "Scrapes whose read of the order queues' depths failed (the depth series are then missing).",
	})); err != nil {
		return nil, err
	}
	if err := reg.Register(c); err != nil {
		return nil, err
	}
	return c, nil
}

// Describe implements prometheus.Collector.
func (c *QueueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.depth
	ch <- c.inFlight
	ch <- c.deadDesc
	ch <- c.abandonedDesc
}

// Collect implements prometheus.Collector.
func (c *QueueCollector) Collect(ch chan<- prometheus.Metric) {
	if c.src.DeadLetters != nil {
		ch <- prometheus.MustNewConstMetric(c.deadDesc, prometheus.CounterValue, float64(c.src.DeadLetters()))
	}
	if c.src.AbandonedBatches != nil {
		ch <- prometheus.MustNewConstMetric(c.abandonedDesc, prometheus.CounterValue, float64(c.src.AbandonedBatches()))
	}
	for _, d := range c.read() {
		ch <- prometheus.MustNewConstMetric(c.depth, prometheus.GaugeValue, float64(d.Waiting), d.Queue)
		if d.InFlight >= 0 {
			ch <- prometheus.MustNewConstMetric(c.inFlight, prometheus.GaugeValue, float64(d.InFlight), d.Queue)
		}
	}
}

func (c *QueueCollector) read() []QueueDepth {
	if c.src.Depth == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.lastRead.IsZero() && time.Since(c.lastRead) < queueDepthMaxAge {
		return c.last
	}
	ctx, cancel := context.WithTimeout(context.Background(), queueDepthTimeout)
	defer cancel()
	depths, err := c.src.Depth(ctx)
	c.lastRead = time.Now()
	if err != nil {
		c.readErrors.Inc()
		c.last = nil
		return nil
	}
	c.last = depths
	return depths
}
