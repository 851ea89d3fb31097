//go:build stress

package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestTwoNodesAndAWorkerSurviveKills runs the deployment of the README's scaling section:
// two API nodes (ORDER_CONSUMER=false) and one `dealspot worker`, real processes on one
// PostgreSQL database, a 3-master Redis Cluster and RabbitMQ (so the queue does not live
// on the master that gets killed). Claims flood in through both nodes; mid-flood node A
// is killed (SIGKILL) and started again, and the master holding the sale's gate keys is
// killed and comes back empty. Afterwards I1–I4 must hold, every claim a node accepted
// must be one CREATED or FAILED order, and once the sale is sold out both nodes must
// answer SOLD_OUT within a couple of seconds.
func TestTwoNodesAndAWorkerSurviveKills(t *testing.T) {
	const (
		stock      = 300
		users      = 1500
		workers    = 16 // claimers, half on each node
		pause      = 400 * time.Millisecond
		masterDown = 3 * time.Second
		markWithin = 3 * time.Second
	)
	cluster := testsupport.StartRedisCluster(t)
	amqpURL := testsupport.Require(t, testsupport.EnvAMQP)
	ns := "t" + testsupport.RandomSuffix(8) + "."
	// Registered before the processes start, so it runs after they have stopped.
	t.Cleanup(func() { testsupport.DeleteAMQPQueues(t, amqpURL, ns+"orders", ns+"orders.dead") })
	env := map[string]string{
		"JWT_SECRET": testSecret, "DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": cluster.URL(),
		"QUEUE": "amqp", "AMQP_URL": amqpURL, "QUEUE_NAMESPACE": ns,
		"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "500ms", "RECONCILE_REPUBLISH_AFTER": "2s",
	}

	// An auditor in this process on the same stores: it migrates the database first,
	// creates the sale, finds its master and reads the books. It neither consumes nor
	// reconciles by itself.
	_, svc := startService(t, merge(env, map[string]string{"ORDER_CONSUMER": "false", "RECONCILE_INTERVAL": "0"}))
	cc, ok := svc.Redis.Client.(*goredis.ClusterClient)
	if !ok {
		t.Fatalf("REDIS_URL=%s opened a %T", cluster.URL(), svc.Redis.Client)
	}
	ctx := context.Background()
	masterOf := func(key string) int { t.Helper(); return clusterMasterOf(t, cc, cluster, key) }
	markerMaster := masterOf("dealspot:generation")
	sale := newSale(t, svc, stock)
	for masterOf(stockKeys([]string{strconv.FormatInt(sale.ID, 10)})[0]) == markerMaster {
		sale = newSale(t, svc, stock)
	}
	victim := masterOf(stockKeys([]string{strconv.FormatInt(sale.ID, 10)})[0])
	t.Logf("sale %d (stock %d, %d users) on master %d; dealspot:generation on master %d", sale.ID, stock, users, victim, markerMaster)

	bin := buildServer(t)
	nodeA := startProcess(t, bin, "node-a", merge(env, map[string]string{"ORDER_CONSUMER": "false"}), "serve")
	nodeB := startProcess(t, bin, "node-b", merge(env, map[string]string{"ORDER_CONSUMER": "false"}), "serve")
	startProcess(t, bin, "worker", env, "worker")
	nodes := []string{"http://" + nodeA.addr + "/graphql", "http://" + nodeB.addr + "/graphql"}

	began := time.Now()
	tokens := loginMany(t, nodes, users)
	t.Logf("%d users logged in through both nodes in %v", users, time.Since(began).Round(time.Millisecond))

	hc := pooledHTTP(t, workers+4)
	res := &floodResult{refused: map[domain.Code]int{}}
	seen := &nodeAnswers{}
	stop := make(chan struct{})
	wait := floodNodes(hc, nodes, tokens, sale.ID, workers, pause, res, seen, stop)
	flooded := time.Now()
	stopFlood := func() {
		select {
		case <-stop:
		default:
			close(stop)
			wait()
		}
	}
	defer stopFlood()

	// Phases: before the node kill, node A away, between, the master away, after.
	var marks []int
	mark := func() { marks = append(marks, res.acceptedCount()) }
	time.Sleep(time.Second)
	mark()
	nodeA.kill(syscall.SIGKILL)
	killedA := time.Now()
	time.Sleep(1500 * time.Millisecond)
	nodeA.start()
	t.Logf("node A killed at %v, ready again %v later", killedA.Sub(flooded).Round(time.Millisecond), time.Since(killedA).Round(time.Millisecond))
	mark()
	time.Sleep(500 * time.Millisecond)
	mark()
	generation := svc.Regen.Generation()
	if err := cluster.Stop(victim); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	time.Sleep(masterDown)
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	if err := cluster.Restart(rctx, victim); err != nil {
		cancel()
		t.Fatalf("restart master %d: %v", victim, err)
	}
	cancel()
	back := time.Now()
	mark()
	t.Logf("master %d killed at %v, back empty %v later", victim, stopped.Sub(flooded).Round(time.Millisecond), back.Sub(stopped).Round(time.Millisecond))

	// The flood goes on until both nodes answer SOLD_OUT after the master came back.
	for !seen.soldOutSince(back) {
		if time.Since(back) > 90*time.Second {
			t.Fatalf("90 s after master %d came back the sale is not sold out on both nodes: %d accepted, refusals %v",
				victim, res.acceptedCount(), res.refusedCopy())
		}
		time.Sleep(100 * time.Millisecond)
	}
	stopFlood()
	mark()
	seen.mu.Lock()
	firstA, firstB := seen.firstSoldOut[0], seen.firstSoldOut[1]
	seen.mu.Unlock()
	t.Logf("first SOLD_OUT answers: node A %v, node B %v into the flood (%v apart)", firstA.Sub(flooded).Round(time.Millisecond),
		firstB.Sub(flooded).Round(time.Millisecond), firstA.Sub(firstB).Abs().Round(time.Millisecond))
	t.Logf("flood ran %v; accepted before node A's kill %d, while it was away %d, before the master's kill %d, while the master was away %d, after %d",
		time.Since(flooded).Round(time.Millisecond), marks[0], marks[1]-marks[0], marks[2]-marks[1], marks[3]-marks[2], marks[4]-marks[3])
	if gen := svc.Regen.Generation(); gen == generation {
		t.Logf("the auditor is still in generation %.8s", gen)
	} else {
		t.Logf("the auditor moved to generation %.8s", gen)
	}
	if marks[0] == 0 || marks[4]-marks[3] == 0 {
		t.Errorf("claims accepted before the kills %d, after the master came back %d: want some of both", marks[0], marks[4]-marks[3])
	}

	// The worker writes what the queue holds and the nodes' reconcilers settle the rest;
	// the auditor's passes make sure. Units a FAILED claim gave back are sold again.
	settle := func() {
		t.Helper()
		drain(t, svc, sale.ID)
		for pass := 0; pass < 10; pass++ {
			rep, err := svc.Ops.Reconciler.Reconcile(ctx, svc.ReconcileConfig())
			if err != nil {
				t.Fatal(err)
			}
			if rep.StockRepaired == 0 && rep.HoldersRepaired == 0 && rep.Busy == 0 {
				return
			}
			t.Logf("reconcile pass %d: %+v", pass, rep)
			time.Sleep(500 * time.Millisecond)
		}
	}
	for round := 0; ; round++ {
		settle()
		a := drain(t, svc, sale.ID)
		if a.DBStock == 0 && a.RedisLoaded && a.RedisStock == 0 {
			break
		}
		if round == 3 {
			t.Fatalf("the sale does not sell out: %+v", a)
		}
		t.Logf("after settling, units are back on sale: %+v; claiming them", a)
		again := time.Now()
		stop = make(chan struct{})
		wait = floodNodes(hc, nodes, tokens, sale.ID, workers, pause, res, seen, stop)
		for !seen.soldOutSince(again) && time.Since(again) < 60*time.Second {
			time.Sleep(100 * time.Millisecond)
		}
		stopFlood()
	}

	// Sold out: the mark reaches every node. Node B never went away; node A was killed
	// and started again.
	soldOut := time.Now()
	for _, n := range []struct {
		name string
		url  string
	}{{"B", nodes[1]}, {"A", nodes[0]}} {
		answers := map[string]int{}
		for {
			id, code, err := claimOver(hc, n.url, tokens[rand.IntN(len(tokens))], sale.ID)
			switch {
			case err != nil:
				answers["cut: "+err.Error()]++
			case id != 0:
				res.mu.Lock()
				res.accepted = append(res.accepted, id)
				res.mu.Unlock()
				t.Errorf("node %s accepted claim %d after the sale sold out", n.name, id)
			default:
				answers[string(code)]++
			}
			if code == domain.CodeSoldOut {
				t.Logf("node %s answers SOLD_OUT %v after the sale sold out (answers %v)", n.name, time.Since(soldOut).Round(time.Millisecond), answers)
				break
			}
			if time.Since(soldOut) > markWithin {
				t.Errorf("node %s does not answer SOLD_OUT %v after the sale sold out: answers %v", n.name, markWithin, answers)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	// I1–I4, and every accepted claim one CREATED or FAILED order.
	seen.mu.Lock()
	cut, down := seen.cut, seen.down
	seen.mu.Unlock()
	// A claim cut off after it was sent may have been reserved; the reconciler then
	// completes it, as for an INTERNAL answer.
	res.refused[domain.CodeInternal] += cut
	checkAfterFault(t, svc, sale, stock, res)
	a := drain(t, svc, sale.ID)
	if !a.RedisLoaded || a.RedisStock != a.DBStock || int64(a.RedisHolders) != a.Orders.LiveUsers {
		t.Errorf("after reconciling, redis (loaded %v) has stock %d and holders %d; the database has stock %d and %d users with orders",
			a.RedisLoaded, a.RedisStock, a.RedisHolders, a.DBStock, a.Orders.LiveUsers)
	}
	t.Logf("accepted %d, orders created %d failed %d, claims cut off %d, refused while a node was down %d, total %v",
		len(res.accepted), a.Orders.Created, a.Orders.Failed, cut, down, time.Since(began).Round(time.Millisecond))
}

// startProcess starts the built binary with args on env, as a process of its own with
// its own address, waits until it is ready and kills it when the test ends; its log is
// shown should the test fail.
func startProcess(t *testing.T, bin, name string, env map[string]string, args ...string) *serverProcess {
	t.Helper()
	addr := freeAddr(t)
	procEnv := append(os.Environ(), "DEALSPOT_ADDR="+addr, "LOG_LEVEL=warn", "DEALSPOT_DATA_DIR="+t.TempDir())
	vars := map[string]string{}
	maps.Copy(vars, env)
	for k, v := range testsupport.DevModeOnPurpose(vars) {
		procEnv = append(procEnv, k+"="+v)
	}
	logFile, err := os.Create(filepath.Join(t.TempDir(), name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	p := &serverProcess{t: t, bin: bin, env: procEnv, addr: addr, log: logFile, args: args}
	t.Cleanup(func() {
		if p.cmd != nil && p.cmd.ProcessState == nil {
			p.kill(syscall.SIGKILL)
		}
		if t.Failed() {
			if out, err := os.ReadFile(logFile.Name()); err == nil {
				lines := strings.Split(strings.TrimSpace(string(out)), "\n")
				if len(lines) > 40 {
					lines = lines[len(lines)-40:]
				}
				t.Logf("%s's log, last lines:\n%s", name, strings.Join(lines, "\n"))
			}
		}
	})
	p.start()
	return p
}

// nodeAnswers is what the flood saw per node beyond accepted claims and refusals.
type nodeAnswers struct {
	mu sync.Mutex
	// firstSoldOut and lastSoldOut are when each node first and last answered SOLD_OUT.
	firstSoldOut, lastSoldOut [2]time.Time
	// cut counts claims whose answer was lost (a node killed, a timeout); down counts
	// claims a node refused the connection of, never sent.
	cut, down int
}

// soldOutSince tells whether every node has answered SOLD_OUT since t.
func (s *nodeAnswers) soldOutSince(t time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, at := range s.lastSoldOut {
		if at.Before(t) {
			return false
		}
	}
	return true
}

// refusedCopy is a copy of the flood's refusals so far.
func (r *floodResult) refusedCopy() map[domain.Code]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[domain.Code]int, len(r.refused))
	for k, v := range r.refused {
		out[k] = v
	}
	return out
}

// floodNodes makes workers claim the voucher for random users, worker i through
// urls[i%len(urls)], pausing between claims, until stop is closed; it adds what they see
// to res and seen and returns a function that waits for them.
func floodNodes(hc *http.Client, urls, tokens []string, voucherID int64, workers int, pause time.Duration,
	res *floodResult, seen *nodeAnswers, stop <-chan struct{},
) func() {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := w % len(urls)
			for {
				select {
				case <-stop:
					return
				default:
				}
				began := time.Now()
				id, code, err := claimOver(hc, urls[node], tokens[rand.IntN(len(tokens))], voucherID)
				res.mu.Lock()
				res.waits = append(res.waits, time.Since(began))
				switch {
				case err != nil:
				case id != 0:
					res.accepted = append(res.accepted, id)
				default:
					res.refused[code]++
				}
				res.mu.Unlock()
				seen.mu.Lock()
				switch {
				case errors.Is(err, syscall.ECONNREFUSED):
					seen.down++
				case err != nil:
					seen.cut++
				case code == domain.CodeSoldOut:
					seen.lastSoldOut[node] = time.Now()
					if seen.firstSoldOut[node].IsZero() {
						seen.firstSoldOut[node] = seen.lastSoldOut[node]
					}
				}
				seen.mu.Unlock()
				time.Sleep(pause)
			}
		}()
	}
	return wg.Wait
}

// claimOver claims the voucher over HTTP as the token's user and returns the order id of
// an accepted claim, or the code of a refused one, or the error of a claim whose answer
// was lost.
func claimOver(hc *http.Client, url, token string, voucherID int64) (int64, domain.Code, error) {
	resp, err := postGraphQL(hc, url, token, `mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId } }`,
		map[string]any{"v": strconv.FormatInt(voucherID, 10)})
	if len(resp.Errors) > 0 {
		return 0, domain.Code(resp.Errors[0].Code()), nil
	}
	if err != nil {
		return 0, "", err
	}
	var data struct{ ClaimVoucher struct{ OrderID string } }
	if err := json.Unmarshal(resp.Data, &data); err != nil {
		return 0, "", err
	}
	id, err := strconv.ParseInt(data.ClaimVoucher.OrderID, 10, 64)
	if err != nil {
		return 0, "", fmt.Errorf("order id %q: %w", data.ClaimVoucher.OrderID, err)
	}
	return id, "", nil
}
