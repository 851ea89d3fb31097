// Package redis holds Dealspot's Redis adapters: the client (real or embedded) and the
// Lua-backed implementations of app ports.
package redis

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"
)

// Embedded is the URL value that asks for the in-process Redis-compatible server.
const Embedded = "embedded"

// Conn is an open Redis connection and, for the embedded server, the server itself.
type Conn struct {
	Client *goredis.Client
	// Addr is host:port of the server the client talks to.
	Addr string
	// DB is the logical database number.
	DB     int
	server *miniredis.Miniredis
	// stopClock ends the embedded server's TTL clock.
	stopClock chan struct{}
	// published is the address file Publish wrote, and what it wrote there.
	published     string
	publishedBody []byte
}

// ttlTick is how often the embedded server's keys age.
const ttlTick = 50 * time.Millisecond

// tickTTLs makes the embedded server's keys expire as wall-clock time passes, as on a
// real server. (miniredis only ages keys when told to; its own per-command clock is far
// slower under load.)
func (c *Conn) tickTTLs() {
	t := time.NewTicker(ttlTick)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-c.stopClock:
			return
		case now := <-t.C:
			c.server.FastForward(now.Sub(last))
			last = now
		}
	}
}

// IsEmbedded reports whether the connection talks to the in-process server.
func (c *Conn) IsEmbedded() bool { return c.server != nil }

// NewClient opens another client to the same server, with the same options and
// credentials (some libraries close the client they are given, so they each get their
// own).
func (c *Conn) NewClient() *goredis.Client {
	opts := *c.Client.Options()
	return goredis.NewClient(&opts)
}

// Channel names a Pub/Sub channel for this connection's logical database. Pub/Sub
// ignores database numbers, so deployments (or test runs) sharing one server on
// different databases would otherwise hear each other.
func (c *Conn) Channel(name string) string {
	return name + "@" + strconv.Itoa(c.DB)
}

// Close closes the client and stops the embedded server, if any, withdrawing its
// address file.
func (c *Conn) Close() error {
	c.withdraw()
	err := c.Client.Close()
	if c.server != nil {
		close(c.stopClock)
		c.server.Close()
	}
	return err
}

// Open connects to rawURL: "embedded" starts an in-process server on a loopback port;
// "redis://host:port/db" (or rediss://) connects to a real server.
func Open(ctx context.Context, rawURL string) (*Conn, error) {
	if rawURL == "" || rawURL == Embedded {
		// Anyone on the host can reach a loopback port, so the embedded server wants a
		// password, new at every start.
		password := rand.Text()
		srv := miniredis.NewMiniRedis()
		srv.RequireAuth(password)
		if err := srv.StartAddr("127.0.0.1:0"); err != nil {
			return nil, fmt.Errorf("start embedded redis: %w", err)
		}
		c := &Conn{Addr: srv.Addr(), server: srv, stopClock: make(chan struct{})}
		go c.tickTTLs()
		c.Client = goredis.NewClient(&goredis.Options{Addr: c.Addr, Password: password})
		return c, nil
	}
	opts, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	c := &Conn{Client: goredis.NewClient(opts), Addr: opts.Addr, DB: opts.DB}
	if err := c.Client.Ping(ctx).Err(); err != nil {
		_ = c.Client.Close()
		return nil, fmt.Errorf("connect to redis at %s: %w", opts.Addr, err)
	}
	return c, nil
}

// ParseURL validates a redis:// or rediss:// URL.
//
// Clients made by Open keep go-redis's retries (MaxRetries, 3 unless the URL says otherwise):
// a command whose reply timed out or whose connection broke is sent again, although it
// may have run. Every script that changes state on that client must therefore be safe
// to run twice; the flash-sale gate's reserve scripts are idempotent per order id for
// exactly this reason (see lua/seckill_reserve.lua). Turning retries off instead would
// answer errors for claims Redis had accepted, during every network hiccup.
func ParseURL(rawURL string) (*goredis.Options, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, errors.New(`want "embedded" or redis://host:port/db`)
	}
	opts, err := goredis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parse redis url: %s", strings.TrimPrefix(err.Error(), "redis: "))
	}
	return opts, nil
}
