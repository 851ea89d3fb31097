package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/app/seckill"
)

// TestFloodsAnInProcessServerAndVerifies runs the tool end to end on the embedded
// defaults: a sale of 10 for 40 users, claimed until it sells out, with the baseline
// interleaved; every check must pass and the files must be written.
func TestFloodsAnInProcessServerAndVerifies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	dir := t.TempDir()
	jsonPath, chartPath := filepath.Join(dir, "out.json"), filepath.Join(dir, "out.svg")
	var stdout, stderr bytes.Buffer
	code := run([]string{"--path", "sold-out", "--users", "40", "--stock", "10", "--concurrency", "8", "--duration", "1s",
		"--baseline", "--phase", "500ms", "--warmup", "100ms", "--json", jsonPath, "--chart", chartPath},
		func(string) string { return "" }, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit status %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	var r result
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	if !r.OK || r.Accepted != 10 || r.Claims.Answers[answerAccepted] != 10 || r.Claims.Errors != 0 {
		t.Errorf("want 10 accepted claims and no errors, got ok=%v accepted=%d answers=%v", r.OK, r.Accepted, r.Claims.Answers)
	}
	if !r.Verification.Checked || len(r.Verification.Checks) != 9 {
		t.Errorf("want I1–I4, the accepted count, the after-claim steps and I5–I7 checked, got %+v", r.Verification)
	}
	// The ten orders walk through the five kinds, two each: two are redeemed and a
	// second redemption and a refund of each are refused.
	if a := r.AfterClaim; a == nil || a.Orders != 10 || a.SecondRedeemsRefused != 2 || a.RefundsAfterUseRefused != 2 ||
		a.Outcomes["USED"] != 2 || a.Outcomes["REFUNDED"] != 2 || a.Outcomes["CANCELED"] != 2 || a.Outcomes["PAID"] != 2 ||
		a.Outcomes["CREATED"] != 2 || a.Ledger == nil || a.Ledger.Payments != 6 {
		t.Errorf("after the claim: %+v", a)
	}
	if r.Baseline == nil || r.Baseline.Ops.Requests == 0 || len(r.Baseline.Pairs) == 0 {
		t.Errorf("want baseline phases paired with claim phases, got %+v", r.Baseline)
	}
	if !r.Orders.AllCreated {
		t.Errorf("want every accepted claim written, got %+v", r.Orders)
	}
	svg, err := os.ReadFile(chartPath)
	if err != nil || !strings.HasPrefix(string(svg), "<svg") || !strings.Contains(string(svg), "<circle") {
		t.Errorf("chart not written as SVG with points (%v)", err)
	}
	if !strings.Contains(stdout.String(), "result     PASS") {
		t.Errorf("report does not say PASS:\n%s", stdout.String())
	}
}

// TestAcceptPathIsTheDefault: without flags about the sale, every user claims once a
// sale with a unit for each; every claim is accepted and written, and the report says
// it measured the accept path.
func TestAcceptPathIsTheDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	var stdout, stderr bytes.Buffer
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "out.json")
	code := run([]string{"--users", "60", "--concurrency", "8", "--after-claim", "0", "--json", jsonPath},
		func(string) string { return "" }, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit status %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	var r result
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	if r.Scenario.Path != pathAccept || r.Scenario.InitialStock != 60 || r.Accepted != 60 || r.Claims.Requests != 60 ||
		len(r.Claims.Answers) != 1 || !r.Orders.AllCreated {
		t.Errorf("accept path: %+v, answers %v, orders %+v", r.Scenario, r.Claims.Answers, r.Orders)
	}
	if !strings.Contains(stdout.String(), "accept path: every one of the 60 claims accepted") {
		t.Errorf("the report does not name the accept path:\n%s", stdout.String())
	}
}

func TestRefusesBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--users", "0"},
		{"--tokens", "magic"},
		{"--url", "http://127.0.0.1:1"},
		{"--url", "http://127.0.0.1:1", "--voucher", "1", "--tokens", "mint", "--jwt-secret", strings.Repeat("s", 32)},
		{"--database-url", "postgres://x@127.0.0.1/db"},
		{"--path", "sold-out", "--duration", "0"},
		{"--path", "sideways"},
		{"--prepare-only", "tokens.txt"},
		{"--url", "http://127.0.0.1:1", "--voucher", "1", "--prepare-only", "tokens.txt", "--json", "out.json"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, func(string) string { return "" }, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit status %d, want 2 (stderr %s)", args, code, stderr.String())
		}
	}
}

// TestAfterClaimChecksFail: the checks of the walked sale fail on what breaks I5, I6 or
// I7, so a PASS means something.
func TestAfterClaimChecksFail(t *testing.T) {
	t.Parallel()
	sound := seckill.Audit{RedisLoaded: true, RedisStock: 4, DBStock: 4, Orders: orders.OrderCounts{Created: 6, LiveUsers: 6}}
	out := &afterClaimJSON{Orders: 10, Outcomes: map[string]int{"USED": 2}, SecondRedeems: 2, SecondRedeemsRefused: 2}
	failed := func(checks []check) []string {
		var names []string
		for _, c := range checks {
			if !c.OK {
				names = append(names, c.Name[:2])
			}
		}
		return names
	}
	if bad := failed(afterClaimChecks(out, sound, orders.Ledger{}, 10)); len(bad) != 0 {
		t.Fatalf("a sound sale fails %v", bad)
	}
	leak := sound
	leak.RedisStock = 3 // a unit that never came back to the gate
	for _, tc := range []struct {
		name   string
		audit  seckill.Audit
		ledger orders.Ledger
		out    *afterClaimJSON
		want   string
	}{
		{"unit lost in redis", leak, orders.Ledger{}, out, "I5"},
		{"paid and canceled", sound, orders.Ledger{PaidAndCanceled: 1}, out, "I6"},
		{"refund never settled", sound, orders.Ledger{RefundsPending: 1}, out, "I6"},
		{"shared code", sound, orders.Ledger{SharedCodes: 1}, out, "I7"},
		{"redeemed twice", sound, orders.Ledger{}, &afterClaimJSON{Orders: 10, SecondRedeems: 2, SecondRedeemsRefused: 1}, "I7"},
	} {
		if bad := failed(afterClaimChecks(tc.out, tc.audit, tc.ledger, 10)); len(bad) != 1 || bad[0] != tc.want {
			t.Errorf("%s: failed %v, want only %s", tc.name, bad, tc.want)
		}
	}
}
