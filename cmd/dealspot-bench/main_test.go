package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	code := run([]string{"--users", "40", "--stock", "10", "--concurrency", "8", "--duration", "1s",
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
	if !r.Verification.Checked || len(r.Verification.Checks) != 5 {
		t.Errorf("want I1–I4 and the accepted count checked, got %+v", r.Verification)
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

func TestRefusesBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--users", "0"},
		{"--tokens", "magic"},
		{"--url", "http://127.0.0.1:1"},
		{"--url", "http://127.0.0.1:1", "--voucher", "1", "--tokens", "mint", "--jwt-secret", strings.Repeat("s", 32)},
		{"--database-url", "postgres://x@127.0.0.1/db"},
		{"--duration", "0"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, func(string) string { return "" }, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit status %d, want 2 (stderr %s)", args, code, stderr.String())
		}
	}
}
