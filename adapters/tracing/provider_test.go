package tracing_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/tracing"
)

func TestSpansReachTheCollector(t *testing.T) {
	t.Parallel()
	var got atomic.Int64
	var path atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path.Store(r.URL.Path)
		got.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	p, err := tracing.New(tracing.Config{Endpoint: srv.URL, SampleRatio: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, span := p.Tracer("test").Start(context.Background(), "one")
	span.End()
	if err := p.Shutdown(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if got.Load() == 0 {
		t.Fatal("the collector received nothing")
	}
	if path.Load() != "/v1/traces" {
		t.Errorf("path %v, want /v1/traces", path.Load())
	}
}

// An unreachable collector costs the spans, never the caller: starting and ending spans
// does not block, and the stop ends within its timeout.
func TestUnreachableCollectorDoesNotHoldUpCallers(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close() // nothing listens there now
	var failures atomic.Int64
	p, err := tracing.New(tracing.Config{Endpoint: "http://" + addr, SampleRatio: 1, ExportTimeout: 200 * time.Millisecond,
		OnError: func(error) { failures.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for range 10_000 {
		_, span := p.Tracer("test").Start(context.Background(), "claim")
		span.End()
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("10,000 spans took %v with the collector away", d)
	}
	start = time.Now()
	_ = p.Shutdown(time.Second) // the spans are lost; the error says so
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("shutdown took %v, want at most about its timeout", d)
	}
	if failures.Load() == 0 {
		t.Error("the failed export was not reported to OnError")
	}
}

func TestNewNeedsAnEndpoint(t *testing.T) {
	t.Parallel()
	if _, err := tracing.New(tracing.Config{}); err == nil {
		t.Fatal("New without an endpoint succeeded")
	}
}

// A collector that takes requests and never answers holds up neither spans nor the stop
// for longer than its timeout.
func TestSilentCollectorDoesNotHoldUpTheStop(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	p, err := tracing.New(tracing.Config{Endpoint: srv.URL, SampleRatio: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		_, span := p.Tracer("test").Start(context.Background(), "claim")
		span.End()
	}
	start := time.Now()
	_ = p.Shutdown(time.Second)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("shutdown took %v with a silent collector, want about its 1s timeout", d)
	}
}
