package config_test

import (
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/config"
)

func TestTracingIsOffByDefault(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Tracing.On() {
		t.Errorf("tracing on without OTEL_EXPORTER_OTLP_ENDPOINT: %+v", c.Tracing)
	}
}

func TestTracingSettings(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318",
		"TRACE_SAMPLE_RATIO":          "0.25",
		"OTEL_SERVICE_NAME":           "dealspot-eu",
		"TRACE_INCOMING":              "parent",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := config.Tracing{Endpoint: "http://127.0.0.1:4318", SampleRatio: 0.25, ServiceName: "dealspot-eu", Incoming: config.TraceIncomingParent}
	if c.Tracing != want || !c.Tracing.On() {
		t.Errorf("Tracing = %+v, want %+v, on", c.Tracing, want)
	}
	c, err = config.Load(env(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector:4318"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Tracing.SampleRatio != 1 || c.Tracing.ServiceName != "dealspot" || c.Tracing.Incoming != config.TraceIncomingLink {
		t.Errorf("defaults = %+v, want ratio 1, service dealspot, incoming link", c.Tracing)
	}
}

func TestTracingSettingsAreChecked(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, variable, value string
	}{
		{"endpoint without scheme", "OTEL_EXPORTER_OTLP_ENDPOINT", "127.0.0.1:4318"},
		{"endpoint of another scheme", "OTEL_EXPORTER_OTLP_ENDPOINT", "grpc://127.0.0.1:4317"},
		{"ratio above one", "TRACE_SAMPLE_RATIO", "1.5"},
		{"ratio below zero", "TRACE_SAMPLE_RATIO", "-0.1"},
		{"ratio not a number", "TRACE_SAMPLE_RATIO", "half"},
		{"incoming neither link, parent nor ignore", "TRACE_INCOMING", "follow"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := config.Load(env(map[string]string{tc.variable: tc.value}))
			if err == nil || !strings.Contains(err.Error(), tc.variable) {
				t.Errorf("%s=%s: error %v, want one naming %s", tc.variable, tc.value, err, tc.variable)
			}
		})
	}
}
