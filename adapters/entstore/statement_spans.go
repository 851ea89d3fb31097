package entstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

const tracerName = "github.com/dealspot/dealspot/adapters/entstore"

// dbSystem is the OpenTelemetry db.system.name of a database/sql driver name.
func dbSystem(driverName string) string {
	if driverName == "postgres" {
		return "postgresql"
	}
	return driverName
}

// statementSpan starts a span for one statement under the span ctx carries, when that
// span is recorded (the order writer's batch, a traced request); otherwise it returns
// ctx and nil at no cost. The span holds the statement's text, never its arguments.
func (c *countingConn) statementSpan(ctx context.Context, query string) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx, nil
	}
	ctx, span := parent.TracerProvider().Tracer(tracerName).Start(ctx, statementName(query),
		trace.WithSpanKind(trace.SpanKindClient))
	span.SetAttributes(attribute.String("db.system.name", c.system), attribute.String("db.query.text", query))
	return ctx, span
}

// endStatementSpan ends span (nil: none), marking it failed on an error other than
// driver.ErrSkip (database/sql then runs the statement another way, in a span of its own).
func endStatementSpan(span trace.Span, err error) {
	if span == nil {
		return
	}
	if err != nil && !errors.Is(err, driver.ErrSkip) {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// statementName is a statement's span name: its first keyword (SELECT, INSERT …).
func statementName(query string) string {
	q := strings.TrimSpace(query)
	if i := strings.IndexAny(q, " \t\n("); i > 0 {
		q = q[:i]
	}
	if q == "" {
		return "statement"
	}
	return strings.ToUpper(q)
}
