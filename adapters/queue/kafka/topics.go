package kafka

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/IBM/sarama"
)

// TopicSpec is how EnsureTopics creates a missing topic.
type TopicSpec struct {
	Partitions int
	// Replicas is the replication factor; zero means min(3, number of brokers).
	Replicas int16
}

// EnsureTopics creates those of topics that do not exist yet.
func EnsureTopics(ctx context.Context, brokers []string, topics []string, spec TopicSpec, log *slog.Logger) error {
	admin, err := sarama.NewClusterAdmin(brokers, NewSaramaConfig())
	if err != nil {
		return fmt.Errorf("connect to kafka: %w", err)
	}
	defer admin.Close()
	existing, err := admin.ListTopics()
	if err != nil {
		return fmt.Errorf("list kafka topics: %w", err)
	}
	replicas := spec.Replicas
	if replicas <= 0 {
		brokers, _, err := admin.DescribeCluster()
		if err != nil {
			return fmt.Errorf("describe kafka cluster: %w", err)
		}
		replicas = int16(min(3, max(1, len(brokers))))
	}
	for _, topic := range topics {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, ok := existing[topic]; ok {
			continue
		}
		err := admin.CreateTopic(topic, &sarama.TopicDetail{
			NumPartitions:     int32(spec.Partitions),
			ReplicationFactor: replicas,
		}, false)
		if err != nil && !errors.Is(err, sarama.ErrTopicAlreadyExists) {
			return fmt.Errorf("create kafka topic %s: %w", topic, err)
		}
		log.Info("created kafka topic", "topic", topic, "partitions", spec.Partitions, "replicas", replicas)
	}
	return nil
}
