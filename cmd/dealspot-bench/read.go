package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The read path's operations. Each asks for the thirteen scalar fields of a shop (or
// a note's own fields), as a list or detail page of an app would.
const (
	readShop     = "shop"
	readShops    = "shops"
	readNearby   = "nearby"
	readHotBlogs = "hotBlogs"
)

// defaultReadMix weighs the reads as a shop app is used: a shop's page is opened most
// (4), the list of a type is scrolled next (3), the map of nearby shops after it (2) and
// the notes' front page least (1).
const defaultReadMix = "shop=4,shops=3,nearby=2,hotBlogs=1"

// shopFields are the shop's own fields every shop operation asks for.
const shopFields = `id name typeId images { url width height } area address longitude latitude avgPrice sold comments score openHours`

// readQueries are the documents of the read path, with the variables the seed's first
// shop fills in (see readTargetsOf).
var readQueries = map[string]string{
	readShop:     `query ReadShop($id: ID!) { shop(id: $id) { ` + shopFields + ` } }`,
	readShops:    `query ReadShops($typeId: ID) { shops(typeId: $typeId, first: 10) { edges { node { ` + shopFields + ` } } } }`,
	readNearby:   `query ReadNearby($typeId: ID!, $lon: Float!, $lat: Float!) { nearbyShops(typeId: $typeId, longitude: $lon, latitude: $lat, first: 10) { edges { distanceMeters node { ` + shopFields + ` } } } }`,
	readHotBlogs: `query ReadHotBlogs { hotBlogs(first: 10) { edges { node { id title content images { url width height } authorId shopId rating likedCount createdAt } } } }`,
}

func readOpNames() []string { return []string{readShop, readShops, readNearby, readHotBlogs} }

// readWeight is one operation of the mix and how often it is sent.
type readWeight struct {
	Op     string
	Weight int
}

// parseReadMix reads name=weight,… ; every name once, weights 0–1000, at least one
// above 0.
func parseReadMix(s string) ([]readWeight, error) {
	var out []readWeight
	total := 0
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, w, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		if !ok {
			return nil, fmt.Errorf("--read-mix: want name=weight, got %q", part)
		}
		if !slices.Contains(readOpNames(), name) {
			return nil, fmt.Errorf("--read-mix: unknown operation %q (want %s)", name, strings.Join(readOpNames(), ", "))
		}
		if slices.ContainsFunc(out, func(r readWeight) bool { return r.Op == name }) {
			return nil, fmt.Errorf("--read-mix: %s given twice", name)
		}
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 0 || n > 1000 {
			return nil, fmt.Errorf("--read-mix: weight of %s must be a whole number from 0 to 1000, got %q", name, w)
		}
		if n > 0 {
			out = append(out, readWeight{Op: name, Weight: n})
			total += n
		}
	}
	if total == 0 {
		return nil, errors.New("--read-mix: give at least one operation a weight above 0")
	}
	return out, nil
}

// readSchedule spreads the operations over one cycle of sum(weights) slots, each
// operation's slots evenly apart (shop,shops,nearby,shop,… for 4,3,2,1), so that any
// stretch of requests holds the mix.
func readSchedule(mix []readWeight) []string {
	type slot struct {
		at float64
		op string
		i  int
	}
	var slots []slot
	for i, m := range mix {
		for k := range m.Weight {
			slots = append(slots, slot{at: (float64(k) + 0.5) / float64(m.Weight), op: m.Op, i: i})
		}
	}
	sort.SliceStable(slots, func(a, b int) bool {
		if slots[a].at != slots[b].at {
			return slots[a].at < slots[b].at
		}
		return slots[a].i < slots[b].i
	})
	out := make([]string, len(slots))
	for i, s := range slots {
		out[i] = s.op
	}
	return out
}

// readTargets are the seeded data the reads ask about.
type readTargets struct {
	ShopID    string
	TypeID    string
	Longitude float64
	Latitude  float64
}

