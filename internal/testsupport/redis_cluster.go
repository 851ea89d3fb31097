package testsupport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// ClusterMasters is how many masters a test cluster has.
const ClusterMasters = 3

// clusterNodeTimeout is the cluster's cluster-node-timeout: how long a master may be
// unreachable before the others mark it failed.
const clusterNodeTimeout = 3 * time.Second

// RedisCluster is a Redis Cluster of ClusterMasters masters (no replicas) run by the test
// binary as redis-server processes on loopback ports. Every slot is served while all
// masters run; with one stopped, the others keep serving theirs
// (cluster-require-full-coverage no), which is what a test that kills a master wants.
// The processes die with the test binary, however it ends.
type RedisCluster struct {
	dir string

	mu    sync.Mutex
	nodes []*clusterProcess
}

type clusterProcess struct {
	port int
	cmd  *exec.Cmd
	out  *bytes.Buffer // stdout and stderr (the log)
	done chan struct{} // closed when the process has exited
}

// URL is the cluster's REDIS_URL: redis-cluster://127.0.0.1:p1,127.0.0.1:p2,….
func (c *RedisCluster) URL() string {
	addrs := make([]string, len(c.nodes))
	for i, p := range c.Ports() {
		addrs[i] = "127.0.0.1:" + strconv.Itoa(p)
	}
	return "redis-cluster://" + strings.Join(addrs, ",")
}

// Ports are the masters' ports, in the order of the other methods' index i.
func (c *RedisCluster) Ports() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	ports := make([]int, len(c.nodes))
	for i, n := range c.nodes {
		ports[i] = n.port
	}
	return ports
}

// PID is the process id of master i, 0 while it is stopped.
func (c *RedisCluster) PID(i int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.nodes[i]
	select {
	case <-n.done:
		return 0
	default:
		return n.cmd.Process.Pid
	}
}

// Stop kills master i (SIGKILL, as a crash) and waits until it has exited. Its slots are
// unserved until Restart.
func (c *RedisCluster) Stop(i int) error {
	c.mu.Lock()
	n := c.nodes[i]
	c.mu.Unlock()
	return n.kill()
}

// Restart starts master i again on its port with its cluster configuration (it keeps its
// slots; its data is gone, as after a crash without persistence) and waits until every
// master reports cluster_state:ok.
func (c *RedisCluster) Restart(ctx context.Context, i int) error {
	c.mu.Lock()
	n := c.nodes[i]
	c.mu.Unlock()
	if err := n.kill(); err != nil {
		return err
	}
	p, err := startClusterProcess(c.dir, n.port)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.nodes[i] = p
	c.mu.Unlock()
	if err := waitPing(ctx, p); err != nil {
		return err
	}
	return c.waitOK(ctx)
}

// FlushAll empties every master.
func (c *RedisCluster) FlushAll(ctx context.Context) error {
	for _, p := range c.Ports() {
		rc := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:" + strconv.Itoa(p)})
		err := rc.FlushAll(ctx).Err()
		_ = rc.Close()
		if err != nil {
			return fmt.Errorf("flush redis cluster node %d: %w", p, err)
		}
	}
	return nil
}

// Close stops every master and removes the cluster's files.
func (c *RedisCluster) Close() {
	c.mu.Lock()
	nodes := c.nodes
	c.mu.Unlock()
	for _, n := range nodes {
		_ = n.kill()
	}
	_ = os.RemoveAll(c.dir)
}

func (p *clusterProcess) kill() error {
	select {
	case <-p.done:
		return nil
	default:
	}
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("kill redis-server on port %d: %w", p.port, err)
	}
	<-p.done
	return nil
}

