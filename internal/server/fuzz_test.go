package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/service"
)

// fuzzSeeds are operations the app's screens send; the fuzzer mutates them. They read, or
// write only to Redis, so that every failure seen is the server's answer to the request.
var fuzzSeeds = []struct {
	query string
	vars  map[string]any
}{
	{`{ shopTypes { id name icon sort } }`, nil},
	{`query Shops($t: ID, $n: Int, $a: String) { shops(typeId: $t, first: $n, after: $a) { edges { cursor node { id name area score avgPrice } } pageInfo { hasNextPage endCursor } } }`, map[string]any{"t": "1", "n": 5}},
	{`{ shop(id: "1") { id name typeId images { url width height contentType } area address longitude latitude avgPrice sold comments score openHours } }`, nil},
	{`{ shops(name: "茶", first: 3) { edges { node { id name } } } }`, nil},
	{`query($lng: Float!, $lat: Float!) { nearbyShops(typeId: "1", longitude: $lng, latitude: $lat, radiusMeters: 3000, first: 5) { edges { distanceMeters node { id name } } pageInfo { endCursor } } }`, map[string]any{"lng": 120.15, "lat": 30.28}},
	{`{ vouchers(shopId: "1") { id title payValue actualValue kind stock beginTime endTime } }`, nil},
	{`{ hotBlogs(first: 5) { edges { cursor node { id title images { url width height } likedCount likedByMe createdAt author { id nickName icon } shop { id name } } } pageInfo { hasNextPage endCursor } } }`, nil},
	{`query($id: ID!) { blog(id: $id) { id title content } blogLikers(blogId: $id, first: 5) { id nickName } }`, map[string]any{"id": "1"}},
	{`{ blogsOfUser(userId: "1", first: 3) { edges { node { id title } } } }`, nil},
	{`{ me { id nickName phone role createdAt } }`, nil},
	{`{ feed(first: 5) { edges { cursor node { id } } pageInfo { hasNextPage } } signInStatus { month signedDays consecutiveDays } }`, nil},
	{`{ isFollowing(userId: "2") commonFollows(userId: "2") { id } }`, nil},
	{`query($o: ID!) { order(id: $o) { id status } myOrders(first: 5) { edges { node { id status createdAt } } } }`, map[string]any{"o": "123456789"}},
	{`{ uniqueVisitors(from: "2026-11-01", to: "2026-11-20") }`, nil},
	{`mutation($p: String!) { sendLoginCode(phone: $p) { sent retryAfterSeconds devCode } }`, map[string]any{"p": "13800000001"}},
	{`mutation { login(phone: "13800000002", code: "000000") { accessToken } }`, nil},
	{`mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`, map[string]any{"v": "1"}},
	{`query Frag { shops(first: 2) { ...C } } fragment C on ShopConnection { edges { node { ...S } } } fragment S on Shop { id name }`, nil},
}

// fuzzTokens are spliced into documents: syntax, extreme literals, limit breakers.
var fuzzTokens = []string{
	"{", "}", "(", ")", "[", "]", ":", "...", "$", "$v", "!", "=", "@", "#", "\"", `"""`, "\\u0000", "\\",
	"1e309", "-1e309", "99999999999999999999", "-9223372036854775809", "0", "-1", "1.5", "NaN", "null", "true",
	"first: 0", "first: -1", "first: 100000", "after: \"near:9223372036854775807:0:1\"", "after: \"!!\"",
	"@include(if: true)", "@skip(if: $v)", "@deprecated", "__typename", "__schema { types { name } }",
	"__type(name: \"Shop\") { name }", "...F", "... on Query { __typename }", "fragment F on Query { __typename }",
	"a: shops", "query", "mutation", "subscription", "on", "extend", "\u4e2d", "\xff\xfe",
	strings.Repeat("x", 300), strings.Repeat("{", 40), strings.Repeat("__typename ", 40),
}

