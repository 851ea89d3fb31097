// Package redis holds Dealspot's Redis adapters: the client (real or embedded) and the
// Lua-backed implementations of app ports.
package redis

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"
)

// Embedded is the URL value that asks for the in-process Redis-compatible server.
const Embedded = "embedded"

// Schemes of a Redis Cluster URL: redis-cluster://host:port,host:port,…; the TLS form is
// rediss-cluster://.
const (
	ClusterScheme    = "redis-cluster"
	ClusterTLSScheme = "rediss-cluster"
)

// Conn is an open Redis connection and, for the embedded server, the server itself.
type Conn struct {
	// Client is a *goredis.Client for one server (embedded or real) and a
	// *goredis.ClusterClient for a Redis Cluster.
	Client goredis.UniversalClient
	// Addr is host:port of the server the client talks to; on a cluster, the seed
	// addresses the URL named, comma-separated.
	Addr string
	// DB is the logical database number (always 0 on a cluster).
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

// IsCluster reports whether the connection talks to a Redis Cluster.
func (c *Conn) IsCluster() bool {
	_, ok := c.Client.(*goredis.ClusterClient)
	return ok
}

// NewClient opens another client of the same kind to the same server or cluster, with
// the same options and credentials (some libraries close the client they are given, so
// they each get their own).
func (c *Conn) NewClient() goredis.UniversalClient { return CloneClient(c.Client, 0) }

// CloneClient opens a new client of the same kind as client (one server or a cluster)
// with its options; poolSize > 0 replaces the pool size (per node on a cluster).
func CloneClient(client goredis.UniversalClient, poolSize int) goredis.UniversalClient {
	switch cl := client.(type) {
	case *goredis.ClusterClient:
		opts := *cl.Options()
		if poolSize > 0 {
			opts.PoolSize = poolSize
		}
		return goredis.NewClusterClient(&opts)
	case *goredis.Client:
		opts := *cl.Options()
		if poolSize > 0 {
			opts.PoolSize = poolSize
		}
		return goredis.NewClient(&opts)
	default:
		panic(fmt.Sprintf("redis: cannot clone a %T", client))
	}
}

// Channel names a Pub/Sub channel for this connection's logical database. Pub/Sub
// ignores database numbers, so deployments (or test runs) sharing one server on
// different databases would otherwise hear each other. A cluster has database 0 only and
// broadcasts every PUBLISH to all its nodes: there, separate deployments (and test
// runs) use separate clusters, as they must for their keys anyway.
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
// "redis://host:port/db" (or rediss://) connects to a real server;
// "redis-cluster://host:port,host:port,…" (or rediss-cluster://) to a Redis Cluster.
func Open(ctx context.Context, rawURL string) (*Conn, error) {
	if isClusterURL(rawURL) {
		return openCluster(ctx, rawURL)
	}
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

// openCluster connects to the cluster rawURL names and checks that every master answers.
func openCluster(ctx context.Context, rawURL string) (*Conn, error) {
	opts, err := ParseClusterURL(rawURL)
	if err != nil {
		return nil, err
	}
	client := goredis.NewClusterClient(opts)
	c := &Conn{Client: client, Addr: strings.Join(opts.Addrs, ",")}
	err = client.Ping(ctx).Err()
	if err == nil {
		err = client.ForEachMaster(ctx, func(ctx context.Context, m *goredis.Client) error {
			return m.Ping(ctx).Err()
		})
	}
	if err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("connect to redis cluster at %s: %w", c.Addr, err)
	}
	return c, nil
}

func isClusterURL(rawURL string) bool {
	return strings.HasPrefix(rawURL, ClusterScheme+"://") || strings.HasPrefix(rawURL, ClusterTLSScheme+"://")
}

// ParseClusterURL validates a Redis Cluster URL,
// redis-cluster://[user:password@]host:port,host:port,…[?option=value&…]
// (rediss-cluster:// for TLS), and returns the cluster client's options. The hosts are
// seeds: the client learns the others from them. The options are go-redis's cluster URL
// options (dial_timeout, read_timeout, pool_size, max_retries, max_redirects, …). A
// cluster has database 0 only, so the path is empty, "/" or "/0".
func ParseClusterURL(rawURL string) (*goredis.ClusterOptions, error) {
	const want = `want redis-cluster://host:port,host:port,…`
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != ClusterScheme && u.Scheme != ClusterTLSScheme) || u.Host == "" {
		return nil, errors.New(want)
	}
	if p := strings.TrimPrefix(u.Path, "/"); p != "" && p != "0" {
		return nil, fmt.Errorf("a redis cluster has database 0 only, got %q", p)
	}
	hosts := strings.Split(u.Host, ",")
	for _, h := range hosts {
		host, port, err := net.SplitHostPort(h)
		if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%s, got the address %q", want, h)
		}
	}
	q := u.Query()
	if q.Has("addr") {
		return nil, errors.New("name the cluster's addresses in the host list, not as addr=")
	}
	for _, h := range hosts[1:] {
		q.Add("addr", h)
	}
	base := *u
	base.Scheme = strings.TrimSuffix(u.Scheme, "-cluster")
	base.Host = hosts[0]
	base.Path = ""
	base.RawQuery = q.Encode()
	opts, err := goredis.ParseClusterURL(base.String())
	if err != nil {
		return nil, fmt.Errorf("parse redis cluster url: %s", strings.TrimPrefix(err.Error(), "redis: "))
	}
	return opts, nil
}

// ParseURL validates a redis:// or rediss:// URL.
//
// Clients made by Open keep go-redis's retries (MaxRetries, 3 unless the URL says otherwise):
// a command whose reply timed out or whose connection broke is sent again, although it
// may have run. Every script that changes state on that client must therefore be safe
// to run twice; the flash-sale gate's reserve script is idempotent per order id for
// exactly this reason (see lua/seckill_reserve.lua). Turning retries off instead would
// answer errors for claims Redis had accepted, during every network hiccup.
func ParseURL(rawURL string) (*goredis.Options, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return nil, errors.New(`want "embedded", redis://host:port/db or redis-cluster://host:port,host:port,…`)
	}
	opts, err := goredis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parse redis url: %s", strings.TrimPrefix(err.Error(), "redis: "))
	}
	return opts, nil
}
