package config

import (
	"net/url"
	"strconv"
)

// Tracing configures OpenTelemetry tracing. It is off unless an OTLP endpoint is set.
type Tracing struct {
	// Endpoint is the base URL of an OTLP/HTTP collector, such as http://127.0.0.1:4318
	// (OTEL_EXPORTER_OTLP_ENDPOINT, the standard variable; empty: tracing off). Spans go
	// to its /v1/traces.
	Endpoint string
	// SampleRatio is the share of traces started here that are recorded, 0 to 1
	// (TRACE_SAMPLE_RATIO; default 1). A trace begun upstream keeps its caller's choice.
	SampleRatio float64
	// ServiceName names this process in the traces (OTEL_SERVICE_NAME; default dealspot).
	ServiceName string
	// Incoming says what an operation's span does with a W3C traceparent the request
	// carries (TRACE_INCOMING): TraceIncomingLink (default) starts a trace of its own
	// linked to the caller's span, TraceIncomingParent continues the caller's trace (and
	// follows its sampling decision; for a trusted gateway in front), TraceIncomingIgnore
	// disregards it.
	Incoming string
}

// What an operation's span does with an incoming traceparent (TRACE_INCOMING).
const (
	TraceIncomingLink   = "link"
	TraceIncomingParent = "parent"
	TraceIncomingIgnore = "ignore"
)

// On reports whether traces are exported.
func (t Tracing) On() bool { return t.Endpoint != "" }

func (r *reader) tracing() Tracing {
	t := Tracing{
		Endpoint:    r.str("OTEL_EXPORTER_OTLP_ENDPOINT", ""),
		SampleRatio: 1,
		ServiceName: r.str("OTEL_SERVICE_NAME", "dealspot"),
		Incoming:    r.str("TRACE_INCOMING", TraceIncomingLink),
	}
	switch t.Incoming {
	case TraceIncomingLink, TraceIncomingParent, TraceIncomingIgnore:
	default:
		r.fail("TRACE_INCOMING", "want link, parent or ignore, got %q", t.Incoming)
		t.Incoming = TraceIncomingLink
	}
	if t.Endpoint != "" {
		if u, err := url.Parse(t.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			r.fail("OTEL_EXPORTER_OTLP_ENDPOINT", "want the collector's OTLP/HTTP base URL such as http://127.0.0.1:4318, got %q", t.Endpoint)
			t.Endpoint = ""
		}
	}
	if v := r.str("TRACE_SAMPLE_RATIO", ""); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1 {
			r.fail("TRACE_SAMPLE_RATIO", "want a number from 0 to 1, got %q", v)
		} else {
			t.SampleRatio = f
		}
	}
	return t
}
