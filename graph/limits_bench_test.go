package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/graph"
)

// hostileDocuments are the shapes that made pre-execution work superlinear, each at most
// the 64 KB body limit, and the largest document the default limits accept.
func hostileDocuments() map[string]string {
	docs := map[string]string{
		// issue 11 §1: ~1 KB, expands to 2^27 fields.
		"nested_fragments_26": nestedFragments(26),
		// issue 11 §2: the stock overlap rule compared every pair of these.
		"typename_5900": "{" + strings.Repeat(" __typename", 5900) + "}",
		// the most tokens a document may hold, every one an error.
		"unknown_fields_14998": "{" + strings.Repeat(" a", 14998) + "}",
		// inline fragments nested as deep as the parser allows (1,000 levels), 66 times.
		"inline_fragment_nest": "{" + strings.Repeat(strings.Repeat(" ... on Query {", 990)+" __typename"+strings.Repeat(" }", 990), 3) + " }",
		// the largest accepted document: valid, within every limit, 15,000 tokens.
		"accepted_list_of_14980": `mutation { createBlog(input: {shopId: "1", title: "t", content: "c", images: [` +
			strings.Repeat(`"a" `, 14980) + `]}) { id } }`,
	}
	var pairs strings.Builder
	pairs.WriteString("{")
	for i := range 1400 {
		fmt.Fprintf(&pairs, " ...F%d", i)
	}
	pairs.WriteString(" }\n")
	for i := range 1400 {
		fmt.Fprintf(&pairs, "fragment F%d on Query{__typename}\n", i)
	}
	// the stock overlap rule compared every pair of fragments.
	docs["fragment_pairs_1400"] = pairs.String()
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

// BenchmarkWorstShapes measures how long the server takes to answer or refuse each of
// worstShapes, at most 64 KB each, through the HTTP handler with the default limits:
// parsing, the fragment limits, validation and the operation limits (nothing these
// documents reach executes more than __typename). Every iteration sends a distinct
// document (a trailing comment) so that the parsed-query cache does not answer.
// cpu-ns/op is the process's CPU time per document, which a loaded machine inflates
// less than ns/op.
//
//	go test -run '^$' -bench BenchmarkWorstShapes -benchtime 20x ./graph/
func BenchmarkWorstShapes(b *testing.B) {
	h := graph.NewTestServer(defaults)
	for name, doc := range worstShapes() {
		b.Run(name, func(b *testing.B) {
			i := 0
			cpu := cpuTime()
			for b.Loop() {
				i++
				a := post(b, h, fmt.Sprintf("%s\n# %d", doc, i), nil)
				if a.status >= 500 {
					b.Fatalf("status %d: %.200s", a.status, a.body)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(doc)), "bytes")
		})
	}
}
