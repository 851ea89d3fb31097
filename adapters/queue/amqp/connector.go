// Package amqp is the order queue's AMQP (RabbitMQ) Pub/Sub: a publisher with
// publisher confirms and a subscriber with manual acknowledgements, one durable queue
// per topic on the default exchange, both recovering by themselves from the loss of the
// broker connection. Messages are in watermill-amqp's wire format.
package amqp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	amqp091 "github.com/rabbitmq/amqp091-go"
)

// Redial pacing and bounds of one AMQP connection attempt.
const (
	redialMin      = 100 * time.Millisecond
	redialMax      = 2 * time.Second
	connectTimeout = 10 * time.Second
	closeTimeout   = 5 * time.Second
)

// errClosed is returned by a connector, publisher or subscriber that was closed.
var errClosed = errors.New("amqp: closed")

// connector keeps one AMQP connection and dials a new one, on demand, once it is
// lost. Callers ask for the connection each time they open a channel, so everything
// built on it recovers by itself when the broker is reachable again. While the broker
// is away, failed dials are paced (redialMin doubling up to redialMax) and the
// callers in between get the last dial error at once instead of waiting.
type connector struct {
	url    string
	name   string
	logger watermill.LoggerAdapter

	mu      sync.Mutex
	conn    *amqp091.Connection
	dialing chan struct{} // closed when the dial under way ends; nil when none is
	lastErr error
	retryAt time.Time
	delay   time.Duration
	closed  bool
}

func newConnector(url, name string, logger watermill.LoggerAdapter) *connector {
	return &connector{url: url, name: name, logger: logger}
}

// connection returns the open connection, dialing one if there is none. It returns
// errClosed after close and, while the broker is unreachable, the last dial error.
func (c *connector) connection(ctx context.Context) (*amqp091.Connection, error) {
	for {
		c.mu.Lock()
		switch {
		case c.closed:
			c.mu.Unlock()
			return nil, errClosed
		case c.conn != nil && !c.conn.IsClosed():
			conn := c.conn
			c.mu.Unlock()
			return conn, nil
		case c.dialing != nil:
			wait := c.dialing
			c.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		case time.Now().Before(c.retryAt):
			err := c.lastErr
			c.mu.Unlock()
			return nil, fmt.Errorf("amqp broker unreachable: %w", err)
		}
		done := make(chan struct{})
		c.dialing = done
		c.mu.Unlock()
		// The dial goes on without the caller, which waits for it like the others.
		go c.redial(done)
	}
}

// redial dials, records the outcome for connection and closes done.
func (c *connector) redial(done chan struct{}) {
	conn, err := c.dial()
	c.mu.Lock()
	c.dialing = nil
	close(done)
	switch {
	case err != nil:
		c.delay = min(max(2*c.delay, redialMin), redialMax)
		c.retryAt = time.Now().Add(c.delay)
		c.lastErr = err
		delay := c.delay
		c.mu.Unlock()
		c.logger.Error("Cannot connect to AMQP", err, watermill.LogFields{"connection": c.name, "retry_in": delay.String()})
	case c.closed:
		c.mu.Unlock()
		_ = conn.CloseDeadline(time.Now().Add(closeTimeout))
	default:
		c.conn, c.delay, c.lastErr, c.retryAt = conn, 0, nil, time.Time{}
		c.mu.Unlock()
		c.logger.Info("Connected to AMQP", watermill.LogFields{"connection": c.name})
		go c.watch(conn)
	}
}

func (c *connector) dial() (*amqp091.Connection, error) {
	props := amqp091.NewConnectionProperties()
	props.SetClientConnectionName(c.name)
	return amqp091.DialConfig(c.url, amqp091.Config{
		Locale:     "en_US",
		Properties: props,
		Dial:       amqp091.DefaultDial(connectTimeout),
	})
}

// watch logs the loss of conn; the next caller of connection dials again.
func (c *connector) watch(conn *amqp091.Connection) {
	if err, ok := <-conn.NotifyClose(make(chan *amqp091.Error, 1)); ok && err != nil {
		c.logger.Error("AMQP connection lost", err, watermill.LogFields{"connection": c.name})
	}
}

// close closes the connection; connection fails from then on. A dial under way is
// closed when it ends.
func (c *connector) close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	conn := c.conn
	c.conn = nil
	c.mu.Unlock()
	if conn == nil || conn.IsClosed() {
		return nil
	}
	if err := conn.CloseDeadline(time.Now().Add(closeTimeout)); err != nil && !errors.Is(err, amqp091.ErrClosed) {
		return fmt.Errorf("close amqp connection %s: %w", c.name, err)
	}
	return nil
}

// declareQueue declares the durable queue a topic maps to, with args (nil in
// production). Declaring is idempotent as long as the arguments stay the same.
func declareQueue(ch *amqp091.Channel, name string, args amqp091.Table) error {
	if _, err := ch.QueueDeclare(name, true, false, false, false, args); err != nil {
		return fmt.Errorf("declare queue %s: %w", name, err)
	}
	return nil
}
