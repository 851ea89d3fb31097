package metrics

import "github.com/prometheus/client_golang/prometheus"

// NewNotificationDrops registers dealspot_notification_events_dropped_total{reason} with
// reg and returns the function that counts drops.
func NewNotificationDrops(reg prometheus.Registerer) (func(reason string, events int), error) {
	c, err := register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "dealspot_notification_events_dropped_total",
		Help: "Notification events given up on, by reason: buffer_full (the node's publish buffer was full), closed (reported while the node stopped), publish_failed (the queue refused them, retries included), write_failed (the inbox's writer kept failing), malformed (a message that is not a batch of events).",
	}, []string{"reason"}))
	if err != nil {
		return nil, err
	}
	for _, r := range []string{"buffer_full", "closed", "publish_failed", "write_failed", "malformed"} {
		c.WithLabelValues(r) // every series exists from the start, at 0
	}
	return func(reason string, events int) { c.WithLabelValues(reason).Add(float64(events)) }, nil
}
