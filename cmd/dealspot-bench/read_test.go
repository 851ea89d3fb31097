package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseReadMix(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []readWeight
		bad      string
	}{
		{name: "the default", in: defaultReadMix,
			want: []readWeight{{readShop, 4}, {readShops, 3}, {readNearby, 2}, {readHotBlogs, 1}}},
		{name: "one operation", in: "shops=1", want: []readWeight{{readShops, 1}}},
		{name: "spaces and a zero weight left out", in: " shop = 2 , hotBlogs=0,nearby=5 ",
			want: []readWeight{{readShop, 2}, {readNearby, 5}}},
		{name: "unknown operation", in: "shop=1,users=2", bad: `unknown operation "users"`},
		{name: "no weight", in: "shop", bad: "want name=weight"},
		{name: "negative weight", in: "shop=-1", bad: "whole number from 0 to 1000"},
		{name: "weight not a number", in: "shop=a", bad: "whole number"},
		{name: "twice", in: "shop=1,shop=2", bad: "shop given twice"},
		{name: "all zero", in: "shop=0", bad: "at least one operation"},
		{name: "empty", in: "", bad: "at least one operation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseReadMix(tc.in)
			if tc.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("parseReadMix(%q) = %v, %v; want an error saying %q", tc.in, got, err, tc.bad)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("parseReadMix(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestReadScheduleKeepsTheMix: one cycle holds each operation as often as its weight,
// spread out rather than in runs.
func TestReadScheduleKeepsTheMix(t *testing.T) {
	t.Parallel()
	mix, err := parseReadMix(defaultReadMix)
	if err != nil {
		t.Fatal(err)
	}
	s := readSchedule(mix)
	counts := map[string]int{}
	for _, op := range s {
		counts[op]++
	}
	if len(s) != 10 || counts[readShop] != 4 || counts[readShops] != 3 || counts[readNearby] != 2 || counts[readHotBlogs] != 1 {
		t.Fatalf("schedule %v, want 4 shop, 3 shops, 2 nearby, 1 hotBlogs", s)
	}
	for i := 1; i < len(s); i++ {
		if s[i] == readShop && s[i-1] == readShop {
			t.Errorf("shop twice in a row in %v", s)
		}
	}
}

func TestReadFlags(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	sc, err := parseScenario([]string{"--path", "read", "--read-mix", "shops=3,shop=1", "--read-method", "post", "--read-auth", "token",
		"--url", "http://127.0.0.1:1"}, &stderr)
	if err != nil {
		t.Fatalf("read path against --url without a sale: %v", err)
	}
	if !slices.Equal(sc.ReadMix, []readWeight{{readShops, 3}, {readShop, 1}}) || sc.ReadMethod != "post" || sc.ReadAuth != "token" {
		t.Errorf("scenario %+v", sc)
	}
	sc, err = parseScenario([]string{"--path", "read"}, &stderr)
	if err != nil || sc.ReadMethod != "get" || sc.ReadAuth != "none" || len(sc.ReadMix) != 4 || sc.Duration != 5*time.Second {
		t.Errorf("defaults: %+v, %v", sc, err)
	}
	for _, args := range [][]string{
		{"--path", "read", "--read-mix", "shop=x"},
		{"--path", "read", "--read-method", "put"},
		{"--path", "read", "--read-auth", "cookie"},
		{"--read-mix", "shop=1"},
		{"--path", "sold-out", "--read-method", "post"},
		{"--path", "read", "--baseline"},
		{"--path", "read", "--voucher", "3"},
		{"--path", "read", "--chart", "out.svg"},
	} {
		if _, err := parseScenario(args, &stderr); err == nil {
			t.Errorf("%v: accepted, want an error", args)
		}
	}
}

// TestReadReportPerOperation: each operation gets its own line and figures, in the order
// of the mix, and the whole adds them up; an erring operation fails the run by name.
func TestReadReportPerOperation(t *testing.T) {
	t.Parallel()
	start := time.Unix(1_700_000_000, 0)
	stats := map[string]*phaseStats{readShop: newPhaseStats(readShop, start), readShops: newPhaseStats(readShops, start)}
	for i := range 300 {
		stats[readShop].record(start.Add(time.Duration(i)*time.Millisecond), time.Millisecond, answerOK, false)
	}
	for i := range 100 {
		code := answerOK
		if i%50 == 0 {
			code = "INTERNAL"
		}
		stats[readShops].record(start.Add(time.Duration(i)*time.Millisecond), 4*time.Millisecond, code, code != answerOK)
	}
	for _, p := range stats {
		p.end = start.Add(2 * time.Second)
	}
	mix := []readWeight{{readShop, 3}, {readShops, 1}}
	ops, all, problems := readReportOf(stats, mix)
	if len(ops) != 2 || ops[0].Op != readShop || ops[1].Op != readShops {
		t.Fatalf("operations %+v, want shop then shops", ops)
	}
	if ops[0].Requests != 300 || ops[0].PerSecond != 150 || ops[0].Errors != 0 || ops[0].Latency.P50 != 1 {
		t.Errorf("shop: %+v", ops[0].phaseJSON)
	}
	if ops[1].Requests != 100 || ops[1].Errors != 2 || ops[1].Latency.P99 != 4 || ops[1].Answers["INTERNAL"] != 2 {
		t.Errorf("shops: %+v", ops[1].phaseJSON)
	}
	if all.Requests != 400 || all.PerSecond != 200 || all.Errors != 2 || all.Latency.Max != 4 || all.Latency.P50 < 1 || all.Latency.P50 > 1.05 {
		t.Errorf("all: %+v", all)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "2 shops requests erred (INTERNAL 2)") {
		t.Errorf("problems %q", problems)
	}
	r := &readResult{Method: "get", Auth: "none", Mix: mix, Operations: ops, All: all, Problems: problems}
	var out bytes.Buffer
	r.writeText(&out)
	for _, want := range []string{"read path over GET, anonymous, mix shop=3,shops=1", "\nshop ", "\nshops ", "\nall ", "FAIL: 2 shops requests erred"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestClassifyRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		body   string
		want   string
	}{
		{200, `{"data":{"shop":{"id":"1"}}}`, answerOK},
		{200, `{"data":{"shop":null}}`, answerOK},
		{200, `{"errors":[{"message":"x","extensions":{"code":"BAD_USER_INPUT"}}],"data":null}`, "BAD_USER_INPUT"},
		{200, `{"data":null}`, answerMalformed},
		{502, `bad gateway`, "HTTP_502"},
	} {
		if got := classifyRead(tc.status, []byte(tc.body), nil); got != tc.want {
			t.Errorf("classifyRead(%d, %s) = %s, want %s", tc.status, tc.body, got, tc.want)
		}
	}
}

// TestReadPathInProcess floods every read of the mix on the embedded defaults with the
// demo seed, over GET anonymously and over POST with tokens; none may err.
func TestReadPathInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	for _, args := range [][]string{
		{"--read-method", "get", "--read-auth", "none"},
		{"--read-method", "post", "--read-auth", "token", "--users", "5"},
	} {
		jsonPath := filepath.Join(t.TempDir(), "read.json")
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"--path", "read", "--concurrency", "4", "--duration", "500ms", "--warmup", "100ms", "--json", jsonPath}, args...),
			func(string) string { return "" }, &stdout, &stderr)
		if code != 0 {
			t.Fatalf("%v: exit status %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout.String(), stderr.String())
		}
		raw, err := os.ReadFile(jsonPath)
		if err != nil {
			t.Fatal(err)
		}
		var r readResult
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if !r.OK || len(r.Operations) != 4 || r.All.Errors != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
		for _, op := range r.Operations {
			if op.Requests == 0 || op.Answers[answerOK] != op.Requests {
				t.Errorf("%v: %s answered %v of %d", args, op.Op, op.Answers, op.Requests)
			}
		}
		if !strings.Contains(stdout.String(), "result     PASS") {
			t.Errorf("report does not say PASS:\n%s", stdout.String())
		}
	}
}
