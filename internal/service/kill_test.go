package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// serverKills is how often the kill test kills the server; the stress build kills more.
var serverKills = 2

// freeAddr returns a loopback address nobody listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// builtServer is cmd/dealspot compiled once for every test of this package that runs
// the server as a process of its own: concurrent `go build`s of the same program each
// compile it all, which on a busy machine costs minutes per test.
var builtServer struct {
	once sync.Once
	bin  string
	err  error
	out  []byte
}

// buildServer returns the path of cmd/dealspot compiled for this test binary; the file
// is removed when the package's tests end (TestMain).
func buildServer(t *testing.T) string {
	t.Helper()
	b := &builtServer
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "dealspot-server-")
		if err != nil {
			b.err = err
			return
		}
		serverBinDir = dir
		b.bin = filepath.Join(dir, "dealspot")
		cmd := exec.Command("go", "build", "-o", b.bin, "../../cmd/dealspot")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		b.out, b.err = cmd.CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("build server: %v\n%s", b.err, b.out)
	}
	return b.bin
}

type serverProcess struct {
	t    *testing.T
	bin  string
	env  []string
	addr string
	cmd  *exec.Cmd
	log  *os.File
	// args are the command and its arguments; none is serve.
	args []string
}

func (p *serverProcess) start() {
	p.t.Helper()
	args := p.args
	if len(args) == 0 {
		args = []string{"serve"}
	}
	p.cmd = exec.Command(p.bin, args...)
	p.cmd.Env = p.env
	// Should the test binary die (a panic, a timeout), the server dies with it instead
	// of living on in the Redis database the next test reserves.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		p.t.Fatalf("start server: %v", err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + p.addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("server did not become ready; log in %s", p.log.Name())
}

func (p *serverProcess) kill(sig syscall.Signal) {
	_ = p.cmd.Process.Signal(sig)
	_, _ = p.cmd.Process.Wait()
}

// startKillable starts the server binary as a process of its own on env (real
// PostgreSQL and Redis, an admin phone), to be killed; it returns the process, a client
// and an admin's client. The process is killed when the test ends.
func startKillable(t *testing.T, env map[string]string, adminPhone string) (*serverProcess, testsupport.GraphQLClient, testsupport.GraphQLClient) {
	t.Helper()
	if env["DATABASE_URL"] == "" {
		env["DATABASE_URL"] = testsupport.PostgresURL(t)
	}
	if env["REDIS_URL"] == "" {
		env["REDIS_URL"] = testsupport.RedisURL(t)
	}
	base := map[string]string{
		"QUEUE": "redis", "JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
		"CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "500ms",
		"LOG_LEVEL": "warn", "DEALSPOT_DATA_DIR": t.TempDir(),
	}
	for k, v := range base {
		if _, set := env[k]; !set {
			env[k] = v
		}
	}
	testsupport.DevModeOnPurpose(env)
	addr := freeAddr(t)
	procEnv := append(os.Environ(), "DEALSPOT_ADDR="+addr)
	for k, v := range env {
		procEnv = append(procEnv, k+"="+v)
	}
	logFile, err := os.Create(filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	p := &serverProcess{t: t, bin: buildServer(t), env: procEnv, addr: addr, log: logFile}
	p.start()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.kill(syscall.SIGKILL)
		}
	})
	c := testsupport.GraphQLClient{URL: "http://" + addr + "/graphql"}
	admin := c
	admin.Token = login(t, c, adminPhone).AccessToken
	return p, c, admin
}

func TestServerKilledMidFloodLosesNothing(t *testing.T) {
	t.Parallel()
	env := map[string]string{"RECONCILE_REPUBLISH_AFTER": "2s"}
	p, c, admin := startKillable(t, env, "13700000000")
	const stock = 400
	vid := createFlashSale(t, admin, stock, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	tokens := make([]string, 600)
	for i := range tokens {
		tokens[i] = login(t, c, fmt.Sprintf("136%08d", i)).AccessToken
	}

	var (
		mu       sync.Mutex
		accepted []string
		stop     = make(chan struct{})
		wg       sync.WaitGroup
	)
	client := &http.Client{Timeout: 5 * time.Second}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				body := fmt.Sprintf(`{"query":"mutation { claimVoucher(voucherId: \"%s\") { orderId } }"}`, vid)
				req, _ := http.NewRequest(http.MethodPost, c.URL, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+tokens[rand.IntN(len(tokens))])
				resp, err := client.Do(req)
				if err != nil {
					time.Sleep(20 * time.Millisecond) // the server is down
					continue
				}
				var out struct {
					Data *struct{ ClaimVoucher *struct{ OrderID string } }
				}
				_ = jsonDecode(resp, &out)
				if out.Data != nil && out.Data.ClaimVoucher != nil {
					mu.Lock()
					accepted = append(accepted, out.Data.ClaimVoucher.OrderID)
					mu.Unlock()
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	for range serverKills {
		time.Sleep(time.Duration(200+rand.IntN(600)) * time.Millisecond)
		p.kill(syscall.SIGKILL)
		p.start()
	}
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()
	p.kill(syscall.SIGTERM)

	// Audit with an in-process service on the same database and Redis: it consumes what
	// is left and reconciles, then the books must balance.
	_, svc := startService(t, env)
	var vID int64
	fmt.Sscan(vid, &vID)
	a := drain(t, svc, vID)
	for _, bad := range a.Check(stock) {
		t.Error(bad)
	}
	for _, id := range accepted {
		var oid int64
		fmt.Sscan(id, &oid)
		o, err := svc.Store.Orders().Order(context.Background(), oid)
		if err != nil || (o.Status != "CREATED" && o.Status != "FAILED") {
			t.Errorf("accepted claim %s: %+v %v", id, o, err)
		}
	}
	t.Logf("%d kills, %d claims accepted, audit %+v", serverKills, len(accepted), a)
	if len(accepted) == 0 {
		t.Error("no claim was accepted")
	}
}

func jsonDecode(resp *http.Response, v any) error {
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}
