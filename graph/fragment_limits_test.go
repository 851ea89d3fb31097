package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/graph"
)

// The validator walks each fragment definition on its own: 1,800 fragments each
// spreading the next took it 470 ms of CPU. Such a document is refused before it is
// parsed, by the number of its fragments or by what their spreads would cost.
func TestFragmentChainsAreRefusedBeforeValidation(t *testing.T) {
	t.Parallel()
	h := graph.NewTestServer(defaults)
	shapes := worstShapes()
	for _, name := range []string{"chain", "chain_100_into_a_large_fragment", "fan_in_to_a_large_fragment", "all_pairs_100"} {
		doc := shapes[name]
		if refused, _, _ := graph.ValidationWork(doc, defaults); !refused {
			t.Errorf("%s: not refused before validation", name)
		}
		got := post(t, h, doc, nil)
		if got.firstCode() != "GRAPHQL_VALIDATION_FAILED" || !strings.Contains(got.Errors[0].Message, "fragments") {
			t.Errorf("%s: %d %v %.300s, want GRAPHQL_VALIDATION_FAILED about fragments", name, got.status, got.codes(), got.body)
		}
	}
	// Within the limits, fragments are fine.
	var ok strings.Builder
	ok.WriteString("query{...a0}\n")
	for i := range 99 {
		fmt.Fprintf(&ok, "fragment a%d on Query{...a%d}\n", i, i+1)
	}
	ok.WriteString("fragment a99 on Query{__typename t: __typename}\n")
	if got := post(t, h, ok.String(), nil); len(got.Errors) > 0 {
		t.Errorf("a chain of 100 small fragments: %.300s", got.body)
	}
	if got := post(t, h, `query Q($id: ID = "x") { ...A @skip(if: false) ... on Query { ...B } }
		fragment A on Query { ... @include(if: true) { shop(id: $id) { id ...C } } }
		fragment B on Query { t: __typename }
		fragment C on Shop { name }`, nil); len(got.Errors) > 0 && got.firstCode() == "GRAPHQL_VALIDATION_FAILED" {
		t.Errorf("a plain document with fragments: %.300s", got.body)
	}
}

// Whatever its shape, a document within the limits costs validation work linear in its
// tokens: the fragment limits refuse the others before validation starts.
func TestValidationWorkIsLinearForEveryShape(t *testing.T) {
	t.Parallel()
	for name, doc := range worstShapes() {
		refused, visits, tokens := graph.ValidationWork(doc, defaults)
		if refused {
			continue
		}
		// Every token is visited about once, and the fragments reached through spreads
		// at most MaxSpreadTokens times in all.
		if limit := 2*tokens + defaults.MaxSpreadTokens; visits > limit {
			t.Errorf("%s: validation visits %d nodes for %d tokens, more than %d", name, visits, tokens, limit)
		}
	}
}

// The fragment limits read tokens, not text: "fragment" and "..." in strings and
// comments, and braces of object values, are not fragments.
func TestFragmentLimitsReadTokens(t *testing.T) {
	t.Parallel()
	o := defaults
	o.MaxFragments, o.MaxSpreadTokens = 1, 20
	h := graph.NewTestServer(o)
	for name, doc := range map[string]string{
		"words in strings and comments": `# fragment X on Query { ...X }
			query($n: String = "fragment F on Query { ...F ...F }") { shops(name: $n) { pageInfo { hasNextPage } } }`,
		"block string": `{ shops(name: """...F fragment F""") { pageInfo { hasNextPage } } }`,
		"object values in arguments": `query($i: UpdateProfileInput = {nickName: "{"}) @include(if: true) { ...F }
			fragment F on Query { shops(name: "}") { pageInfo { hasNextPage } } }`,
		"inline fragments": `{ ... on Query { ... @include(if: true) { __typename } } }`,
	} {
		if refused, _, _ := graph.ValidationWork(doc, o); refused {
			t.Errorf("%s: refused by the fragment limits", name)
		}
		if got := post(t, h, doc, nil); got.status >= 500 || len(got.Errors) > 0 && strings.Contains(got.Errors[0].Message, "fragments") {
			t.Errorf("%s: %d %.300s", name, got.status, got.body)
		}
	}
	for name, doc := range map[string]string{
		"two fragments":           `{ ...A } fragment A on Query { __typename } fragment B on Query { __typename }`,
		"a fragment spread twice": `query X { ...A } query Y { ...A } fragment A on Query { a: __typename b: __typename }`,
	} {
		if refused, _, _ := graph.ValidationWork(doc, o); !refused {
			t.Errorf("%s: not refused", name)
		}
	}
}
