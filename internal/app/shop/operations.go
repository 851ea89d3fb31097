package shop

import (
	"context"
	"errors"
	"fmt"
)

// Operations are the shop jobs the server runs itself, never a client.
type Operations struct {
	repo Repository
	geo  GeoIndex
}

// NewOperations builds the shop operations; it refuses missing dependencies.
func NewOperations(d Deps) (*Operations, error) {
	if d.Repo == nil || d.Geo == nil {
		return nil, errors.New("shop operations: nil repository or geo index")
	}
	return &Operations{repo: d.Repo, geo: d.Geo}, nil
}

// RebuildNearbyIndex fills the nearby index from the database (at start, or after Redis
// lost it).
func (o *Operations) RebuildNearbyIndex(ctx context.Context) (int, error) {
	positions, err := o.repo.ShopPositions(ctx)
	if err != nil {
		return 0, fmt.Errorf("rebuild nearby index: %w", err)
	}
	if err := o.geo.Rebuild(ctx, positions); err != nil {
		return 0, err
	}
	return len(positions), nil
}
