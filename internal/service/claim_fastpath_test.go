package service_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// rawAnswer is an HTTP answer as bytes, for comparing two servers.
type rawAnswer struct {
	status      int
	contentType string
	body        string
}

func postRaw(t *testing.T, url, token, accept string, body []byte) rawAnswer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return rawAnswer{status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), body: string(b)}
}

// longNumbers are order ids (and other generated numbers), which differ between servers.
var longNumbers = regexp.MustCompile(`[0-9]{10,}`)

// TestClaimFastPathAnswersAsGqlgen sends the same claims — every outcome, every shape of
// document the fast path recognises and several it must leave to gqlgen — to a server
// with CLAIM_FAST_PATH on and to one with it off, and wants the same status, content
// type and body from both (order ids aside).
func TestClaimFastPathAnswersAsGqlgen(t *testing.T) {
	t.Parallel()
	const adminPhone = "13900000001"
	type node struct {
		srv                   *httptest.Server
		url                   string
		admin, alice, bob     string
		live, later, over, ok string
	}
	start := func(fast string) *node {
		srv := startServer(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone, "CLAIM_FAST_PATH": fast})
		n := &node{srv: srv, url: srv.URL + "/graphql"}
		anon := client(srv)
		n.admin = login(t, anon, adminPhone).AccessToken
		n.alice = "Bearer " + login(t, anon, "13900000002").AccessToken
		n.bob = "Bearer " + login(t, anon, "13900000003").AccessToken
		return n
	}
	fast, slow := start("true"), start("false")
	overAt := time.Now().Add(2 * time.Second)
	for _, n := range []*node{fast, slow} {
		admin := client(n.srv)
		admin.Token = n.admin
		now := time.Now()
		n.live = createFlashSale(t, admin, 1, now.Add(-time.Minute), now.Add(time.Hour))
		n.later = createFlashSale(t, admin, 5, now.Add(time.Hour), now.Add(2*time.Hour))
		n.over = createFlashSale(t, admin, 5, now.Add(-time.Hour), overAt)
		n.ok = createFlashSale(t, admin, 100, now.Add(-time.Minute), now.Add(time.Hour))
	}
	if fast.live != slow.live || fast.over != slow.over || fast.ok != slow.ok {
		t.Fatalf("the two servers gave the sales different ids: %+v %+v", fast, slow)
	}
	time.Sleep(time.Until(overAt))

	const std = `mutation Claim($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`
	body := func(m map[string]any) []byte {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	q := func(query string, vars map[string]any) []byte {
		return body(map[string]any{"query": query, "variables": vars})
	}
	type step struct {
		name   string
		token  func(n *node) string
		accept string
		body   func(n *node) []byte
	}
	alice := func(n *node) string { return n.alice }
	bob := func(n *node) string { return n.bob }
	nobody := func(*node) string { return "" }
	steps := []step{
		{"accepted", alice, "", func(n *node) []byte { return q(std, map[string]any{"v": n.live}) }},
		{"already claimed", alice, "", func(n *node) []byte { return q(std, map[string]any{"v": n.live}) }},
		{"sold out", bob, "", func(n *node) []byte { return q(std, map[string]any{"v": n.live}) }},
		{"not started", bob, "", func(n *node) []byte { return q(std, map[string]any{"v": n.later}) }},
		{"ended", bob, "", func(n *node) []byte { return q(std, map[string]any{"v": n.over}) }},
		{"unknown voucher", bob, "", func(*node) []byte { return q(std, map[string]any{"v": "999999"}) }},
		{"malformed id", bob, "", func(*node) []byte { return q(std, map[string]any{"v": "x"}) }},
		{"anonymous", nobody, "", func(n *node) []byte { return q(std, map[string]any{"v": n.ok}) }},
		{"refused token", func(*node) string { return "Bearer not-a-token" }, "", func(n *node) []byte { return q(std, map[string]any{"v": n.ok}) }},
		{"literal id, typename", bob, "", func(n *node) []byte {
			return q(`mutation { claimVoucher(voucherId: "`+n.ok+`") { status orderId __typename } }`, nil)
		}},
		{"aliases and operation name", alice, "*/*", func(n *node) []byte {
			return body(map[string]any{"operationName": "M", "variables": map[string]any{"id": n.ok, "unused": 1},
				"query": `mutation M($id: ID!) { c: claimVoucher(voucherId: $id) { t: __typename s: status o: orderId } }`})
		}},
		{"operation name that does not match", bob, "", func(n *node) []byte {
			return body(map[string]any{"operationName": "Other", "query": std, "variables": map[string]any{"v": n.ok}})
		}},
		{"id as a number", bob, "", func(n *node) []byte { return []byte(`{"query":"` + std + `","variables":{"v":` + n.ok + `}}`) }},
		{"variable missing", bob, "", func(*node) []byte { return q(std, map[string]any{}) }},
		{"variable null", bob, "", func(*node) []byte { return q(std, map[string]any{"v": nil}) }},
		{"unknown field", bob, "", func(n *node) []byte {
			return q(`mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId bogus } }`, map[string]any{"v": n.ok})
		}},
		{"nullable variable", bob, "", func(n *node) []byte {
			return q(`mutation($v: ID) { claimVoucher(voucherId: $v) { orderId } }`, map[string]any{"v": n.ok})
		}},
		{"same field twice", bob, "", func(n *node) []byte {
			return q(`mutation($v: ID!) { claimVoucher(voucherId: $v) { status status } }`, map[string]any{"v": n.ok})
		}},
		{"skip directive", bob, "", func(n *node) []byte {
			return q(`mutation($v: ID!) { claimVoucher(voucherId: $v) @skip(if: true) { status } }`, map[string]any{"v": n.ok})
		}},
		{"two claims in one document", bob, "", func(n *node) []byte {
			return q(`mutation($v: ID!) { a: claimVoucher(voucherId: $v) { status } b: claimVoucher(voucherId: $v) { status } }`, map[string]any{"v": n.ok})
		}},
		{"persisted query hash", bob, "", func(*node) []byte {
			return []byte(`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"0000000000000000000000000000000000000000000000000000000000000000"}}}`)
		}},
		{"graphql-response+json", bob, "application/graphql-response+json", func(*node) []byte { return q(std, map[string]any{"v": "x"}) }},
		{"not json", bob, "", func(*node) []byte { return []byte(`{"query": "mutation { claimVoucher`) }},
		{"a query that mentions claimVoucher", nobody, "", func(*node) []byte {
			return q(`query { __type(name: "Mutation") { name } claimVoucher: __typename }`, nil)
		}},
	}
	for _, s := range steps {
		a := postRaw(t, fast.url, s.token(fast), s.accept, s.body(fast))
		b := postRaw(t, slow.url, s.token(slow), s.accept, s.body(slow))
		a.body, b.body = longNumbers.ReplaceAllString(a.body, "N"), longNumbers.ReplaceAllString(b.body, "N")
		if a != b {
			t.Errorf("%s:\n fast path: %d %s %s\n gqlgen:    %d %s %s", s.name, a.status, a.contentType, a.body, b.status, b.contentType, b.body)
		}
	}

	// Every accepted claim of the fast path is an order like any other.
	var mine struct {
		MyOrders struct {
			Edges []struct{ Node struct{ Status string } }
		}
	}
	c := testsupport.GraphQLClient{URL: fast.url, Token: fast.alice[len("Bearer "):]}
	c.Do(t, `{ myOrders(first: 10) { edges { node { status } } } }`, nil).Decode(t, &mine)
	if len(mine.MyOrders.Edges) != 2 {
		t.Errorf("alice has %d orders on the fast path's server, want 2: %+v", len(mine.MyOrders.Edges), mine.MyOrders)
	}
}
