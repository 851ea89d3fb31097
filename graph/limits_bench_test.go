package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/graph"
)

// hostileDocuments are the shapes that made pre-execution work superlinear, each at most
// the 64 KB body limit.
func hostileDocuments() map[string]string {
	docs := map[string]string{
		// issue 11 §1: ~1 KB, expands to 2^27 fields.
		"nested_fragments_26": nestedFragments(26),
		// 64 KB of inline fragments nested in one another.
		"inline_fragment_nest": strings.Repeat("{ ... on Query ", 4000) + "{ __typename }" + strings.Repeat("}", 4001),
	}
	for name, d := range docs {
		if len(d) > 64<<10 {
			panic(fmt.Sprintf("%s is %d bytes, more than the body limit", name, len(d)))
		}
	}
	return docs
}

// BenchmarkPreExecution measures how long the server takes to accept or refuse each
// hostile document: parsing, validation and the operation limits, through the HTTP
// handler. Every iteration sends a distinct document (a trailing comment) so that the
// parsed-query cache does not answer.
func BenchmarkPreExecution(b *testing.B) {
	h := graph.NewTestServer(defaults)
	for name, doc := range hostileDocuments() {
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				a := post(b, h, fmt.Sprintf("%s\n# %d", doc, i), nil)
				if a.status >= 500 {
					b.Fatalf("status %d: %.200s", a.status, a.body)
				}
			}
		})
	}
}