// findReadTargets asks the server for its first shop: its id, type and position.
func findReadTargets(ctx context.Context, c *client) (readTargets, error) {
	var out struct {
		Shops struct {
			Edges []struct {
				Node struct {
					ID        string
					TypeID    string
					Longitude float64
					Latitude  float64
				}
			}
		}
	}
	if err := c.call(ctx, "", `query { shops(first: 1) { edges { node { id typeId longitude latitude } } } }`, nil, &out); err != nil {
		return readTargets{}, fmt.Errorf("find a shop to read: %w", err)
	}
	if len(out.Shops.Edges) == 0 {
		return readTargets{}, errors.New("the server has no shop to read (seed it: dealspot seed)")
	}
	n := out.Shops.Edges[0].Node
	return readTargets{ShopID: n.ID, TypeID: n.TypeID, Longitude: n.Longitude, Latitude: n.Latitude}, nil
}

// readRequest is one operation ready to send: a GET URL or a POST body.
type readRequest struct {
	op   string
	url  string
	body []byte
}

func readRequests(baseURL string, t readTargets, method string) (map[string]readRequest, error) {
	vars := map[string]map[string]any{
		readShop:     {"id": t.ShopID},
		readShops:    {"typeId": t.TypeID},
		readNearby:   {"typeId": t.TypeID, "lon": t.Longitude, "lat": t.Latitude},
		readHotBlogs: {},
	}
	out := map[string]readRequest{}
	for op, q := range readQueries {
		v, err := json.Marshal(vars[op])
		if err != nil {
			return nil, err
		}
		r := readRequest{op: op}
		if method == "post" {
			if r.body, err = json.Marshal(map[string]any{"query": q, "variables": json.RawMessage(v)}); err != nil {
				return nil, err
			}
		} else {
			r.url = baseURL + "/graphql?" + url.Values{"query": {q}, "variables": {string(v)}}.Encode()
		}
		out[op] = r
	}
	return out, nil
}

// classifyRead names an answer: OK for data without errors.
func classifyRead(status int, body []byte, err error) string {
	code := classifyBaseline(status, body, err)
	if code == answerOK && !bytes.HasPrefix(body, []byte(`{"data":{`)) {
		return answerMalformed
	}
	return code
}

// readFlood sends the mix with a fixed number of concurrent requests.
type readFlood struct {
	client      *client
	auth        []string // "Bearer <token>" per user; empty: anonymous
	schedule    []string
	requests    map[string]readRequest
	concurrency int
	budget      int64
}

// run floods for d (0: until the budget is spent) or until ctx ends and returns each
// operation's stats.
func (f *readFlood) run(ctx context.Context, d time.Duration, live *liveLine, label string) map[string]*phaseStats {
	start := time.Now()
	stats := map[string]*phaseStats{}
	for _, op := range f.schedule {
		if stats[op] == nil {
			stats[op] = newPhaseStats(op, start)
		}
	}
	stop, release := stopAfter(ctx, d)
	defer release()
	var next, answered, errs atomic.Int64
	done := make(chan struct{})
	var followed sync.WaitGroup
	if live != nil {
		followed.Go(func() {
			tk := time.NewTicker(time.Second)
			defer tk.Stop()
			last := int64(0)
			for {
				select {
				case <-done:
					return
				case now := <-tk.C:
					n := answered.Load()
					live.print(fmt.Sprintf("%-16s %5.1fs %8d/s | %d answers, %d errors", label, now.Sub(start).Seconds(), n-last, n, errs.Load()), false)
					last = n
				}
			}
		})
	}
	var wg sync.WaitGroup
	for range f.concurrency {
		wg.Go(func() {
			var buf bytes.Buffer
			for !stop.Load() {
				i := next.Add(1) - 1
				if f.budget > 0 && i >= f.budget {
					stop.Store(true)
					return
				}
				r := f.requests[f.schedule[i%int64(len(f.schedule))]]
				auth := ""
				if len(f.auth) > 0 {
					auth = f.auth[i%int64(len(f.auth))]
				}
				t0 := time.Now()
				var (
					status int
					answer []byte
					err    error
				)
				if r.body != nil {
					status, answer, err = f.client.post(context.Background(), auth, r.body, &buf)
				} else {
					status, answer, err = f.client.get(context.Background(), auth, r.url, &buf)
				}
				at := time.Now()
				code := classifyRead(status, answer, err)
				stats[r.op].record(at, at.Sub(t0), code, code != answerOK)
				answered.Add(1)
				if code != answerOK {
					errs.Add(1)
				}
			}
		})
	}
	wg.Wait()
	end := time.Now()
	for _, p := range stats {
		p.end = end
	}
	close(done)
	followed.Wait()
	if live != nil {
		live.print(fmt.Sprintf("%-16s %5.1fs %8.0f/s | %d answers, %d errors", label, end.Sub(start).Seconds(),
			float64(answered.Load())/end.Sub(start).Seconds(), answered.Load(), errs.Load()), true)
	}
	return stats
}

