package service_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// dashboardPanel is what the test reads of a Grafana panel.
type dashboardPanel struct {
	Type       string `json:"type"`
	Title      string `json:"title"`
	Datasource *struct {
		Type string `json:"type"`
		UID  string `json:"uid"`
	} `json:"datasource"`
	Targets []struct {
		Expr string `json:"expr"`
	} `json:"targets"`
	Panels []dashboardPanel `json:"panels"`
}

var (
	promQLStrings  = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	promQLMatchers = regexp.MustCompile(`\{[^}]*\}|\[[^\]]*\]`)
	promQLGrouping = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	promQLName     = regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*(\s*\()?`)
	promQLKeywords = []string{"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset", "e"}
)

// metricNames returns the metric names a PromQL expression reads.
func metricNames(expr string) []string {
	expr = promQLStrings.ReplaceAllString(expr, `""`)
	expr = promQLMatchers.ReplaceAllString(expr, " ")
	expr = promQLGrouping.ReplaceAllString(expr, " ")
	var out []string
	for _, m := range promQLName.FindAllStringSubmatch(expr, -1) {
		if m[1] != "" || slices.Contains(promQLKeywords, m[0]) { // a function call or a keyword
			continue
		}
		out = append(out, m[0])
	}
	return out
}

func TestMetricNamesOfPromQL(t *testing.T) {
	t.Parallel()
	got := metricNames(`histogram_quantile(0.99, sum by (le) (rate(a_bucket{operation=~"x{1}"}[$__rate_interval]))) / clamp_min(sum(rate(b_total[1m])), 1e-9) + on(instance) group_left c`)
	if want := []string{"a_bucket", "b_total", "c"}; !slices.Equal(got, want) {
		t.Errorf("metric names %q, want %q", got, want)
	}
}

// The dashboard in docs/ is a Grafana dashboard on a ${DS_PROMETHEUS} input, and every
// metric its panels query is served by a running node: it cannot drift from the code.
func TestGrafanaDashboardQueriesServedMetrics(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../docs/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Inputs []struct {
			Name     string `json:"name"`
			Type     string `json:"type"`
			PluginID string `json:"pluginId"`
		} `json:"__inputs"`
		SchemaVersion int              `json:"schemaVersion"`
		Title         string           `json:"title"`
		UID           string           `json:"uid"`
		Panels        []dashboardPanel `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("docs/grafana-dashboard.json: %v", err)
	}
	if dash.SchemaVersion < 36 || dash.Title == "" || dash.UID == "" {
		t.Errorf("schemaVersion %d, title %q, uid %q; want schemaVersion ≥ 36, a title and a uid", dash.SchemaVersion, dash.Title, dash.UID)
	}
	if !slices.ContainsFunc(dash.Inputs, func(in struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		PluginID string `json:"pluginId"`
	}) bool {
		return in.Name == "DS_PROMETHEUS" && in.Type == "datasource" && in.PluginID == "prometheus"
	}) {
		t.Errorf("no DS_PROMETHEUS datasource input: %+v", dash.Inputs)
	}

	// A node that has answered a query and a claim has every series it will ever have; on
	// Redis Streams (embedded) the queue reports its in-flight messages too.
	srv, svc := startService(t, map[string]string{"QUEUE": "redis", "CLAIM_RATE_PER_USER": "off", "RECONCILE_INTERVAL": "0"})
	var types struct{ ShopTypes []struct{ ID string } }
	client(srv).Do(t, `query ShopTypes { shopTypes { id } }`, nil).Decode(t, &types)
	v := newSale(t, svc, 1)
	if _, err := svc.App.Commands.ClaimVoucher.Handle(context.Background(), 1, v.ID); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	families, err := svc.Metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, f := range families {
		served[f.GetName()] = true
		switch f.GetType().String() {
		case "HISTOGRAM":
			served[f.GetName()+"_bucket"], served[f.GetName()+"_sum"], served[f.GetName()+"_count"] = true, true, true
		case "SUMMARY":
			served[f.GetName()+"_sum"], served[f.GetName()+"_count"] = true, true
		}
	}

	queried := map[string]bool{}
	var walk func(ps []dashboardPanel)
	walk = func(ps []dashboardPanel) {
		for _, p := range ps {
			walk(p.Panels)
			if p.Type == "row" {
				continue
			}
			if p.Datasource == nil || p.Datasource.UID != "${DS_PROMETHEUS}" {
				t.Errorf("panel %q: datasource %+v, want uid ${DS_PROMETHEUS}", p.Title, p.Datasource)
			}
			if len(p.Targets) == 0 {
				t.Errorf("panel %q queries nothing", p.Title)
			}
			for _, target := range p.Targets {
				names := metricNames(target.Expr)
				if len(names) == 0 {
					t.Errorf("panel %q: no metric in %q", p.Title, target.Expr)
				}
				for _, n := range names {
					queried[n] = true
					if !served[n] {
						t.Errorf("panel %q queries %s, which the service does not serve", p.Title, n)
					}
				}
			}
		}
	}
	walk(dash.Panels)
	// The panels the operator needs are there.
	for _, want := range []string{"dealspot_claims_total", "dealspot_graphql_operation_duration_seconds_bucket",
		"dealspot_orders_written_total", "dealspot_queue_depth", "dealspot_queue_dead_letters_total",
		"dealspot_reconciler_repairs_total", "go_sql_in_use_connections", "go_sql_wait_count_total",
		"dealspot_redis_pool_connections", "go_memstats_heap_inuse_bytes", "dealspot_build_info"} {
		if !queried[want] {
			t.Errorf("no panel queries %s", want)
		}
	}
	if t.Failed() {
		var names []string
		for n := range served {
			if strings.HasPrefix(n, "dealspot_") {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		t.Logf("served: %s", strings.Join(names, " "))
	}
}
