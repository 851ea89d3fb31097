// Package tracing builds the OpenTelemetry tracer provider that exports Dealspot's spans
// over OTLP/HTTP. The rest of the tree uses only the OpenTelemetry API: the GraphQL
// operation starts a claim's trace, and each hop below (use case, gate, queue, order
// writer, SQL statements, status events) adds a span only inside a recorded trace, so
// that with tracing off nothing is started or allocated.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Config shapes the exporting provider.
type Config struct {
	// Endpoint is the collector's OTLP/HTTP base URL (http://host:4318); spans go to its
	// /v1/traces unless the URL names a path of its own.
	Endpoint string
	// SampleRatio is the share of new traces recorded (0..1); a trace begun by a caller
	// keeps the caller's decision.
	SampleRatio float64
	// ServiceName is the service.name of every span.
	ServiceName string
	// ExportTimeout bounds one export request (default 10s).
	ExportTimeout time.Duration
	// OnError, when set, is told what the exporter could not do (a collector away, a
	// full queue), instead of the standard logger. OpenTelemetry keeps one handler per
	// process: the last provider built sets it.
	OnError func(error)
}

// Provider exports spans in batches, off the request path: a slow or unreachable
// collector drops spans (the batch queue is bounded) and never holds up a claim.
type Provider struct {
	*sdktrace.TracerProvider
}

// New returns the exporting provider for cfg. It opens no connection: the exporter
// connects when it first sends a batch.
func New(cfg Config) (*Provider, error) {
	if cfg.Endpoint == "" {
		return nil, errors.New("tracing: no OTLP endpoint")
	}
	u, err := url.Parse(cfg.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("tracing: endpoint: %w", err)
	}
	if strings.Trim(u.Path, "/") == "" {
		u.Path = "/v1/traces"
	}
	timeout := cfg.ExportTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	exp, err := otlptracehttp.New(context.Background(),
		otlptracehttp.WithEndpointURL(u.String()),
		otlptracehttp.WithTimeout(timeout),
		// Retries would hold a batch for up to a minute; a lost batch of spans is
		// cheaper than a growing queue.
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}),
	)
	if err != nil {
		return nil, fmt.Errorf("tracing: exporter: %w", err)
	}
	if cfg.OnError != nil {
		otel.SetErrorHandler(otel.ErrorHandlerFunc(cfg.OnError))
	}
	name := cfg.ServiceName
	if name == "" {
		name = "dealspot"
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(cfg.SampleRatio))),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", name))),
	)
	return &Provider{TracerProvider: tp}, nil
}

// Shutdown sends the spans still queued and stops the exporter, waiting at most
// timeout: a collector that is away does not hold up the process's stop.
func (p *Provider) Shutdown(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := p.TracerProvider.Shutdown(ctx); err != nil {
		return fmt.Errorf("tracing: flush spans: %w", err)
	}
	return nil
}
