package service

import (
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/dealspot/dealspot/adapters/tracing"
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
// sends its last spans when the node closes, after the order consumer has stopped.
func (s *Node) startTracing(o options) (trace.TracerProvider, error) {
	if o.tracer != nil {
		return o.tracer, nil
	}
	cfg := s.Config.Tracing
	if !cfg.On() {
		return nil, nil
	}
	p, err := tracing.New(tracing.Config{Endpoint: cfg.Endpoint, SampleRatio: cfg.SampleRatio, ServiceName: cfg.ServiceName,
		OnError: func(err error) { s.Log.Warn("tracing", slog.Any("error", err)) }})
	if err != nil {
		return nil, blame("OTEL_EXPORTER_OTLP_ENDPOINT", "the trace collector", urlHost(cfg.Endpoint), err)
	}
	s.closers = append(s.closers, func() error {
		if err := p.Shutdown(tracingShutdownTimeout); err != nil {
			s.Log.Warn("spans not sent at stop", slog.Any("error", err))
		}
		return nil
	})
	s.Log.Info("tracing on", slog.String("endpoint", urlHost(cfg.Endpoint)), slog.Float64("sample_ratio", cfg.SampleRatio))
	return p, nil
}