// fuzzValues replace variables: wrong types, extreme numbers, long strings.
var fuzzValues = []any{
	nil, true, 0, -1, 1e308, json.Number("1e309"), json.Number("99999999999999999999"), "", "x",
	"2026-13-45", "2026-11-01", "tomorrow", strings.Repeat("%_", 6000), []any{1, "a"}, map[string]any{"a": 1},
	"near:9223372036854775807:0:1", "-1", "1e400", "\u0000",
}

type fuzzRequest struct {
	method, contentType, body, query string
	token                            bool
}

func (r fuzzRequest) String() string {
	return fmt.Sprintf("%s ct=%q token=%v query=%.300q body=%.600q", r.method, r.contentType, r.token, r.query, r.body)
}

// mutate derives one request from a seed.
func mutate(rng *rand.Rand) fuzzRequest {
	seed := fuzzSeeds[rng.IntN(len(fuzzSeeds))]
	doc := seed.query
	for n := rng.IntN(4); n > 0; n-- {
		pos := 0
		if len(doc) > 0 {
			pos = rng.IntN(len(doc) + 1)
		}
		switch rng.IntN(5) {
		case 0: // splice in a token
			doc = doc[:pos] + " " + fuzzTokens[rng.IntN(len(fuzzTokens))] + " " + doc[pos:]
		case 1: // cut a span
			end := min(len(doc), pos+rng.IntN(20))
			doc = doc[:pos] + doc[end:]
		case 2: // repeat a span
			end := min(len(doc), pos+rng.IntN(40))
			doc = doc[:end] + strings.Repeat(doc[pos:end], 1+rng.IntN(8)) + doc[end:]
		case 3: // flip a byte
			if pos < len(doc) {
				doc = doc[:pos] + string(rune(rng.IntN(128))) + doc[pos+1:]
			}
		case 4: // leave the document, change the variables below
		}
	}
	vars := map[string]any{}
	for k, v := range seed.vars {
		vars[k] = v
		if rng.IntN(3) == 0 {
			vars[k] = fuzzValues[rng.IntN(len(fuzzValues))]
		}
	}
	if rng.IntN(8) == 0 {
		vars["v"] = fuzzValues[rng.IntN(len(fuzzValues))]
	}
	params := map[string]any{"query": doc, "variables": vars}
	if rng.IntN(10) == 0 {
		params["operationName"] = fuzzTokens[rng.IntN(len(fuzzTokens))]
	}
	if rng.IntN(20) == 0 {
		params["extensions"] = map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": fuzzTokens[rng.IntN(len(fuzzTokens))]}}
	}
	body, _ := json.Marshal(params)
	req := fuzzRequest{method: http.MethodPost, contentType: "application/json", body: string(body), token: rng.IntN(2) == 0}
	switch rng.IntN(12) {
	case 0: // a broken body
		cut := rng.IntN(len(req.body) + 1)
		req.body = req.body[:cut]
	case 1: // another content type
		req.contentType = []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "", "application/json; charset=latin1"}[rng.IntN(5)]
	case 2, 3: // the same over GET
		q := url.Values{"query": {doc}}
		if v, err := json.Marshal(vars); err == nil && rng.IntN(2) == 0 {
			q.Set("variables", string(v))
		}
		if rng.IntN(4) == 0 {
			q.Set("variables", fuzzTokens[rng.IntN(len(fuzzTokens))])
		}
		req.method, req.contentType, req.body, req.query = http.MethodGet, "", "", q.Encode()
	case 4:
		req.method = []string{http.MethodPut, http.MethodDelete, http.MethodPatch}[rng.IntN(3)]
	}
	return req
}

