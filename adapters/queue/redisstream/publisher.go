package redisstream

import (
	"github.com/ThreeDotsLabs/watermill"
	wmredis "github.com/ThreeDotsLabs/watermill-redisstream/pkg/redisstream"
	goredis "github.com/redis/go-redis/v9"
)

// NewPublisher returns watermill-redisstream's publisher, which XADDs the fields the
// Subscriber reads. It closes client when it is closed, so client must be its own.
// maxLens caps streams by name (approximately, MAXLEN ~); nil caps none.
func NewPublisher(client goredis.UniversalClient, maxLens map[string]int64, logger watermill.LoggerAdapter) (*wmredis.Publisher, error) {
	return wmredis.NewPublisher(wmredis.PublisherConfig{Client: client, Maxlens: maxLens}, logger)
}
