package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/dealspot/dealspot/internal/service"
)

// An operation's span takes a traceparent the request carries as TRACE_INCOMING says:
// a link by default (a trace of its own, which the caller cannot get recorded or
// dropped), the parent with "parent", nothing with "ignore" — on a query through gqlgen
// and on a claim through the fast path alike.
func TestIncomingTraceparent(t *testing.T) {
	t.Parallel()
	const (
		caller      = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
		callerSpan  = "00f067aa0ba902b7"
	)
	for _, mode := range []string{"", "link", "parent", "ignore"} {
		t.Run("TRACE_INCOMING="+mode, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": "13910000101"}
			if mode != "" {
				env["TRACE_INCOMING"] = mode
			}
			recorder := tracetest.NewSpanRecorder()
			// Sample nothing started here: a span recorded under "parent" is recorded
			// because the caller's traceparent says sampled.
			sampler := sdktrace.ParentBased(sdktrace.TraceIDRatioBased(1))
			if mode == "parent" {
				sampler = sdktrace.ParentBased(sdktrace.NeverSample())
			}
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder), sdktrace.WithSampler(sampler))
			t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
			srv, _ := startService(t, env, service.WithTracerProvider(tp))
			anon := client(srv)
			admin := client(srv)
			admin.Token = login(t, anon, "13910000101").AccessToken
			sale := createFlashSale(t, admin, 5, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))

			send := func(query string, vars map[string]any) {
				t.Helper()
				body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
				req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+admin.Token)
				req.Header.Set("traceparent", caller)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s: status %d", query, resp.StatusCode)
				}
			}
			send(`query Types { shopTypes { name } }`, nil)
			send(`mutation Claim($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`, map[string]any{"v": sale})

			for _, name := range []string{"query Types", "mutation Claim"} {
				var span sdktrace.ReadOnlySpan
				for _, s := range recorder.Ended() {
					if s.Name() == name {
						span = s
					}
				}
				if span == nil {
					t.Fatalf("no span %q recorded", name)
				}
				parent, links := span.Parent(), span.Links()
				linked := len(links) == 1 && links[0].SpanContext.TraceID().String() == callerTrace && links[0].SpanContext.SpanID().String() == callerSpan
				switch mode {
				case "", "link":
					if parent.IsValid() || !linked || span.SpanContext().TraceID().String() == callerTrace {
						t.Errorf("%s: parent %v, links %v, trace %s; want a root of its own linked to the caller", name, parent, links, span.SpanContext().TraceID())
					}
				case "parent":
					if !parent.IsRemote() || parent.SpanID().String() != callerSpan || span.SpanContext().TraceID().String() != callerTrace || len(links) != 0 {
						t.Errorf("%s: parent %v, links %v; want the caller's span as parent", name, parent, links)
					}
				case "ignore":
					if parent.IsValid() || len(links) != 0 {
						t.Errorf("%s: parent %v, links %v; want neither", name, parent, links)
					}
				}
			}
		})
	}
}
