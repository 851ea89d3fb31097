package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dealspot/dealspot/internal/server"
)

func TestReadyzReportsWarningsWithoutBecomingUnready(t *testing.T) {
	t.Parallel()
	ok := func(context.Context) error { return nil }
	cases := []struct {
		name     string
		ready    map[string]server.Check
		warnings map[string]server.Warning
		code     int
		want     map[string]string
	}{
		{"no warning", map[string]server.Check{"redis": ok},
			map[string]server.Warning{"redis_persistence": func(context.Context) string { return "" }},
			http.StatusOK, nil},
		{"a warning keeps it ready", map[string]server.Check{"redis": ok},
			map[string]server.Warning{"redis_persistence": func(context.Context) string { return "no persistence" }},
			http.StatusOK, map[string]string{"redis_persistence": "no persistence"}},
		{"a failed check still makes it unready", map[string]server.Check{"redis": func(context.Context) error { return errors.New("down") }},
			map[string]server.Warning{"redis_persistence": func(context.Context) string { return "no persistence" }},
			http.StatusServiceUnavailable, map[string]string{"redis_persistence": "no persistence"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := server.NewHandler(server.Options{Log: slog.New(slog.DiscardHandler), Metrics: server.NewMetrics(), Ready: tc.ready, Warnings: tc.warnings})
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
			var body struct {
				Redis    string
				Warnings map[string]string
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %q: %v", rec.Body.String(), err)
			}
			if rec.Code != tc.code || len(body.Warnings) != len(tc.want) || body.Warnings["redis_persistence"] != tc.want["redis_persistence"] {
				t.Fatalf("/readyz = %d %s; want %d with warnings %v", rec.Code, rec.Body.String(), tc.code, tc.want)
			}
		})
	}
}