// readResult is what the read path measured.
type readResult struct {
	StartedAt   time.Time    `json:"started_at"`
	Server      serverJSON   `json:"server"`
	Path        string       `json:"path"`
	Method      string       `json:"method"`
	Auth        string       `json:"auth"`
	Mix         []readWeight `json:"mix"`
	Targets     readTargets  `json:"targets"`
	Concurrency int          `json:"concurrency"`
	// Operations are in the order of the mix; All adds them up.
	Operations []readOpJSON `json:"operations"`
	All        phaseJSON    `json:"all"`
	Problems   []string     `json:"problems"`
	OK         bool         `json:"ok"`
}

type readOpJSON struct {
	Op string `json:"op"`
	phaseJSON
}

// readReportOf adds up the flood's stats per operation, in the order of mix, and for
// all of them.
func readReportOf(stats map[string]*phaseStats, mix []readWeight) ([]readOpJSON, phaseJSON, []string) {
	var (
		ops      []readOpJSON
		all      []*phaseStats
		problems []string
	)
	for _, m := range mix {
		p := stats[m.Op]
		if p == nil {
			continue
		}
		all = append(all, p)
		c := combine([]*phaseStats{p}, m.Op)
		ops = append(ops, readOpJSON{Op: m.Op, phaseJSON: phaseOf(c)})
		if c.errors > 0 {
			problems = append(problems, fmt.Sprintf("%d %s requests erred (%s)", c.errors, m.Op, readErrorCodes(c.answers)))
		}
	}
	total := combined{answers: map[string]uint64{}}
	for _, p := range all {
		total.hist.merge(&p.hist)
		for k, v := range p.answers {
			total.answers[k] += v
		}
		total.errors += p.errors
		total.seconds = max(total.seconds, p.seconds())
	}
	return ops, phaseOf(total), problems
}

func readErrorCodes(answers map[string]uint64) string {
	var out []string
	for _, k := range sortedAnswers(answers) {
		if k != answerOK {
			out = append(out, fmt.Sprintf("%s %d", k, answers[k]))
		}
	}
	return strings.Join(out, ", ")
}

