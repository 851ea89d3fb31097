package service_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// startServer builds Dealspot on the embedded defaults (SQLite in a temp dir, in-process
// Redis), with extra settings, and serves it over real HTTP.
func startServer(t *testing.T, extra map[string]string) *httptest.Server {
	t.Helper()
	srv, _ := startService(t, extra)
	return srv
}

// startService is startServer that also hands back the built service.
func startService(t testing.TB, extra map[string]string, opts ...service.Option) (*httptest.Server, *service.Node) {
	t.Helper()
	vars := map[string]string{"DEALSPOT_DATA_DIR": t.TempDir()}
	for k, v := range extra {
		vars[k] = v
	}
	testsupport.DevModeOnPurpose(vars)
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	svc, err := service.New(context.Background(), cfg, slog.New(slog.DiscardHandler), opts...)
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	srv := httptest.NewServer(svc.Handler)
	t.Cleanup(func() {
		srv.Close()
		if err := svc.Close(); err != nil {
			t.Errorf("close service: %v", err)
		}
	})
	return srv, svc
}

func client(srv *httptest.Server) testsupport.GraphQLClient {
	return testsupport.GraphQLClient{URL: srv.URL + "/graphql"}
}

func TestEmbeddedServerAnswersShopTypesOverHTTP(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	var data struct {
		ShopTypes []struct{ ID, Name string }
		Shops     struct {
			Edges []struct {
				Cursor string
				Node   struct{ ID, Name string }
			}
			PageInfo struct {
				HasNextPage bool
				EndCursor   string
			}
		}
	}
	client(srv).Do(t, `{ shopTypes { id name } shops(first: 5) { edges { cursor node { id name } } pageInfo { hasNextPage endCursor } } }`, nil).Decode(t, &data)
	if len(data.ShopTypes) < 5 {
		t.Fatalf("want the seeded shop types, got %+v", data.ShopTypes)
	}
	if data.ShopTypes[0].ID == "" || data.ShopTypes[0].Name == "" {
		t.Errorf("shop type without id or name: %+v", data.ShopTypes[0])
	}
	if len(data.Shops.Edges) != 5 || !data.Shops.PageInfo.HasNextPage {
		t.Fatalf("want a first page of 5 seeded shops with more to come, got %+v", data.Shops)
	}
	if data.Shops.PageInfo.EndCursor != data.Shops.Edges[4].Cursor {
		t.Errorf("endCursor %q is not the last edge's cursor %q", data.Shops.PageInfo.EndCursor, data.Shops.Edges[4].Cursor)
	}
}

func TestShopsPageWithoutGapsOrDuplicates(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	c := client(srv)
	seen := map[string]bool{}
	after := ""
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("paging does not end")
		}
		var data struct {
			Shops struct {
				Edges    []struct{ Node struct{ ID string } }
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		vars := map[string]any{"first": 7}
		if after != "" {
			vars["after"] = after
		}
		c.Do(t, `query($first: Int, $after: String) { shops(first: $first, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`, vars).Decode(t, &data)
		for _, e := range data.Shops.Edges {
			if seen[e.Node.ID] {
				t.Fatalf("shop %s returned twice", e.Node.ID)
			}
			seen[e.Node.ID] = true
		}
		if !data.Shops.PageInfo.HasNextPage {
			break
		}
		after = *data.Shops.PageInfo.EndCursor
	}
	if len(seen) < 50 {
		t.Errorf("paged through %d shops, want the ≥50 seeded", len(seen))
	}
}

func TestShopByIDAndBadInput(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{"PAGE_SIZE_MAX": "20"})
	c := client(srv)
	var one struct {
		Shop *struct {
			ID, Name, TypeID, Address string
			Longitude, Latitude       float64
			AvgPrice, Score           int
		}
	}
	c.Do(t, `{ shop(id: "1") { id name typeId address longitude latitude avgPrice score } }`, nil).Decode(t, &one)
	if one.Shop == nil || one.Shop.ID != "1" || one.Shop.Name == "" || one.Shop.Longitude < 73 || one.Shop.Latitude < 3 {
		t.Fatalf("shop 1 = %+v", one.Shop)
	}
	var none struct{ Shop *struct{ ID string } }
	c.Do(t, `{ shop(id: "999999") { id } }`, nil).Decode(t, &none)
	if none.Shop != nil {
		t.Errorf("unknown shop should be null, got %+v", none.Shop)
	}
	for name, q := range map[string]string{
		"malformed id":      `{ shop(id: "abc") { id } }`,
		"negative first":    `{ shops(first: -1) { edges { cursor } } }`,
		"first above max":   `{ shops(first: 21) { edges { cursor } } }`,
		"garbage cursor":    `{ shops(after: "%%%") { edges { cursor } } }`,
		"malformed type id": `{ shops(typeId: "x") { edges { cursor } } }`,
	} {
		resp := c.Do(t, q, nil)
		if got := resp.Codes(); len(got) != 1 || got[0] != "BAD_USER_INPUT" {
			t.Errorf("%s: codes %v (%+v), want [BAD_USER_INPUT]", name, got, resp.Errors)
		}
	}
}

