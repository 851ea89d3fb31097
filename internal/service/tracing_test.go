package service_test

import (
	"context"
	"log/slog"
	"maps"
	"net"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestClaimIsTracedEndToEnd follows one claim's trace, recorded in memory, from the
// GraphQL operation through the use case, the gate and the queue (the trace context in
// the message's metadata) to the order writer's batch, its SQL and the status event, on
// every queue backend. With TEST_DATABASE_URL and TEST_REDIS_URL set it runs on
// PostgreSQL and Redis too.
func TestClaimIsTracedEndToEnd(t *testing.T) {
	t.Parallel()
	type setup struct {
		name  string
		queue string
		real  bool // PostgreSQL and Redis
	}
	setups := []setup{{"embedded, memory queue", "memory", false}, {"embedded, redis queue", "redis", false},
		{"embedded, kafka queue", "kafka", false}}
	if os.Getenv(testsupport.EnvAMQP) != "" {
		setups = append(setups, setup{"embedded, amqp queue", "amqp", false})
	}
	if os.Getenv(testsupport.EnvPostgres) != "" && os.Getenv(testsupport.EnvRedis) != "" {
		setups = append(setups, setup{"postgres and redis, redis queue", "redis", true})
	}
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			env := merge(queueEnv(t, s.queue), map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": "13910000001"})
			if s.real {
				env["DATABASE_URL"] = testsupport.PostgresURL(t)
				env["REDIS_URL"] = testsupport.RedisURL(t)
			}
			recorder := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
			t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
			srv, _ := startService(t, env, service.WithTracerProvider(tp))

			anon := client(srv)
			admin := client(srv)
			admin.Token = login(t, anon, "13910000001").AccessToken
			alice := client(srv)
			alice.Token = login(t, anon, "13910000002").AccessToken
			sale := createFlashSale(t, admin, 5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))

			var a claimAnswer
			alice.Do(t, claimMutation, map[string]any{"v": sale}).Decode(t, &a)
			if a.ClaimVoucher.Status != "PENDING" {
				t.Fatalf("claim = %+v", a)
			}
			if got := waitOrder(t, alice, a.ClaimVoucher.OrderID); got != "CREATED" {
				t.Fatalf("order ended %s, want CREATED", got)
			}
			tr := waitForTrace(t, recorder, a.ClaimVoucher.OrderID)
			tr.check(t, s.queue)
		})
	}
}

// claimTrace is the ended spans of one trace, found by its Mutation.claimVoucher span.
type claimTrace struct {
	spans []sdktrace.ReadOnlySpan
	order string
}

// waitForTrace waits until the claim's trace holds the status event of its order and
// the batch span that published it has ended.
func waitForTrace(t *testing.T, r *tracetest.SpanRecorder, orderID string) claimTrace {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		tr := claimTrace{order: orderID}
		var id trace.TraceID
		for _, s := range r.Ended() {
			if s.Name() == "Mutation.claimVoucher" {
				id = s.SpanContext().TraceID()
			}
		}
		for _, s := range r.Ended() {
			if id.IsValid() && s.SpanContext().TraceID() == id {
				tr.spans = append(tr.spans, s)
			}
		}
		if tr.find("order.status publish") != nil && tr.find("orders process") != nil {
			return tr
		}
		if time.Now().After(deadline) {
			var names []string
			for _, s := range tr.spans {
				names = append(names, s.Name())
			}
			t.Fatalf("the claim's trace has not reached the status event in 10s; it holds %v", names)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (tr claimTrace) find(name string) sdktrace.ReadOnlySpan {
	for _, s := range tr.spans {
		if s.Name() == name {
			return s
		}
	}
	return nil
}

func (tr claimTrace) byID(id trace.SpanID) sdktrace.ReadOnlySpan {
	for _, s := range tr.spans {
		if s.SpanContext().SpanID() == id {
			return s
		}
	}
	return nil
}

// ancestor reports whether a is s's parent, or its parent's, and so on.
func (tr claimTrace) ancestor(a, s sdktrace.ReadOnlySpan) bool {
	for s != nil && s.Parent().IsValid() {
		if s.Parent().SpanID() == a.SpanContext().SpanID() {
			return true
		}
		s = tr.byID(s.Parent().SpanID())
	}
	return false
}

func attr(s sdktrace.ReadOnlySpan, key string) attribute.Value {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value
		}
	}
	return attribute.Value{}
}