// writeText prints the read path's report: a line per operation, then the whole.
func (r *readResult) writeText(w io.Writer) {
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-11s%s at %s (%s)\n", "server", r.Server.Mode, r.Server.URL, r.Server.Backends)
	var mix []string
	for _, m := range r.Mix {
		mix = append(mix, fmt.Sprintf("%s=%d", m.Op, m.Weight))
	}
	fmt.Fprintf(w, "%-11sread path over %s, %s, mix %s, concurrency %d, shop %s of type %s at (%g, %g)\n", "scenario",
		strings.ToUpper(r.Method), map[string]string{"none": "anonymous", "token": "with users' tokens"}[r.Auth],
		strings.Join(mix, ","), r.Concurrency, r.Targets.ShopID, r.Targets.TypeID, r.Targets.Longitude, r.Targets.Latitude)
	fmt.Fprintf(w, "%-10s %9s %9s %8s %8s %8s %8s %8s\n", "operation", "requests", "req/s", "p50", "p90", "p99", "max", "errors")
	line := func(name string, p phaseJSON) {
		fmt.Fprintf(w, "%-10s %9d %9.0f %8s %8s %8s %8s %8d\n", name, p.Requests, p.PerSecond,
			fmtMS(p.Latency.P50), fmtMS(p.Latency.P90), fmtMS(p.Latency.P99), fmtMS(p.Latency.Max), p.Errors)
	}
	for _, op := range r.Operations {
		line(op.Op, op.phaseJSON)
	}
	line("all", r.All)
	if r.OK {
		fmt.Fprintf(w, "%-11s%s\n", "result", "PASS")
	} else {
		fmt.Fprintf(w, "%-11sFAIL: %s\n", "result", strings.Join(r.Problems, "; "))
	}
}

func (r *readResult) writeJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, func(path string) error { return os.WriteFile(path, append(b, '\n'), 0o644) })
}

// benchRead runs the read path: finds a shop to read, gets tokens if asked, warms up,
// floods the mix and reports each operation.
func benchRead(ctx context.Context, sc scenario, getenv func(string) string, stdout, stderr io.Writer) (_ *readResult, err error) {
	tty := isTerminal(stderr)
	t, c, err := openTarget(ctx, sc, getenv, stderr)
	if err != nil {
		return nil, err
	}
	defer closeTarget(t, c, stderr)
	fmt.Fprintf(stderr, "server   %s at %s (%s)\n", t.mode, t.baseURL, t.backends)

	targets, err := findReadTargets(ctx, c)
	if err != nil {
		return nil, err
	}
	r := &readResult{
		StartedAt: time.Now().UTC(), Server: serverJSON{URL: t.baseURL, Mode: t.mode, Backends: t.backends},
		Path: pathRead, Method: sc.ReadMethod, Auth: sc.ReadAuth, Mix: sc.ReadMix, Targets: targets,
		Concurrency: sc.Concurrency, Problems: []string{},
	}
	reqs, err := readRequests(t.baseURL, targets, sc.ReadMethod)
	if err != nil {
		return nil, err
	}
	f := &readFlood{client: c, schedule: readSchedule(sc.ReadMix), requests: reqs, concurrency: sc.Concurrency}
	if sc.ReadAuth == "token" {
		var ignored result
		tokens, err := getTokens(ctx, sc, t, c, stderr, tty, &ignored)
		if err != nil {
			return nil, err
		}
		if err := checkTokens(ctx, c, tokens); err != nil {
			return nil, err
		}
		for _, tok := range tokens {
			f.auth = append(f.auth, "Bearer "+tok)
		}
	}
	live := &liveLine{w: stderr, tty: tty}
	if sc.Warmup > 0 {
		f.run(ctx, sc.Warmup, live, "warm-up")
	}
	stopProfile, err := startCPUProfile(sc.CPUProfile)
	if err != nil {
		return nil, err
	}
	f.budget = sc.Total
	stats := f.run(ctx, sc.Duration, live, "reads")
	stopProfile()
	r.Operations, r.All, r.Problems = readReportOf(stats, sc.ReadMix)
	if r.Problems == nil {
		r.Problems = []string{}
	}
	if ctx.Err() != nil {
		r.Problems = append(r.Problems, "interrupted")
	}
	if r.All.Requests == 0 {
		r.Problems = append(r.Problems, "no read was answered")
	}
	r.OK = len(r.Problems) == 0
	r.writeText(stdout)
	if sc.JSONPath != "" {
		if err := r.writeJSON(sc.JSONPath); err != nil {
			return nil, fmt.Errorf("write %s: %w", sc.JSONPath, err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", sc.JSONPath)
	}
	return r, nil
}
