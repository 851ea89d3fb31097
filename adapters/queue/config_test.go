package queue_test

import (
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue"
)

func TestConfigDefaultsAndValidation(t *testing.T) {
	t.Parallel()
	c := queue.Config{}.WithDefaults()
	if c.Backend != queue.BackendMemory || c.Shards != 16 || c.Group != "dealspot-orders" ||
		c.BatchSize != 256 || c.BatchWait != 5*time.Millisecond || c.MaxRetries != 5 || c.Consumers != 1 {
		t.Fatalf("defaults = %+v", c)
	}
	if got := (queue.Config{Backend: queue.BackendAMQP}).WithDefaults().Consumers; got != queue.DefaultAMQPConsumers {
		t.Fatalf("amqp consumers default = %d, want %d", got, queue.DefaultAMQPConsumers)
	}
	for name, cfg := range map[string]queue.Config{
		"unknown backend":  {Backend: "nats"},
		"kafka no brokers": {Backend: queue.BackendKafka},
		"amqp no url":      {Backend: queue.BackendAMQP},
	} {
		if err := cfg.WithDefaults().Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, cfg)
		}
	}
}
