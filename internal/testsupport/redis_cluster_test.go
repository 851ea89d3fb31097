package testsupport_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/testsupport"
)

func clusterClient(t *testing.T, ports []int) *goredis.ClusterClient {
	t.Helper()
	addrs := make([]string, len(ports))
	for i, p := range ports {
		addrs[i] = "127.0.0.1:" + strconv.Itoa(p)
	}
	c := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: addrs})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// A pool cluster has three masters that share the slots, and comes empty to each test.
func TestRedisClusterURLIsAnEmptyThreeMasterCluster(t *testing.T) {
	u := testsupport.RedisClusterURL(t)
	if len(u) < len("redis-cluster://") || u[:len("redis-cluster://")] != "redis-cluster://" {
		t.Fatalf("URL %q", u)
	}
	ctx := context.Background()
	var ports []int
	for _, seg := range splitHosts(u[len("redis-cluster://"):]) {
		p, err := strconv.Atoi(seg[len("127.0.0.1:"):])
		if err != nil {
			t.Fatalf("URL %q: %v", u, err)
		}
		ports = append(ports, p)
	}
	c := clusterClient(t, ports)
	shards, err := c.ClusterShards(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	slots := 0
	for _, s := range shards {
		for _, r := range s.Slots {
			slots += int(r.End-r.Start) + 1
		}
	}
	if len(shards) != testsupport.ClusterMasters || slots != 16384 {
		t.Fatalf("%d shards serving %d slots, want %d serving 16384", len(shards), slots, testsupport.ClusterMasters)
	}
	var n atomic.Int64
	err = c.ForEachMaster(ctx, func(ctx context.Context, m *goredis.Client) error {
		size, err := m.DBSize(ctx).Result()
		n.Add(size)
		return err
	})
	if err != nil || n.Load() != 0 {
		t.Fatalf("the cluster holds %d keys (%v), want none", n.Load(), err)
	}
	// Keys land on every master (so the next test's FLUSHALL has something to prove).
	for i := range 30 {
		if err := c.Set(ctx, "k"+strconv.Itoa(i), "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
}

func splitHosts(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// A second test gets a cluster too, emptied of what the first one wrote when it is the
// same.
func TestRedisClusterURLEmptiesTheClusterForEachTest(t *testing.T) {
	TestRedisClusterURLIsAnEmptyThreeMasterCluster(t)
}

// A cluster of its own survives a master's crash: the other masters serve their slots
// meanwhile, and the restarted master serves its slots again, empty.
func TestStartRedisClusterStopAndRestartAMaster(t *testing.T) {
	t.Parallel()
	cl := testsupport.StartRedisCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := clusterClient(t, cl.Ports())
	// One key per master: hash tags {a}, {b}, {c} are in slots 15495, 3300, 7365.
	keys := []string{"{a}", "{b}", "{c}"}
	for _, k := range keys {
		if err := c.Set(ctx, k, "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	victim := -1
	victimKey := ""
	for i, p := range cl.Ports() {
		m := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:" + strconv.Itoa(p)})
		if n, _ := m.DBSize(ctx).Result(); n > 0 && victim < 0 {
			victim = i
			for _, k := range keys {
				if m.Exists(ctx, k).Val() == 1 {
					victimKey = k
				}
			}
		}
		_ = m.Close()
	}
	if victim < 0 || victimKey == "" {
		t.Fatal("no master holds a key")
	}
	pid := cl.PID(victim)
	if err := cl.Stop(victim); err != nil {
		t.Fatal(err)
	}
	if cl.PID(victim) != 0 {
		t.Fatal("a stopped master still has a process")
	}
	for _, k := range keys {
		if k == victimKey {
			continue
		}
		if v, err := c.Get(ctx, k).Result(); err != nil || v != "v" {
			t.Fatalf("with a master down, GET %s on another master = %q, %v", k, v, err)
		}
	}
	if err := cl.Restart(ctx, victim); err != nil {
		t.Fatal(err)
	}
	if p := cl.PID(victim); p == 0 || p == pid {
		t.Fatalf("restarted master's pid %d (was %d)", p, pid)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := c.Set(ctx, victimKey, "again", 0).Err()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the restarted master does not serve %s: %v", victimKey, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