// runFuzz sends n mutated requests at 16-way concurrency to a real in-process server on
// the embedded defaults and fails on any 5xx, answer that is not JSON, panic, or INTERNAL
// error.
func runFuzz(t *testing.T, n int) {
	vars := map[string]string{"DEALSPOT_DATA_DIR": t.TempDir(), "LOG_LEVEL": "error"}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	logs := &panicWatch{}
	svc, err := service.New(context.Background(), cfg, slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler)
	t.Cleanup(func() {
		srv.Close()
		_ = svc.Close()
	})
	token := fuzzLogin(t, srv.URL)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	baseline := ms.HeapAlloc

	var next atomic.Int64
	var failures atomic.Int64
	tally := &outcomes{seen: map[string]int{}}
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			for next.Add(1) <= int64(n) {
				req := mutate(rng)
				if problem := sendFuzz(srv.URL, token, req, tally); problem != "" {
					if failures.Add(1) <= 10 {
						t.Errorf("%s\n  request: %s", problem, req)
					}
				}
			}
		}()
	}
	wg.Wait()
	if f := failures.Load(); f > 0 {
		t.Errorf("%d of %d requests failed", f, n)
	}
	if p := logs.panics.Load(); p > 0 {
		t.Errorf("%d panics logged; first: %s", p, logs.first())
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	t.Logf("%d requests; heap %d MB before, %d MB after; outcomes %v", n, baseline>>20, ms.HeapAlloc>>20, tally.seen)
}

// outcomes counts answers by status and first error code.
type outcomes struct {
	mu   sync.Mutex
	seen map[string]int
}

func (o *outcomes) add(key string) {
	o.mu.Lock()
	o.seen[key]++
	o.mu.Unlock()
}

func sendFuzz(base, token string, fr fuzzRequest, tally *outcomes) string {
	req, err := http.NewRequest(fr.method, base+"/graphql?"+fr.query, strings.NewReader(fr.body))
	if err != nil {
		return ""
	}
	if fr.contentType != "" {
		req.Header.Set("Content-Type", fr.contentType)
	}
	if fr.token {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "transport: " + err.Error()
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return fmt.Sprintf("status %d: %.300s", resp.StatusCode, body)
	}
	var answer struct {
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return fmt.Sprintf("status %d, not JSON: %.300s", resp.StatusCode, body)
	}
	key := fmt.Sprint(resp.StatusCode)
	if len(answer.Errors) > 0 {
		code, _ := answer.Errors[0].Extensions["code"].(string)
		key += " " + code
	}
	tally.add(key)
	for _, e := range answer.Errors {
		switch code, _ := e.Extensions["code"].(string); code {
		case "INTERNAL", "":
			return fmt.Sprintf("status %d, error coded %q: %.300s", resp.StatusCode, code, body)
		}
	}
	return ""
}

// fuzzLogin logs a user in through the dev-mode login flow and returns its access token.
func fuzzLogin(t *testing.T, base string) string {
	t.Helper()
	post := func(q string, v map[string]any, out any) {
		b, _ := json.Marshal(map[string]any{"query": q, "variables": v})
		resp, err := http.Post(base+"/graphql", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	var code struct {
		Data struct{ SendLoginCode struct{ DevCode string } }
	}
	post(`mutation($p: String!) { sendLoginCode(phone: $p) { devCode } }`, map[string]any{"p": "13912345678"}, &code)
	var login struct {
		Data struct{ Login struct{ AccessToken string } }
	}
	post(`mutation($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken } }`,
		map[string]any{"p": "13912345678", "c": code.Data.SendLoginCode.DevCode}, &login)
	if login.Data.Login.AccessToken == "" {
		t.Fatal("fuzz login failed")
	}
	return login.Data.Login.AccessToken
}

// panicWatch is a log sink that counts logged panics.
type panicWatch struct {
	mu     sync.Mutex
	panics atomic.Int64
	line   string
}

func (p *panicWatch) Write(b []byte) (int, error) {
	if bytes.Contains(b, []byte("panic")) {
		if p.panics.Add(1) == 1 {
			p.mu.Lock()
			p.line = string(b[:min(len(b), 2000)])
			p.mu.Unlock()
		}
	}
	return len(b), nil
}

func (p *panicWatch) first() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.line
}
