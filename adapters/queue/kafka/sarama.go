package kafka

import (
	"time"

	"github.com/IBM/sarama"
)

// NewSaramaConfig is the client configuration shared by producer, consumer and admin.
func NewSaramaConfig() *sarama.Config {
	c := sarama.NewConfig()
	c.Version = sarama.V2_1_0_0
	c.ClientID = "dealspot"
	c.Producer.RequiredAcks = sarama.WaitForAll
	c.Producer.Return.Successes = true
	c.Producer.Retry.Max = 10
	c.Consumer.Offsets.Initial = sarama.OffsetOldest
	c.Consumer.Return.Errors = true
	c.Metadata.Retry.Backoff = 250 * time.Millisecond
	return c
}
