package queue_test

import (
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/queue"
)

func TestConfigDefaultsAndValidation(t *testing.T) {
	t.Parallel()
	c := queue.Config{}.WithDefaults()
	if c.Backend != queue.BackendMemory || c.Group != "dealspot-orders" || c.Consumers != 1 {
		t.Fatalf("defaults = %+v", c)
	}
	if got := (queue.Config{Backend: queue.BackendAMQP}).WithDefaults().Consumers; got != queue.DefaultAMQPConsumers {
		t.Fatalf("amqp consumers default = %d, want %d", got, queue.DefaultAMQPConsumers)
	}
	if got := (queue.Config{ClaimIdle: 3 * time.Second}).WithDefaults().ClaimInterval; got != time.Second {
		t.Fatalf("claim interval default = %s, want a third of ClaimIdle", got)
	}
	// The settings the service configures, as it passes them; valid on every backend.
	set := func(backend string) queue.Config {
		return queue.Config{Backend: backend, Shards: 16, BatchSize: 256, BatchWait: 5 * time.Millisecond,
			Workers: 2, MaxRetries: 5, ClaimIdle: 5 * time.Second,
			KafkaBrokers: []string{"127.0.0.1:9092"}, AMQPURL: "amqp://127.0.0.1/"}
	}
	for _, backend := range []string{queue.BackendMemory, queue.BackendRedis, queue.BackendKafka, queue.BackendAMQP} {
		if err := set(backend).WithDefaults().Validate(); err != nil {
			t.Errorf("%s: Validate refused the service's settings: %v", backend, err)
		}
	}
	// Refused: a backend that cannot work, or a setting the service configures left
	// unset (no default stands in for those).
	for name, c := range map[string]struct {
		backend string
		unset   func(*queue.Config)
	}{
		"unknown backend":     {"nats", func(*queue.Config) {}},
		"kafka no brokers":    {queue.BackendKafka, func(c *queue.Config) { c.KafkaBrokers = nil }},
		"amqp no url":         {queue.BackendAMQP, func(c *queue.Config) { c.AMQPURL = "" }},
		"no batch size":       {queue.BackendMemory, func(c *queue.Config) { c.BatchSize = 0 }},
		"no batch wait":       {queue.BackendMemory, func(c *queue.Config) { c.BatchWait = 0 }},
		"no workers":          {queue.BackendMemory, func(c *queue.Config) { c.Workers = 0 }},
		"no max retries":      {queue.BackendMemory, func(c *queue.Config) { c.MaxRetries = 0 }},
		"redis no shards":     {queue.BackendRedis, func(c *queue.Config) { c.Shards = 0 }},
		"redis no claim idle": {queue.BackendRedis, func(c *queue.Config) { c.ClaimIdle = 0 }},
	} {
		cfg := set(c.backend)
		c.unset(&cfg)
		if err := cfg.WithDefaults().Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, cfg)
		}
	}
}