func (tr claimTrace) check(t *testing.T, queue string) {
	t.Helper()
	must := func(name string) sdktrace.ReadOnlySpan {
		t.Helper()
		s := tr.find(name)
		if s == nil {
			t.Fatalf("no %q span in the claim's trace", name)
		}
		return s
	}
	childOf := func(child, parent sdktrace.ReadOnlySpan) {
		t.Helper()
		if child.Parent().SpanID() != parent.SpanContext().SpanID() {
			t.Errorf("%q's parent is %v, want %q (%v)", child.Name(), child.Parent().SpanID(), parent.Name(), parent.SpanContext().SpanID())
		}
	}
	op := must("mutation")
	if op.Parent().IsValid() || op.SpanKind() != trace.SpanKindServer {
		t.Errorf("operation span: parent %v, kind %v; want a root server span", op.Parent(), op.SpanKind())
	}
	field := must("Mutation.claimVoucher")
	childOf(field, op)
	claim := must("seckill.ClaimVoucher")
	childOf(claim, field)
	if got := strconv.FormatInt(attr(claim, "dealspot.order_id").AsInt64(), 10); got != tr.order {
		t.Errorf("claim span's order id %s, want %s", got, tr.order)
	}
	gate := must("seckill.gate reserve")
	childOf(gate, claim)

	var publish sdktrace.ReadOnlySpan
	for _, s := range tr.spans {
		if strings.HasSuffix(s.Name(), " publish") && s.Name() != "order.status publish" {
			publish = s
		}
	}
	if publish == nil {
		t.Fatal("no publish span in the claim's trace")
	}
	if publish.SpanKind() != trace.SpanKindProducer || attr(publish, "messaging.message.id").AsString() != tr.order {
		t.Errorf("publish span %q: kind %v, message id %q; want a producer of order %s",
			publish.Name(), publish.SpanKind(), attr(publish, "messaging.message.id").AsString(), tr.order)
	}
	if queue == "redis" {
		childOf(publish, gate) // the gate's script XADDs the message
	} else {
		childOf(publish, claim)
	}

	process := must("orders process")
	childOf(process, publish)
	if process.SpanKind() != trace.SpanKindConsumer {
		t.Errorf("orders process kind %v, want consumer", process.SpanKind())
	}
	linked := false
	for _, l := range process.Links() {
		linked = linked || l.SpanContext.SpanID() == publish.SpanContext().SpanID()
	}
	if !linked {
		t.Errorf("orders process links %v, want one to the publish span", process.Links())
	}

	var insert sdktrace.ReadOnlySpan
	for _, s := range tr.spans {
		if s.SpanKind() == trace.SpanKindClient && attr(s, "db.system.name").AsString() != "" &&
			attr(s, "db.system.name").AsString() != "redis" && tr.ancestor(process, s) &&
			strings.Contains(attr(s, "db.query.text").AsString(), "INSERT INTO voucher_orders") {
			insert = s
		}
	}
	if insert == nil {
		// On PostgreSQL the batch is one statement (WITH … INSERT …), so it is named WITH.
		t.Error("no statement span inserting the orders under orders process")
	} else if name := insert.Name(); name != "INSERT" && name != "WITH" {
		t.Errorf("the orders' statement span is named %q, want its first keyword", name)
	}

	status := must("order.status publish")
	if !tr.ancestor(process, status) {
		t.Errorf("the status event's span is not under orders process")
	}
	if got := attr(status, "dealspot.order_status").AsString(); got != string(domain.OrderCreated) {
		t.Errorf("status event span says %q, want CREATED", got)
	}
}

// TestClaimWithTracingOffRecordsNothing: with tracing off (no endpoint, no provider) a
// claim works, no span reaches even a recorder installed as the process's global
// provider, and the claim path's context carries no span to publish.
func TestClaimWithTracingOffRecordsNothing(t *testing.T) {
	// Not parallel: it swaps the process's global provider.
	recorder := tracetest.NewSpanRecorder()
	global := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder)))
	t.Cleanup(func() { otel.SetTracerProvider(global) })

	var traced atomic.Bool
	srv, _ := startService(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": "13910000011"},
		service.WithClaimPublisher(func(p seckill.ClaimPublisher) seckill.ClaimPublisher {
			return publisherFunc(func(ctx context.Context, c domain.Claim) error {
				if trace.SpanContextFromContext(ctx).IsValid() {
					traced.Store(true)
				}
				return p.PublishClaim(ctx, c)
			})
		}))
	anon := client(srv)
	admin := client(srv)
	admin.Token = login(t, anon, "13910000011").AccessToken
	alice := client(srv)
	alice.Token = login(t, anon, "13910000012").AccessToken
	sale := createFlashSale(t, admin, 5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	var a claimAnswer
	alice.Do(t, claimMutation, map[string]any{"v": sale}).Decode(t, &a)
	if got := waitOrder(t, alice, a.ClaimVoucher.OrderID); got != "CREATED" {
		t.Fatalf("order ended %s, want CREATED", got)
	}
	if traced.Load() {
		t.Error("the claim was published with a span in its context")
	}
	if n := len(recorder.Ended()) + len(recorder.Started()); n != 0 {
		t.Errorf("%d spans recorded with tracing off", n)
	}
}

type publisherFunc func(ctx context.Context, c domain.Claim) error

func (f publisherFunc) PublishClaim(ctx context.Context, c domain.Claim) error { return f(ctx, c) }

// TestClaimWithUnreachableCollector: a collector that is away costs the spans, never a
// claim, and the node still stops promptly (the last spans are given up after a timeout).
func TestClaimWithUnreachableCollector(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String()
	_ = l.Close() // nothing listens there now
	env := map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": "13910000021", "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}
	vars := map[string]string{"DEALSPOT_DATA_DIR": t.TempDir()}
	maps.Copy(vars, env)
	testsupport.DevModeOnPurpose(vars)
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	srv := httptest.NewServer(svc.Handler)
	defer srv.Close()
	closed := false
	defer func() {
		if !closed {
			_ = svc.Close()
		}
	}()

	anon := client(srv)
	admin := client(srv)
	admin.Token = login(t, anon, "13910000021").AccessToken
	alice := client(srv)
	alice.Token = login(t, anon, "13910000022").AccessToken
	sale := createFlashSale(t, admin, 5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
	var a claimAnswer
	alice.Do(t, claimMutation, map[string]any{"v": sale}).Decode(t, &a)
	if got := waitOrder(t, alice, a.ClaimVoucher.OrderID); got != "CREATED" {
		t.Fatalf("order ended %s, want CREATED", got)
	}
	start := time.Now()
	closed = true
	if err := svc.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the node took %v to stop with the collector away", d)
	}
}
