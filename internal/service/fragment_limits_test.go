package service_test

import (
	"strings"
	"testing"
)

// GRAPHQL_MAX_FRAGMENTS and GRAPHQL_MAX_SPREAD_TOKENS reach the handler.
func TestFragmentLimitsAreSettings(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"GRAPHQL_MAX_FRAGMENTS": "2", "GRAPHQL_MAX_SPREAD_TOKENS": "30"})
	c := client(srv)
	for name, doc := range map[string]string{
		"three fragments": `{ ...A } fragment A on Query { ...B } fragment B on Query { ...C } fragment C on Query { __typename }`,
		"one fragment spread by two operations": `query X { ...A } query Y { ...A } fragment A on Query { ` +
			strings.Repeat("__typename ", 15) + `}`,
	} {
		resp := c.Do(t, doc, nil)
		if codes := resp.Codes(); len(codes) != 1 || codes[0] != "GRAPHQL_VALIDATION_FAILED" || !strings.Contains(resp.Errors[0].Message, "fragments") {
			t.Errorf("%s: codes %v %+v, want GRAPHQL_VALIDATION_FAILED about fragments", name, codes, resp.Errors)
		}
	}
	if resp := c.Do(t, `{ ...A } fragment A on Query { ...B } fragment B on Query { __typename }`, nil); len(resp.Errors) != 0 {
		t.Errorf("two small fragments refused: %+v", resp.Errors)
	}
}
