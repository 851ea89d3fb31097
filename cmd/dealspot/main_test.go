package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer collects the log of a run that is still writing while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// environment is the embedded defaults with the data in a fresh directory, plus extra.
func environment(t *testing.T, extra map[string]string) (map[string]string, func(string) string) {
	t.Helper()
	vars := map[string]string{
		"DEALSPOT_DATA_DIR": t.TempDir(),
		"DEALSPOT_ADDR":     "127.0.0.1:0",
		"LOG_LEVEL":         "info",
	}
	for k, v := range extra {
		vars[k] = v
	}
	return vars, func(k string) string { return vars[k] }
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// takenAddr is a loopback address held by the test until it ends.
func takenAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String()
}

// assertNoRepeatedPrefix fails when one wrapping step repeats the one below it, as in
// "open kafka queue: open kafka queue: …".
func assertNoRepeatedPrefix(t *testing.T, err error) {
	t.Helper()
	parts := strings.Split(err.Error(), ": ")
	for i := 1; i < len(parts); i++ {
		if parts[i] == parts[i-1] {
			t.Errorf("error repeats %q: %v", parts[i], err)
		}
	}
}

func runFailing(t *testing.T, args []string, getenv func(string) string) error {
	t.Helper()
	var log syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := runContext(ctx, args, getenv, &log)
	if err == nil {
		t.Fatalf("dealspot %v succeeded, want an error; log:\n%s", args, log.String())
	}
	assertNoRepeatedPrefix(t, err)
	return err
}

func TestTakenPortIsNamedBeforeTheDatabaseIsTouched(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"DEALSPOT_ADDR", "METRICS_ADDR"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			vars, getenv := environment(t, map[string]string{name: takenAddr(t)})
			err := runFailing(t, []string{"serve"}, getenv)
			if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "in use") {
				t.Errorf("error %q should name %s and say the address is in use", err, name)
			}
			if _, statErr := os.Stat(filepath.Join(vars["DEALSPOT_DATA_DIR"], "dealspot.db")); !os.IsNotExist(statErr) {
				t.Errorf("the database was created (migrated) before the port was checked: %v", statErr)
			}
		})
	}
}

func TestUnreachableServicesAreNamedWithoutDriverNoise(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		env     map[string]string
		setting string
	}{
		{"postgres", map[string]string{"DATABASE_URL": "postgres://postgres:hunter2@" + closedAddr(t) + "/x?sslmode=disable",
			"DEALSPOT_DEV": "true"}, "DATABASE_URL"},
		{"redis", map[string]string{"REDIS_URL": "redis://:hunter2@" + closedAddr(t) + "/0"}, "REDIS_URL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, getenv := environment(t, tc.env)
			err := runFailing(t, []string{"serve"}, getenv)
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.setting+": ") || !strings.Contains(msg, "connection refused") {
				t.Errorf("error %q should start with %s and say the connection was refused", msg, tc.setting)
			}
			for _, noise := range []string{"dial tcp", "hunter2", "redis: ", "connect: connect"} {
				if strings.Contains(msg, noise) {
					t.Errorf("error %q contains %q", msg, noise)
				}
			}
		})
	}
}

func TestWorkerRefusesEmbeddedQueueAndRedis(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		env   map[string]string
		names []string
	}{
		{"embedded defaults", nil, []string{"QUEUE", "REDIS_URL"}},
		{"redis streams on the embedded redis", map[string]string{"QUEUE": "redis"}, []string{"REDIS_URL"}},
		{"a broker but the embedded redis", map[string]string{"QUEUE": "amqp"}, []string{"REDIS_URL"}},
		{"memory queue on a shared redis", map[string]string{"REDIS_URL": "redis://" + closedAddr(t) + "/0"}, []string{"QUEUE"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			vars, getenv := environment(t, tc.env)
			err := runFailing(t, []string{"worker"}, getenv)
			for _, name := range tc.names {
				if !strings.Contains(err.Error(), name) {
					t.Errorf("error %q does not name %s", err, name)
				}
			}
			if !strings.Contains(err.Error(), "never receive") {
				t.Errorf("error %q does not say why", err)
			}
			if _, statErr := os.Stat(filepath.Join(vars["DEALSPOT_DATA_DIR"], "dealspot.db")); !os.IsNotExist(statErr) {
				t.Errorf("the worker opened the database before refusing: %v", statErr)
			}
		})
	}
}

func TestSeedSaysWhyItSkipped(t *testing.T) {
	t.Parallel()
	_, getenv := environment(t, nil)
	var first, second syncBuffer
	if err := run([]string{"seed"}, getenv, &first); err != nil {
		t.Fatalf("first seed: %v\n%s", err, first.String())
	}
	if !strings.Contains(first.String(), "seeded=true") {
		t.Errorf("first seed should report that it wrote demo data:\n%s", first.String())
	}
	if err := run([]string{"seed"}, getenv, &second); err != nil {
		t.Fatalf("second seed: %v\n%s", err, second.String())
	}
	if !strings.Contains(second.String(), "skipped") || !strings.Contains(second.String(), "not empty") {
		t.Errorf("second seed should say it skipped because the database is not empty:\n%s", second.String())
	}
}

