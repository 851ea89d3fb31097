package queue

import (
	"context"
	"log/slog"

	"github.com/ThreeDotsLabs/watermill"
)

// levelLogger is watermill's slog adapter that first asks whether a level is logged at
// all: the router traces every message it handles, and the plain adapter turns each
// message's fields into slog attributes before slog drops them (a tenth of the
// consumer's allocations per claim).
type levelLogger struct {
	log  *slog.Logger
	next watermill.LoggerAdapter
}

func newLevelLogger(log *slog.Logger) watermill.LoggerAdapter {
	return &levelLogger{log: log, next: watermill.NewSlogLogger(log)}
}

func (l *levelLogger) enabled(level slog.Level) bool {
	return l.log.Enabled(context.Background(), level)
}

func (l *levelLogger) Error(msg string, err error, fields watermill.LogFields) {
	if l.enabled(slog.LevelError) {
		l.next.Error(msg, err, fields)
	}
}

func (l *levelLogger) Info(msg string, fields watermill.LogFields) {
	if l.enabled(slog.LevelInfo) {
		l.next.Info(msg, fields)
	}
}

func (l *levelLogger) Debug(msg string, fields watermill.LogFields) {
	if l.enabled(slog.LevelDebug) {
		l.next.Debug(msg, fields)
	}
}

func (l *levelLogger) Trace(msg string, fields watermill.LogFields) {
	if l.enabled(watermill.LevelTrace) {
		l.next.Trace(msg, fields)
	}
}

func (l *levelLogger) With(fields watermill.LogFields) watermill.LoggerAdapter {
	return &levelLogger{log: l.log, next: l.next.With(fields)}
}
