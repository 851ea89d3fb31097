package graph_test

import (
	"testing"

	"github.com/dealspot/dealspot/graph"
)

func TestClaimFastPathRecognisesOnlyPlainClaims(t *testing.T) {
	t.Parallel()
	o := graph.Options{MaxDepth: 12, MaxComplexity: 1000, MaxAliases: 30, MaxTokens: 15000, PageSize: 10, MaxPageSize: 100, MaxStringChars: 10000}
	for _, tc := range []struct {
		query string
		want  bool
	}{
		{`mutation Claim($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`, true},
		{`mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId } }`, true},
		{`mutation { claimVoucher(voucherId: "12") { status orderId __typename } }`, true},
		{`mutation M($id: ID!) { c: claimVoucher(voucherId: $id) { t: __typename s: status o: orderId } }`, true},
		{`query { shopTypes { name } }`, false},
		{`mutation($v: ID) { claimVoucher(voucherId: $v) { orderId } }`, false},
		{`mutation($v: ID! = "1") { claimVoucher(voucherId: $v) { orderId } }`, false},
		{`mutation($v: ID!, $w: ID!) { claimVoucher(voucherId: $v) { orderId } }`, false},
		{`mutation { claimVoucher(voucherId: 12) { orderId } }`, false},
		{`mutation($v: ID!) { claimVoucher(voucherId: $v) { status status } }`, false},
		{`mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId bogus } }`, false},
		{`mutation($v: ID!) { claimVoucher(voucherId: $v) @skip(if: false) { orderId } }`, false},
		{`mutation($v: ID!) @deprecated { claimVoucher(voucherId: $v) { orderId } }`, false},
		{`mutation($v: ID!) { claimVoucher(voucherId: $v) { ...F } } fragment F on ClaimPayload { orderId }`, false},
		{`mutation($v: ID!) { a: claimVoucher(voucherId: $v) { status } b: claimVoucher(voucherId: $v) { status } }`, false},
		{`mutation A($v: ID!) { claimVoucher(voucherId: $v) { status } } mutation B($v: ID!) { claimVoucher(voucherId: $v) { status } }`, false},
		{`subscription($v: ID!) { claimVoucher(voucherId: $v) { status } }`, false},
		{`mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId status`, false},
		{`mutation($v: ID!) { claimVoucher(voucherId: $v) { } }`, false},
	} {
		if got := graph.RecognisesClaim(tc.query, o); got != tc.want {
			t.Errorf("%s: recognised %v, want %v", tc.query, got, tc.want)
		}
	}
	// A limit the document breaks leaves it to gqlgen, which refuses it.
	small := o
	small.MaxAliases = 1
	if graph.RecognisesClaim(`mutation M($id: ID!) { c: claimVoucher(voucherId: $id) { s: status } }`, small) {
		t.Error("a document over the alias limit was recognised")
	}
}
