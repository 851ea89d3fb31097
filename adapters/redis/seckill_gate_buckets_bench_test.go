package redis_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// BenchmarkSplitSaleAccept measures one sale's accepted claims/s through the gate on a
// 3-master Redis Cluster started for it, with the sale in 1, 2 and 3 buckets, claim by
// claim (one script run per claim, Redis's heaviest load) and coalesced as the server
// does by default. The stock never runs out: every claim is accepted, by a new user.
// Besides claims/s it reports the busiest master's CPU per accepted claim
// (busiest-master-µs/claim): the share of a claim that one Redis core has to carry, which
// bounds one sale at 1e6 / that figure per second whatever the API nodes do. On a host
// with fewer cores than masters + load generator, claims/s grows less than that bound.
// Run the sub-benchmarks alternately on a quiet host. BENCH_REDIS_CLUSTER, when set, is
// the redis-cluster:// URL of a cluster of this host's to measure instead (its masters'
// CPU read from /proc by the process ids they report), for instance one whose masters
// are held to a share of a core each (docs/scale.md).
func BenchmarkSplitSaleAccept(b *testing.B) {
	url := os.Getenv("BENCH_REDIS_CLUSTER")
	if url == "" {
		url = testsupport.StartRedisCluster(b).URL()
	}
	conn, err := redis.Open(context.Background(), url)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	pids := masterPIDs(b, conn)
	for _, mode := range []struct {
		name   string
		window time.Duration
	}{{"per-call", 0}, {"coalesced", 200 * time.Microsecond}} {
		for _, buckets := range []int{1, 2, 3} {
			b.Run(fmt.Sprintf("%s/buckets=%d", mode.name, buckets), func(b *testing.B) {
				benchSplitSale(b, conn, pids, mode.window, buckets)
			})
		}
	}
}

var benchSales atomic.Int64

func benchSplitSale(b *testing.B, conn *redis.Conn, pids []int, window time.Duration, buckets int) {
	ctx := context.Background()
	const shards = 16
	gate, err := redis.NewSaleGate(conn.Client, redis.GateConfig{Shards: shards, Coalesce: redis.Coalescing{Window: window, Max: 64}})
	if err != nil {
		b.Fatal(err)
	}
	// A sale whose buckets are on as many masters as it has buckets (most are).
	voucher := int64(0)
	for v := time.Now().UnixNano()%1_000_000*100 + benchSales.Add(1)*16; voucher == 0; v++ {
		masters := map[int]bool{}
		for _, k := range redis.PlaceBuckets(gate, claimwire.Shard(v, shards), buckets) {
			masters[int(redis.KeySlot(claimwire.TagOfShard(k)))*3/16384] = true
		}
		if len(masters) == buckets {
			voucher = v
		}
	}
	if _, err := gate.Load(ctx, seckill.SaleState{VoucherID: voucher, Stock: 1 << 40, Buckets: buckets,
		BeginTime: time.Now().Add(-time.Hour), EndTime: time.Now().Add(time.Hour)}, true); err != nil {
		b.Fatal(err)
	}
	var ids atomic.Int64
	ids.Store(voucher * 1_000_000)
	before := mastersCPU(b, pids)
	b.SetParallelism(128) // 2 cores × 128 = 256 claimers
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := ids.Add(1)
			v, _, err := gate.Reserve(ctx, seckill.Reservation{OrderID: id, UserID: id, VoucherID: voucher, At: time.Now(), Buckets: buckets})
			if err != nil || v != seckill.Accepted {
				b.Errorf("reserve: %v %v", v, err)
				return
			}
		}
	})
	elapsed := time.Since(start)
	b.StopTimer()
	after := mastersCPU(b, pids)
	busiest := time.Duration(0)
	for i := range after {
		busiest = max(busiest, after[i]-before[i])
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "claims/s")
	b.ReportMetric(float64(busiest.Microseconds())/float64(b.N), "busiest-master-µs/claim")
	// The claims are accepted: the buckets' stock fell by b.N in all.
	if n, ok, err := gate.Stock(ctx, voucher); err != nil || !ok || n != 1<<40-int64(b.N) {
		b.Fatalf("stock %d (%v, %v) after %d claims", n, ok, err, b.N)
	}
}

// masterPIDs asks each master of the cluster for its process id (INFO server).
func masterPIDs(b *testing.B, conn *redis.Conn) []int {
	cc, ok := conn.Client.(*goredis.ClusterClient)
	if !ok {
		b.Fatalf("not a cluster: %T", conn.Client)
	}
	var (
		mu   sync.Mutex
		pids []int
	)
	err := cc.ForEachMaster(context.Background(), func(ctx context.Context, c *goredis.Client) error {
		info, err := c.Info(ctx, "server").Result()
		if err != nil {
			return err
		}
		for _, line := range strings.Split(info, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
				pid, err := strconv.Atoi(v)
				if err != nil {
					return err
				}
				mu.Lock()
				pids = append(pids, pid)
				mu.Unlock()
			}
		}
		return nil
	})
	if err != nil || len(pids) == 0 {
		b.Fatalf("master process ids %v: %v", pids, err)
	}
	return pids
}

// mastersCPU reads each master's CPU time (user + system) from /proc.
func mastersCPU(b *testing.B, pids []int) []time.Duration {
	out := make([]time.Duration, len(pids))
	for i := range out {
		raw, err := os.ReadFile("/proc/" + strconv.Itoa(pids[i]) + "/stat")
		if err != nil {
			b.Skipf("no /proc: %v", err)
		}
		// Fields after the command's closing parenthesis; utime and stime are the 14th and
		// 15th fields of the line, in clock ticks (100 per second here).
		fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
		ut, _ := strconv.ParseInt(fields[11], 10, 64)
		st, _ := strconv.ParseInt(fields[12], 10, 64)
		out[i] = time.Duration(ut+st) * 10 * time.Millisecond
	}
	return out
}