// StartRedisCluster starts a cluster of its own for t, stopped when t ends: for a test
// that stops and restarts masters. It skips (fails under CI=true) when redis-server or
// redis-cli is not installed.
func StartRedisCluster(t testing.TB) *RedisCluster {
	t.Helper()
	requireClusterTools(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := startRedisCluster(ctx, t.TempDir())
	if err != nil {
		t.Fatalf("start redis cluster: %v", err)
	}
	t.Cleanup(c.Close)
	return c
}

// clusters is the test binary's pool of clusters for RedisClusterURL.
var clusters struct {
	mu   sync.Mutex
	root string          // the directory of the pool's clusters
	all  []*RedisCluster // every cluster started, for StopRedisClusters
	free []*RedisCluster // those no test has now
}

// RedisClusterURL returns the REDIS_URL (redis-cluster://…) of a cluster that this test
// has to itself until it ends, emptied (FLUSHALL on every master) for it. Clusters are
// started on demand and kept for the next test of the binary: a test never waits for
// another (waiting would hold a parallel-test slot that the other's subtests may need),
// so the binary runs as many clusters as it has tests on a cluster at once. It skips
// (fails under CI=true) when redis-server or redis-cli is not installed.
func RedisClusterURL(t testing.TB) string {
	t.Helper()
	requireClusterTools(t)
	c, err := takeCluster()
	if err != nil {
		t.Fatalf("start redis cluster: %v", err)
	}
	t.Cleanup(func() { releaseCluster(c) })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.FlushAll(ctx); err != nil {
		t.Fatalf("empty the redis cluster: %v", err)
	}
	return c.URL()
}

func takeCluster() (*RedisCluster, error) {
	clusters.mu.Lock()
	if n := len(clusters.free); n > 0 {
		c := clusters.free[n-1]
		clusters.free = clusters.free[:n-1]
		clusters.mu.Unlock()
		return c, nil
	}
	if clusters.root == "" {
		removeStaleClusterDirs()
		root, err := os.MkdirTemp("", clusterDirPrefix+strconv.Itoa(os.Getpid())+"-")
		if err != nil {
			clusters.mu.Unlock()
			return nil, err
		}
		clusters.root = root
	}
	root := clusters.root
	clusters.mu.Unlock()
	dir, err := os.MkdirTemp(root, "cluster-")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := startRedisCluster(ctx, dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	clusters.mu.Lock()
	clusters.all = append(clusters.all, c)
	clusters.mu.Unlock()
	return c, nil
}

func releaseCluster(c *RedisCluster) {
	clusters.mu.Lock()
	defer clusters.mu.Unlock()
	clusters.free = append(clusters.free, c)
}

// StopRedisClusters stops the clusters RedisClusterURL started and removes their files;
// a TestMain may call it after m.Run. (Without it the masters die with the test binary
// all the same, and the next binary removes the files.)
func StopRedisClusters() {
	clusters.mu.Lock()
	defer clusters.mu.Unlock()
	for _, c := range clusters.all {
		c.Close()
	}
	if clusters.root != "" {
		_ = os.RemoveAll(clusters.root)
	}
	clusters.all, clusters.free, clusters.root = nil, nil, ""
}

// clusterDirPrefix starts the name of the directory of RedisClusterURL's clusters,
// followed by the test binary's process id.
const clusterDirPrefix = "dealspot-redis-cluster-"

// removeStaleClusterDirs removes the directories of RedisClusterURL's clusters whose
// test binary has ended (their masters died with it).
func removeStaleClusterDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), clusterDirPrefix+"*"))
	for _, d := range dirs {
		pid, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(d), clusterDirPrefix), "-")
		n, err := strconv.Atoi(pid)
		if err != nil || n == os.Getpid() {
			continue
		}
		if !processGone(n) {
			continue
		}
		_ = os.RemoveAll(d)
	}
}

// requireClusterTools skips (fails under CI=true) when redis-server or redis-cli is
// missing.
func requireClusterTools(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"redis-server", "redis-cli"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed, but CI=true requires the Redis Cluster tests", tool)
			}
			t.Skipf("%s not installed; skipping test that needs a Redis Cluster", tool)
		}
	}
}

