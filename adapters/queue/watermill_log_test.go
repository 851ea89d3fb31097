package queue

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/ThreeDotsLabs/watermill"
)

// The level-aware adapter logs what its logger's level lets through, with the fields,
// and nothing below it.
func TestLevelLoggerKeepsTheLevel(t *testing.T) {
	var buf bytes.Buffer
	l := newLevelLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))).
		With(watermill.LogFields{"topic": "orders"})
	l.Trace("traced", watermill.LogFields{"n": 1})
	l.Debug("debugged", watermill.LogFields{"n": 2})
	l.Info("informed", watermill.LogFields{"n": 3})
	l.Error("failed", nil, watermill.LogFields{"n": 4})
	out := buf.String()
	for _, want := range []string{"informed", "failed", "n=3", "n=4", "topic=orders"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"traced", "debugged"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("log has %q below its level:\n%s", unwanted, out)
		}
	}
	buf.Reset()
	debug := newLevelLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: watermill.LevelTrace})))
	debug.Trace("traced", watermill.LogFields{"n": 5})
	if !strings.Contains(buf.String(), "traced") || !strings.Contains(buf.String(), "n=5") {
		t.Errorf("trace level: %s", buf.String())
	}
}
