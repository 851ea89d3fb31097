package model

import (
	"encoding/json"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/dealspot/dealspot/internal/domain"
)

// MarshalTime writes the Time scalar: RFC 3339 with nanoseconds, as gqlgen's own.
func MarshalTime(t time.Time) graphql.Marshaler {
	return graphql.MarshalTime(t)
}

// UnmarshalTime reads the Time scalar, an RFC 3339 string; anything else is a
// BAD_USER_INPUT error (gqlgen's own returns an uncoded error, shown as INTERNAL).
func UnmarshalTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		if _, isNumber := v.(json.Number); isNumber {
			return time.Time{}, domain.Errorf(domain.CodeBadUserInput, "a Time is an RFC 3339 string, not a number")
		}
		return time.Time{}, domain.Errorf(domain.CodeBadUserInput, "a Time is an RFC 3339 string (2026-11-22T10:00:00Z)")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, domain.Errorf(domain.CodeBadUserInput, "%q is not an RFC 3339 time (2026-11-22T10:00:00Z)", truncate(s, 64))
	}
	return t, nil
}

// truncate shortens s for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
