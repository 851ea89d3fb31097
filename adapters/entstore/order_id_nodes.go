package entstore

import (
	"context"
	"fmt"

	"github.com/dealspot/dealspot/ent/orderidnode"
)

// orderIDNodesKept is how many of the newest process starts are kept; older rows are of
// no use to anyone (the node part of their ids has been handed out again since).
const orderIDNodesKept = 4096

// StartOrderIDNode records a start of a process that hands out order ids and returns
// its number: 1, 2, …, never the same twice (the database's own id sequence), so that a
// process restarted within the same second gets another node part for its ids. Old
// records are pruned.
func (s *Store) StartOrderIDNode(ctx context.Context, host string) (int64, error) {
	if len(host) > 255 {
		host = host[:255]
	}
	n, err := s.client.OrderIDNode.Create().SetHost(host).Save(ctx)
	if err != nil {
		return 0, fmt.Errorf("record an order-id node: %w", err)
	}
	if n.ID > orderIDNodesKept {
		if _, err := s.client.OrderIDNode.Delete().Where(orderidnode.IDLTE(n.ID - orderIDNodesKept)).Exec(ctx); err != nil {
			return 0, fmt.Errorf("prune order-id nodes: %w", err)
		}
	}
	return n.ID, nil
}
