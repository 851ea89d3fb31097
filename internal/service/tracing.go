package service

import (
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/tracing"
	"github.com/dealspot/dealspot/internal/config"
)

// tracingShutdownTimeout bounds how long a stopping node waits to send its last spans.
const tracingShutdownTimeout = 5 * time.Second

// WithTracerProvider makes the node trace claims into tp (e.g. an in-memory recorder in
// tests) whatever OTEL_EXPORTER_OTLP_ENDPOINT says; the caller keeps and shuts down tp.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(o *options) { o.tracer = tp }
}

// startTracing returns the tracer provider claims are traced into: the one given by
// WithTracerProvider, else an OTLP/HTTP exporter when the configuration names an
// endpoint, else nil (tracing off: no span is started anywhere). An exporting provider
// sends its last spans at stop, which the node calls when it closes, after the order
// consumer has stopped.
func startTracing(o options, cfg config.Tracing, log *slog.Logger) (_ trace.TracerProvider, stop func() error, _ error) {
	if o.tracer != nil {
		return o.tracer, nothingToStop, nil
	}
	if !cfg.On() {
		return nil, nothingToStop, nil
	}
	p, err := tracing.New(tracing.Config{Endpoint: cfg.Endpoint, SampleRatio: cfg.SampleRatio, ServiceName: cfg.ServiceName,
		OnError: func(err error) { log.Warn("tracing", slog.Any("error", err)) }})
	if err != nil {
		return nil, nil, blame("OTEL_EXPORTER_OTLP_ENDPOINT", "the trace collector", urlHost(cfg.Endpoint), err)
	}
	stop = func() error {
		if err := p.Shutdown(tracingShutdownTimeout); err != nil {
			log.Warn("spans not sent at stop", slog.Any("error", err))
		}
		return nil
	}
	log.Info("tracing on", slog.String("endpoint", urlHost(cfg.Endpoint)), slog.Float64("sample_ratio", cfg.SampleRatio))
	return p, stop, nil
}