func TestQueueErrorsAreNotWrappedTwice(t *testing.T) {
	t.Parallel()
	_, getenv := environment(t, map[string]string{"QUEUE": "kafka", "KAFKA_BROKERS": closedAddr(t)})
	err := runFailing(t, []string{"serve"}, getenv)
	if n := strings.Count(err.Error(), "open kafka queue"); n > 1 {
		t.Errorf("error %q says %q %d times", err, "open kafka queue", n)
	}
	if !strings.HasPrefix(err.Error(), "KAFKA_BROKERS: ") {
		t.Errorf("error %q should name KAFKA_BROKERS", err)
	}
}

// startServing runs serve until the test ends and waits until /healthz answers.
func startServing(t *testing.T, extra map[string]string) (addr string) {
	t.Helper()
	addr, _, _ = startServingLogged(t, extra)
	return addr
}

// freeAddr in a setting passed to startServingLogged stands for a loopback address that
// is free when the server starts; the settings handed back name the one it got.
const freeAddr = "<free loopback address>"

// startServingLogged is startServing that also hands back the server's log and the
// settings it ran with. A port found free can be taken by another process's outgoing
// connection before serve binds it; serve then refuses to start, and the start is tried
// again on fresh addresses, a few times.
func startServingLogged(t *testing.T, extra map[string]string) (addr string, log *syncBuffer, settings map[string]string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		settings = make(map[string]string, len(extra)+1)
		taken := map[string]bool{}
		fresh := func() string {
			for {
				if a := closedAddr(t); !taken[a] {
					taken[a] = true
					return a
				}
			}
		}
		for k, v := range extra {
			if v == freeAddr {
				v = fresh()
			}
			settings[k] = v
		}
		addr = fresh()
		settings["DEALSPOT_ADDR"] = addr
		var err error
		log, err = serveUntilHealthy(t, settings)
		if err == nil {
			return addr, log, settings
		}
		if !strings.Contains(err.Error(), "already in use") || attempt == 5 {
			t.Fatalf("serve stopped early: %v\n%s", err, log.String())
		}
	}
}

// serveUntilHealthy starts serve with the settings and waits until /healthz answers; an
// error is serve's own, when it stopped before answering.
func serveUntilHealthy(t *testing.T, settings map[string]string) (*syncBuffer, error) {
	t.Helper()
	_, getenv := environment(t, settings)
	ctx, cancel := context.WithCancel(context.Background())
	log := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- runContext(ctx, []string{"serve"}, getenv, log) }()
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case err := <-done:
			cancel()
			return log, err
		default:
		}
		if status(t, "http://"+settings["DEALSPOT_ADDR"]+"/healthz") == http.StatusOK {
			t.Cleanup(func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("serve ended with %v\n%s", err, log.String())
				}
			})
			return log, nil
		}
		if time.Now().After(deadline) {
			cancel()
			<-done
			t.Fatalf("server did not come up:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if strings.HasSuffix(url, "/metrics") && resp.StatusCode == http.StatusOK && !strings.Contains(string(body), "dealspot_") {
		t.Errorf("%s answered without Dealspot metrics", url)
	}
	return resp.StatusCode
}

func TestMetricsOnTheirOwnAddress(t *testing.T) {
	t.Parallel()
	addr, _, settings := startServingLogged(t, map[string]string{"METRICS_ADDR": freeAddr})
	metricsAddr := settings["METRICS_ADDR"]
	if got := status(t, "http://"+metricsAddr+"/metrics"); got != http.StatusOK {
		t.Errorf("GET /metrics on METRICS_ADDR: %d, want 200", got)
	}
	if got := status(t, "http://"+addr+"/metrics"); got != http.StatusNotFound {
		t.Errorf("GET /metrics on DEALSPOT_ADDR: %d, want 404 once metrics have their own address", got)
	}
	if got := status(t, "http://"+metricsAddr+"/graphql"); got != http.StatusNotFound {
		t.Errorf("GET /graphql on METRICS_ADDR: %d, want 404", got)
	}
}

func TestMetricsOnTheMainAddressWhenSame(t *testing.T) {
	t.Parallel()
	addr := startServing(t, map[string]string{"METRICS_ADDR": "same"})
	if got := status(t, "http://"+addr+"/metrics"); got != http.StatusOK {
		t.Errorf("GET /metrics on DEALSPOT_ADDR: %d, want 200", got)
	}
}

// Dev mode answers with login codes, so it says so at the start, in a warning that names
// the address it serves on.
func TestDevModeSaysSoAtTheStart(t *testing.T) {
	t.Parallel()
	addr, log, _ := startServingLogged(t, map[string]string{})
	var banner string
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, "level=WARN") && strings.Contains(line, "DEV MODE") {
			banner = line
		}
	}
	for _, want := range []string{"login codes", "devCode", addr, "DEALSPOT_DEV=false"} {
		if !strings.Contains(banner, want) {
			t.Errorf("the dev mode warning %q does not say %q; log:\n%s", banner, want, log.String())
		}
	}
}

func TestNoDevModeWarningOutsideDevMode(t *testing.T) {
	t.Parallel()
	_, log, _ := startServingLogged(t, map[string]string{"DEALSPOT_DEV": "false", "JWT_SECRET": strings.Repeat("k", 40),
		"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": "a-webhook-secret-0123456789"})
	if strings.Contains(log.String(), "DEV MODE") {
		t.Errorf("a dev mode warning outside dev mode:\n%s", log.String())
	}
}