// startRedisCluster starts the masters in dir on free loopback ports, joins them with
// redis-cli --cluster create and waits until every one reports cluster_state:ok. A
// port taken between the probe and the start makes it try again with new ports.
func startRedisCluster(ctx context.Context, dir string) (*RedisCluster, error) {
	var lastErr error
	for range 3 {
		c, err := tryStartRedisCluster(ctx, dir)
		if err == nil {
			return c, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

func tryStartRedisCluster(ctx context.Context, dir string) (_ *RedisCluster, err error) {
	c := &RedisCluster{dir: dir}
	defer func() {
		if err != nil {
			for _, n := range c.nodes {
				_ = n.kill()
			}
		}
	}()
	ports, err := freeClusterPorts(ClusterMasters)
	if err != nil {
		return nil, err
	}
	for _, port := range ports {
		p, err := startClusterProcess(dir, port)
		if err != nil {
			return nil, err
		}
		c.nodes = append(c.nodes, p)
	}
	addrs := make([]string, 0, len(ports))
	for _, p := range c.nodes {
		if err := waitPing(ctx, p); err != nil {
			return nil, err
		}
		addrs = append(addrs, "127.0.0.1:"+strconv.Itoa(p.port))
	}
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.CommandContext(ctx, "redis-cli", args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("redis-cli --cluster create: %w: %s", err, out)
	}
	if err := c.waitOK(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// freeClusterPorts finds n loopback ports p that are free, each with p+10000 (its
// cluster bus port) free too.
func freeClusterPorts(n int) ([]int, error) {
	var ports []int
	var hold []net.Listener
	defer func() {
		for _, l := range hold {
			_ = l.Close()
		}
	}()
	for tries := 0; len(ports) < n; tries++ {
		if tries > 100 {
			return nil, errors.New("no free loopback ports for the redis cluster")
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		hold = append(hold, l)
		port := l.Addr().(*net.TCPAddr).Port
		if port+10000 > 65535 {
			continue
		}
		bus, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000))
		if err != nil {
			continue
		}
		hold = append(hold, bus)
		ports = append(ports, port)
	}
	return ports, nil
}

func startClusterProcess(dir string, port int) (*clusterProcess, error) {
	p := strconv.Itoa(port)
	cmd := exec.Command("redis-server",
		"--port", p, "--bind", "127.0.0.1",
		"--cluster-enabled", "yes",
		"--cluster-config-file", filepath.Join(dir, "nodes-"+p+".conf"),
		"--cluster-node-timeout", strconv.Itoa(int(clusterNodeTimeout.Milliseconds())),
		"--cluster-require-full-coverage", "no",
		"--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no")
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = &lockedWriter{w: out}, &lockedWriter{w: out}
	cmd.SysProcAttr = dieWithParent()
	if err := spawn(cmd); err != nil {
		return nil, fmt.Errorf("start redis-server on port %d: %w", port, err)
	}
	proc := &clusterProcess{port: port, cmd: cmd, out: out, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(proc.done)
	}()
	return proc, nil
}

// lockedWriter lets the process's stdout and stderr share one buffer.
type lockedWriter struct{ w *bytes.Buffer }

var logMu sync.Mutex

func (l *lockedWriter) Write(b []byte) (int, error) {
	logMu.Lock()
	defer logMu.Unlock()
	return l.w.Write(b)
}

func (p *clusterProcess) log() string {
	logMu.Lock()
	defer logMu.Unlock()
	return p.out.String()
}

// waitPing waits until the process answers PING.
func waitPing(ctx context.Context, p *clusterProcess) error {
	rc := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:" + strconv.Itoa(p.port), MaxRetries: -1})
	defer rc.Close()
	for {
		if rc.Ping(ctx).Err() == nil {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("redis-server on port %d exited: %s", p.port, p.log())
		case <-ctx.Done():
			return fmt.Errorf("redis-server on port %d does not answer: %w", p.port, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// waitOK waits until every master reports cluster_state:ok and knows all the others.
func (c *RedisCluster) waitOK(ctx context.Context) error {
	for _, port := range c.Ports() {
		rc := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port), MaxRetries: -1})
		var info string
		for {
			var err error
			info, err = rc.ClusterInfo(ctx).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") &&
				strings.Contains(info, "cluster_known_nodes:"+strconv.Itoa(ClusterMasters)) &&
				strings.Contains(info, "cluster_slots_ok:16384") {
				break
			}
			select {
			case <-ctx.Done():
				_ = rc.Close()
				return fmt.Errorf("redis cluster node %d not ready: %w: %s", port, ctx.Err(), info)
			case <-time.After(50 * time.Millisecond):
			}
		}
		_ = rc.Close()
	}
	return nil
}

// spawner starts processes from one goroutine locked to its OS thread for good: a
// process started with a parent-death signal gets it when the thread that started it
// ends, and this thread ends only with the test binary.
var spawner struct {
	once sync.Once
	reqs chan spawnRequest
}

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

func spawn(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnRequest)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the process
			for r := range spawner.reqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawner.reqs <- spawnRequest{cmd: cmd, done: done}
	return <-done
}
