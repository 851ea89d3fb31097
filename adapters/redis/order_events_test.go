package redis_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// killPubSubClients closes the server side of every Pub/Sub connection named name, the
// way a Redis restart or a network cut ends it, and returns how many it closed.
func killPubSubClients(t *testing.T, admin goredis.UniversalClient, name string) int {
	t.Helper()
	ctx := context.Background()
	list, err := admin.Do(ctx, "CLIENT", "LIST", "TYPE", "pubsub").Text()
	if err != nil {
		t.Fatalf("CLIENT LIST: %v", err)
	}
	killed := 0
	for _, line := range strings.Split(list, "\n") {
		fields := map[string]string{}
		for _, f := range strings.Fields(line) {
			k, v, _ := strings.Cut(f, "=")
			fields[k] = v
		}
		if fields["name"] != name {
			continue
		}
		if err := admin.Do(ctx, "CLIENT", "KILL", "ID", fields["id"]).Err(); err != nil {
			t.Fatalf("CLIENT KILL ID %s: %v", fields["id"], err)
		}
		killed++
	}
	return killed
}

// namedClient opens a client to the real test Redis whose connections carry name.
func namedClient(t *testing.T, url, name string) *goredis.Client {
	t.Helper()
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opts.ClientName = name
	c := goredis.NewClient(opts)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// nextEvent waits (generously) for the subscription's next event.
func nextEvent(t *testing.T, events <-chan domain.OrderEvent, what string) domain.OrderEvent {
	t.Helper()
	select {
	case e := <-events:
		return e
	case <-time.After(30 * time.Second):
		t.Fatalf("no event: %s", what)
		return domain.OrderEvent{}
	}
}

func TestStatusBusAsksSubscribersToReReadAfterReconnect(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	channel := "order:status:test:" + testsupport.RandomSuffix(10)
	url := testsupport.RedisURL(t)

	t.Run("connection killed", func(t *testing.T) {
		t.Parallel()
		name := "statusbus-" + testsupport.RandomSuffix(8)
		bus := redis.NewStatusBus(namedClient(t, url, name), channel+":kill")
		defer bus.Close()
		other := redis.NewStatusBus(namedClient(t, url, "publisher"), channel+":kill")
		events, cancel, err := bus.Subscribe(ctx, 7)
		if err != nil {
			t.Fatal(err)
		}
		defer cancel()
		// Events flow while the connection is up.
		created := domain.OrderEvent{OrderID: 7, UserID: 1, VoucherID: 2, Status: domain.OrderCreated, At: time.UnixMilli(1)}
		if err := other.Publish(ctx, created); err != nil {
			t.Fatal(err)
		}
		if e := nextEvent(t, events, "before the kill"); e.Status != domain.OrderCreated {
			t.Fatalf("got %+v, want CREATED", e)
		}
		if n := killPubSubClients(t, namedClient(t, url, "admin"), name); n != 1 {
			t.Fatalf("killed %d Pub/Sub connections, want 1", n)
		}
		// Published while the bus reconnects: it may be lost, so the bus must tell
		// the subscriber to re-read the order once it is back.
		_ = other.Publish(ctx, domain.OrderEvent{OrderID: 7, UserID: 1, VoucherID: 2, Status: domain.OrderFailed, At: time.UnixMilli(2)})
		for {
			e := nextEvent(t, events, "no re-read asked for after the reconnect")
			if e.OrderID != 7 {
				t.Fatalf("event of order %d on order 7's subscription", e.OrderID)
			}
			if e.Status == "" {
				break // re-read
			}
		}
	})

	t.Run("event lost while the connection is down", func(t *testing.T) {
		t.Parallel()
		opts, err := redis.ParseURL(url)
		if err != nil {
			t.Fatal(err)
		}
		proxy := testsupport.StartFaultProxy(t, opts.Addr)
		opts.Addr = proxy.Addr()
		viaProxy := goredis.NewClient(opts)
		defer viaProxy.Close()
		bus := redis.NewStatusBus(viaProxy, channel+":cut")
		defer bus.Close()
		direct := redis.NewStatusBus(namedClient(t, url, "publisher"), channel+":cut")
		events, cancel, err := bus.Subscribe(ctx, 9)
		if err != nil {
			t.Fatal(err)
		}
		defer cancel()
		other, cancelOther, err := bus.Subscribe(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		defer cancelOther()
		proxy.Cut()
		// Nobody listens on the channel now: the event is gone for good.
		if err := waitForNoSubscribers(ctx, namedClient(t, url, "admin"), channel+":cut"); err != nil {
			t.Fatal(err)
		}
		if err := direct.Publish(ctx, domain.OrderEvent{OrderID: 9, UserID: 1, VoucherID: 2, Status: domain.OrderCreated, At: time.UnixMilli(3)}); err != nil {
			t.Fatal(err)
		}
		proxy.Restore()
		for _, sub := range []struct {
			id     int64
			events <-chan domain.OrderEvent
		}{{9, events}, {10, other}} {
			e := nextEvent(t, sub.events, "no re-read asked for after the reconnect")
			if e.OrderID != sub.id || e.Status != "" {
				t.Fatalf("order %d's subscription got %+v, want a re-read of order %d", sub.id, e, sub.id)
			}
		}
	})
}

// waitForNoSubscribers waits until the server counts no subscriber on channel.
func waitForNoSubscribers(ctx context.Context, admin goredis.UniversalClient, channel string) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := admin.PubSubNumSub(ctx, channel).Result()
		if err != nil {
			return err
		}
		if n[channel] == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("channel %s still has %d subscribers", channel, n[channel])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A batch of events goes out as a few messages, not one each, and every subscriber
// still gets its order's event; a single-event message of an earlier release is still
// understood.
func TestStatusBusSendsABatchAsFewMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	channel := "order:status:test:" + testsupport.RandomSuffix(10)
	url := testsupport.RedisURL(t)
	client := namedClient(t, url, "statusbus-batch")
	bus := redis.NewStatusBus(client, channel)
	defer bus.Close()

	raw := client.Subscribe(ctx, channel)
	defer raw.Close()
	if _, err := raw.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	const n = 600
	subs := make([]<-chan domain.OrderEvent, n)
	for i := range n {
		ch, cancel, err := bus.Subscribe(ctx, int64(1000+i))
		if err != nil {
			t.Fatal(err)
		}
		defer cancel()
		subs[i] = ch
	}
	events := make([]domain.OrderEvent, n)
	for i := range n {
		events[i] = domain.OrderEvent{OrderID: int64(1000 + i), UserID: int64(i + 1), VoucherID: 9, Status: domain.OrderCreated, At: time.UnixMilli(int64(i))}
	}
	if err := bus.Publish(ctx, events...); err != nil {
		t.Fatal(err)
	}
	for i, ch := range subs {
		e := nextEvent(t, ch, fmt.Sprintf("order %d", 1000+i))
		if e != events[i] {
			t.Fatalf("order %d: got %+v, want %+v", 1000+i, e, events[i])
		}
	}
	// Count what went over the channel: a marker published after the batch ends it.
	if err := client.Publish(ctx, channel, "end").Err(); err != nil {
		t.Fatal(err)
	}
	msgs := 0
	for {
		m, err := raw.ReceiveMessage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Payload == "end" {
			break
		}
		msgs++
	}
	if msgs > 3 {
		t.Fatalf("%d events went out as %d messages, want at most 3", n, msgs)
	}

	// One event as a single JSON object, as an earlier release sends it.
	if err := client.Publish(ctx, channel, `{"orderId":"1000","userId":"1","voucherId":"9","status":"PAID","at":5}`).Err(); err != nil {
		t.Fatal(err)
	}
	if e := nextEvent(t, subs[0], "single-object event"); e.Status != domain.OrderPaid || e.OrderID != 1000 {
		t.Fatalf("got %+v, want order 1000 PAID", e)
	}
}
