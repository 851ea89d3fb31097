package testsupport

import (
	"testing"

	amqp091 "github.com/rabbitmq/amqp091-go"
)

// DeleteAMQPQueues removes a test's durable queues from the shared broker at url; a
// failure is logged, not fatal, since the test itself has finished.
func DeleteAMQPQueues(t testing.TB, url string, names ...string) {
	t.Helper()
	conn, err := amqp091.Dial(url)
	if err != nil {
		t.Logf("delete test queues: %v", err)
		return
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		t.Logf("delete test queues: %v", err)
		return
	}
	defer ch.Close()
	for _, name := range names {
		if _, err := ch.QueueDelete(name, false, false, false); err != nil {
			t.Logf("delete queue %s: %v", name, err)
		}
	}
}