func TestShopsFilterByType(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	var data struct {
		Shops struct {
			Edges []struct{ Node struct{ TypeID string } }
		}
	}
	client(srv).Do(t, `{ shops(typeId: "2", first: 50) { edges { node { typeId } } } }`, nil).Decode(t, &data)
	if len(data.Shops.Edges) == 0 {
		t.Fatal("no shops of type 2")
	}
	for _, e := range data.Shops.Edges {
		if e.Node.TypeID != "2" {
			t.Fatalf("type filter leaked a shop of type %s", e.Node.TypeID)
		}
	}
}

func TestRequestLimits(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{
		"GRAPHQL_MAX_DEPTH": "3", "GRAPHQL_MAX_ALIASES": "2", "GRAPHQL_MAX_COMPLEXITY": "20",
		"HTTP_MAX_BODY_BYTES": "2048",
	})
	c := client(srv)
	cases := []struct {
		name, query, code string
	}{
		{"too deep", `{ shops { edges { node { id } } } }`, "DEPTH_LIMIT_EXCEEDED"},
		{"too deep through a fragment", `{ shops { ...f } } fragment f on ShopConnection { edges { node { id } } }`, "DEPTH_LIMIT_EXCEEDED"},
		{"too many aliases", `{ a: shopTypes { id } b: shopTypes { id } c: shopTypes { id } }`, "ALIAS_LIMIT_EXCEEDED"},
		{"too complex", `{ ` + strings.Repeat(`shopTypes { id name icon sort } `, 1) + `x: shop(id: "1") { id name address area images { url } openHours sold comments score avgPrice longitude latitude typeId } y: shop(id: "2") { id name address area images { url } openHours sold comments score avgPrice longitude latitude typeId } }`, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"not valid", `{ nope }`, "GRAPHQL_VALIDATION_FAILED"},
		{"not parseable", `{ shop(`, "GRAPHQL_PARSE_FAILED"},
	}
	for _, tc := range cases {
		resp := c.Do(t, tc.query, nil)
		if got := resp.Codes(); len(got) == 0 || got[0] != tc.code {
			t.Errorf("%s: codes %v (%+v), want %s", tc.name, got, resp.Errors, tc.code)
		}
	}
	big := `{"query":"{ shopTypes { id } }","variables":{"pad":"` + strings.Repeat("x", 4096) + `"}}`
	resp, err := http.Post(srv.URL+"/graphql", "application/json", strings.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: status %d, want 413", resp.StatusCode)
	}
}

func TestGETQueryAndOperationalEndpoints(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil)
	resp, err := http.Get(srv.URL + "/graphql?query=" + url.QueryEscape(`query Types { shopTypes { id } }`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"shopTypes"`) {
		t.Fatalf("GET query: %d %s", resp.StatusCode, body)
	}
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 200, "/": 200} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: status %d, want %d", path, resp.StatusCode, want)
		}
	}
	resp, err = http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `dealspot_graphql_operations_total{operation="Types",outcome="ok"} 1`) ||
		!strings.Contains(string(body), `dealspot_graphql_operation_duration_seconds_bucket{operation="Types"`) {
		t.Errorf("metrics lack the Types operation:\n%s", grepLines(string(body), "dealspot_graphql"))
	}
	if resp.Header.Get("X-Request-Id") == "" {
		t.Error("responses should carry X-Request-Id")
	}
}

func TestProductionHidesIDEAndIntrospection(t *testing.T) {
	t.Parallel()
	srv := startServer(t, map[string]string{
		"DEALSPOT_ENV": "production", "JWT_SECRET": strings.Repeat("s", 40), "DEALSPOT_SEED": "true",
		"DEALSPOT_AUTO_MIGRATE": "true", "ALLOW_EMBEDDED": "true",
		"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": strings.Repeat("w", 20),
	})
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("IDE page in production: status %d, want 404", resp.StatusCode)
	}
	r := client(srv).Do(t, `{ __schema { types { name } } }`, nil)
	if len(r.Errors) == 0 {
		t.Errorf("introspection answered in production: %s", r.Data)
	}
	var data struct{ ShopTypes []json.RawMessage }
	client(srv).Do(t, `{ shopTypes { id } }`, nil).Decode(t, &data)
	if len(data.ShopTypes) == 0 {
		t.Error("production server should still serve queries")
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
