package kafka

import (
	"context"
	"errors"
	"fmt"

	"github.com/IBM/sarama"
)

// LagReader reads how far a consumer group is behind on a topic, over one client it
// keeps open (so a metrics scrape does not dial the cluster every time).
type LagReader struct {
	client sarama.Client
	admin  sarama.ClusterAdmin
	group  string
	// busy holds a token while a read runs: at most one read at a time, so callers that
	// give up (their ctx done) do not pile reads onto a slow cluster.
	busy chan struct{}
}

// NewLagReader connects to brokers to read group's lag.
func NewLagReader(brokers []string, group string) (*LagReader, error) {
	client, err := sarama.NewClient(brokers, NewSaramaConfig())
	if err != nil {
		return nil, fmt.Errorf("connect to kafka: %w", err)
	}
	admin, err := sarama.NewClusterAdminFromClient(client)
	if err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("connect to kafka: %w", err)
	}
	return &LagReader{client: client, admin: admin, group: group, busy: make(chan struct{}, 1)}, nil
}

// Close closes the client; a read still running fails.
func (r *LagReader) Close() error { return r.admin.Close() }

// Lag returns the messages of topic the group has not committed yet: the sum over the
// topic's partitions of the newest offset less the group's committed offset, where a
// partition the group never committed (or whose committed offset retention deleted)
// counts from its oldest offset.
//
// One read costs a committed-offsets request to the group's coordinator and two
// ListOffsets requests (newest, oldest) per partition leader, each covering all the
// partitions that broker leads; the partition list and leaders come from the client's
// metadata cache. Sarama takes no context: Lag returns ctx's error as soon as ctx is
// done, and a read it leaves behind finishes in the background (bounded by the client's
// network timeouts) before the next one starts.
func (r *LagReader) Lag(ctx context.Context, topic string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	select {
	case r.busy <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	type result struct {
		lag int64
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-r.busy }()
		lag, err := r.read(ctx, topic)
		done <- result{lag, err}
	}()
	select {
	case res := <-done:
		return res.lag, res.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

func (r *LagReader) read(ctx context.Context, topic string) (int64, error) {
	partitions, err := r.client.Partitions(topic)
	if err != nil {
		return 0, fmt.Errorf("partitions of %s: %w", topic, err)
	}
	// Committed offsets first: messages consumed between the reads can only make the lag
	// look larger, never negative.
	committed, err := r.committed(topic, partitions)
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	byLeader := map[int32][]int32{}
	leaders := map[int32]*sarama.Broker{}
	for _, p := range partitions {
		b, err := r.client.Leader(topic, p)
		if err != nil {
			return 0, fmt.Errorf("leader of %s/%d: %w", topic, p, err)
		}
		byLeader[b.ID()] = append(byLeader[b.ID()], p)
		leaders[b.ID()] = b
	}
	var lag int64
	for id, ps := range byLeader {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		newest, err := r.offsets(leaders[id], topic, ps, sarama.OffsetNewest)
		if err != nil {
			return 0, err
		}
		oldest, err := r.offsets(leaders[id], topic, ps, sarama.OffsetOldest)
		if err != nil {
			return 0, err
		}
		for _, p := range ps {
			from := max(committed[p], oldest[p])
			lag += max(0, newest[p]-from)
		}
	}
	return lag, nil
}

// committed returns the group's committed offset of each partition, -1 where it has
// none.
func (r *LagReader) committed(topic string, partitions []int32) (map[int32]int64, error) {
	none := func() map[int32]int64 {
		out := make(map[int32]int64, len(partitions))
		for _, p := range partitions {
			out[p] = -1
		}
		return out
	}
	resp, err := r.admin.ListConsumerGroupOffsets(r.group, map[string][]int32{topic: partitions})
	if err == nil && !errors.Is(resp.Err, sarama.ErrNoError) {
		err = resp.Err
	}
	// A group that never committed: Kafka answers -1 offsets, some brokers (kfake) that
	// the group does not exist.
	if errors.Is(err, sarama.ErrGroupIDNotFound) {
		return none(), nil
	}
	if err != nil {
		// The coordinator may have moved: look it up again for the next read.
		_ = r.client.RefreshCoordinator(r.group)
		return nil, fmt.Errorf("committed offsets of group %s on %s: %w", r.group, topic, err)
	}
	out := none()
	for _, p := range partitions {
		block := resp.GetBlock(topic, p)
		switch {
		case block == nil:
			return nil, fmt.Errorf("committed offsets of group %s on %s/%d: %w", r.group, topic, p, sarama.ErrIncompleteResponse)
		case errors.Is(block.Err, sarama.ErrGroupIDNotFound):
			continue
		case !errors.Is(block.Err, sarama.ErrNoError):
			return nil, fmt.Errorf("committed offsets of group %s on %s/%d: %w", r.group, topic, p, block.Err)
		}
		out[p] = block.Offset
	}
	return out, nil
}

// offsets asks leader, in one ListOffsets request, for the offset at `at` (OffsetNewest
// or OffsetOldest) of each of partitions.
func (r *LagReader) offsets(leader *sarama.Broker, topic string, partitions []int32, at int64) (map[int32]int64, error) {
	req := &sarama.OffsetRequest{}
	// As sarama's Client.GetOffset picks it: version 4 from Kafka 2.1, 1 before.
	switch v := r.client.Config().Version; {
	case v.IsAtLeast(sarama.V2_1_0_0):
		req.Version = 4
	case v.IsAtLeast(sarama.V0_10_1_0):
		req.Version = 1
	}
	for _, p := range partitions {
		req.AddBlock(topic, p, at, 1)
	}
	resp, err := leader.GetAvailableOffsets(req)
	if err != nil {
		// As Client.GetOffset does: drop the connection and the metadata, which the next
		// read opens and fetches again.
		_ = leader.Close()
		_ = r.client.RefreshMetadata(topic)
		return nil, fmt.Errorf("offsets of %s from broker %d: %w", topic, leader.ID(), err)
	}
	out := make(map[int32]int64, len(partitions))
	for _, p := range partitions {
		block := resp.GetBlock(topic, p)
		switch {
		case block == nil || len(block.Offsets) != 1:
			return nil, fmt.Errorf("offsets of %s/%d: %w", topic, p, sarama.ErrIncompleteResponse)
		case !errors.Is(block.Err, sarama.ErrNoError):
			// Most likely a leader that moved.
			_ = r.client.RefreshMetadata(topic)
			return nil, fmt.Errorf("offsets of %s/%d: %w", topic, p, block.Err)
		}
		out[p] = block.Offsets[0]
	}
	return out, nil
}
