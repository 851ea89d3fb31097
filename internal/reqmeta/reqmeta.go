// Package reqmeta carries per-request facts (request id, client IP) through a context.
package reqmeta

import "context"

// Meta describes the request being served.
type Meta struct {
	RequestID string
	ClientIP  string
}

type key struct{}

// With returns ctx carrying m.
func With(ctx context.Context, m Meta) context.Context { return context.WithValue(ctx, key{}, m) }

// From returns the request's facts, or the zero Meta outside a request.
func From(ctx context.Context) Meta {
	m, _ := ctx.Value(key{}).(Meta)
	return m
}
