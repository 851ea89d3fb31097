package redis

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/regen"
)

// GenerationKey holds the generation marker: a random value set once per life of the
// Redis data. It has no expiry, so volatile-* eviction policies never take it; when it is
// gone, Redis lost its data (or evicted it under allkeys-*), and the derived structures
// are rebuilt.
const GenerationKey = "dealspot:generation"

// GenerationMarker reads and sets the generation marker.
type GenerationMarker struct {
	client goredis.UniversalClient
}

var _ regen.Marker = (*GenerationMarker)(nil)

// NewGenerationMarker returns the marker on client.
func NewGenerationMarker(client goredis.UniversalClient) *GenerationMarker {
	return &GenerationMarker{client: client}
}

// Read implements regen.Marker.
func (g *GenerationMarker) Read(ctx context.Context) (string, error) {
	v, err := g.client.Get(ctx, GenerationKey).Result()
	if errors.Is(err, goredis.Nil) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read redis generation: %w", err)
	}
	return v, nil
}

// Claim implements regen.Marker with SET NX, then GET when another node was first.
func (g *GenerationMarker) Claim(ctx context.Context) (string, error) {
	for range 3 {
		fresh := rand.Text()
		ok, err := g.client.SetNX(ctx, GenerationKey, fresh, 0).Result()
		if err != nil {
			return "", fmt.Errorf("set redis generation: %w", err)
		}
		if ok {
			return fresh, nil
		}
		v, err := g.Read(ctx)
		if err != nil {
			return "", err
		}
		if v != "" {
			return v, nil
		}
		// Gone again between SET NX and GET (another wipe): try again.
	}
	return "", errors.New("set redis generation: the marker keeps disappearing")
}
