package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Answers that are not an extensions.code.
const (
	// answerAccepted is a claim answered with an order id (status PENDING).
	answerAccepted = "PENDING"
	// answerOK is a baseline operation answered without errors.
	answerOK = "OK"
	// answerTransport is a request that got no HTTP answer.
	answerTransport = "TRANSPORT_ERROR"
	// answerMalformed is an answer that is neither data nor errors.
	answerMalformed = "MALFORMED"
)

// claimRefusals are answers a flash sale gives by design; every other code is an error.
var claimRefusals = map[string]bool{
	"SOLD_OUT": true, "ALREADY_CLAIMED": true, "RATE_LIMITED": true, "NOT_STARTED": true, "ENDED": true,
}

// decisive answers settle whether a user holds the voucher.
func decisive(code string) bool {
	return code == answerAccepted || code == "SOLD_OUT" || code == "ALREADY_CLAIMED"
}

func isClaimError(code string) bool { return code != answerAccepted && !claimRefusals[code] }

// knownCodes interns the codes so that classifying an answer does not allocate.
var knownCodes = map[string]string{}

func init() {
	for _, c := range []string{"SOLD_OUT", "ALREADY_CLAIMED", "RATE_LIMITED", "NOT_STARTED", "ENDED",
		"INTERNAL", "UNAUTHENTICATED", "FORBIDDEN", "BAD_USER_INPUT", "NOT_FOUND", "CONFLICT", "TIMEOUT",
		"GRAPHQL_VALIDATION_FAILED", "GRAPHQL_PARSE_FAILED", "COMPLEXITY_LIMIT_EXCEEDED"} {
		knownCodes[c] = c
	}
}

var (
	orderIDKey = []byte(`"orderId":"`)
	errorsKey  = []byte(`"errors"`)
	codeKey    = []byte(`"code":"`)
	pendingKey = []byte(`"status":"PENDING"`)
)

// errorCode finds the first extensions.code of an answer with errors by scanning, not
// decoding: the client shares the machine with the server, and every microsecond it
// spends is one the server does not get.
func errorCode(body []byte) (string, bool) {
	if !bytes.Contains(body, errorsKey) {
		return "", false
	}
	i := bytes.Index(body, codeKey)
	if i < 0 {
		return "GRAPHQL_ERROR", true
	}
	rest := body[i+len(codeKey):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return answerMalformed, true
	}
	if c, ok := knownCodes[string(rest[:j])]; ok {
		return c, true
	}
	return string(rest[:j]), true
}

// orderIDOf reads the order id of an accepted claim's answer (0 if there is none).
func orderIDOf(body []byte) int64 {
	i := bytes.Index(body, orderIDKey)
	if i < 0 {
		return 0
	}
	var id int64
	for _, c := range body[i+len(orderIDKey):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}

// owned lists up to n accepted orders with their buyers' tokens, in user order.
func (f *flood) owned(n int) []ownedOrder {
	var out []ownedOrder
	for user := range f.orderIDs {
		if len(out) >= n {
			break
		}
		if id := atomic.LoadInt64(&f.orderIDs[user]); id != 0 {
			out = append(out, ownedOrder{id: id, token: f.auth[user][len("Bearer "):]})
		}
	}
	return out
}

func classifyClaim(status int, body []byte, err error) string {
	if err != nil {
		return answerTransport
	}
	if code, ok := errorCode(body); ok {
		return code
	}
	switch {
	case status != http.StatusOK:
		return "HTTP_" + strconv.Itoa(status)
	case bytes.Contains(body, pendingKey):
		return answerAccepted
	}
	return answerMalformed
}

func classifyBaseline(status int, body []byte, err error) string {
	if err != nil {
		return answerTransport
	}
	if code, ok := errorCode(body); ok {
		return code
	}
	if status != http.StatusOK {
		return "HTTP_" + strconv.Itoa(status)
	}
	return answerOK
}

// flood sends claims and baseline operations with a fixed number of concurrent
// requests, each from one user's token.
type flood struct {
	client      *client
	auth        []string // "Bearer <token>" per user
	claimBody   []byte
	baseBody    []byte
	concurrency int
	// next is the index of the next claim, across all claim phases: claim i is user
	// i mod users, so users take turns and a user's claims are spread out.
	next   atomic.Int64
	budget int64
	// decided marks users that got a decisive answer.
	decided []uint32
	// orderIDs holds each user's accepted order (0: none).
	orderIDs []int64
	// accepted counts PENDING answers so far.
	accepted atomic.Int64
	live     *liveLine
}

// claimBody is the body of a claim of voucherID.
func claimBody(voucherID int64) ([]byte, error) {
	return json.Marshal(map[string]any{
		"query":     `mutation Claim($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`,
		"variables": map[string]any{"v": strconv.FormatInt(voucherID, 10)},
	})
}

func newFlood(c *client, tokens []string, voucherID int64, baselineQuery string, sc scenario, live *liveLine) (*flood, error) {
	claim, err := claimBody(voucherID)
	if err != nil {
		return nil, err
	}
	base, err := json.Marshal(map[string]any{"query": baselineQuery})
	if err != nil {
		return nil, err
	}
	auth := make([]string, len(tokens))
	for i, t := range tokens {
		auth[i] = "Bearer " + t
	}
	return &flood{
		client: c, auth: auth, claimBody: claim, baseBody: base, concurrency: sc.Concurrency,
		budget: sc.claimBudget(), decided: make([]uint32, len(tokens)), orderIDs: make([]int64, len(tokens)), live: live,
	}, nil
}

// exhausted reports whether the claim budget is spent.
func (f *flood) exhausted() bool { return f.budget > 0 && f.next.Load() >= f.budget }

// undecided counts users without a decisive answer.
func (f *flood) undecided() int {
	n := 0
	for i := range f.decided {
		if atomic.LoadUint32(&f.decided[i]) == 0 {
			n++
		}
	}
	return n
}

// stopAfter returns a flag that turns true after d (never, for d = 0) or when ctx ends,
// and the function that releases its timers.
func stopAfter(ctx context.Context, d time.Duration) (*atomic.Bool, func()) {
	stop := new(atomic.Bool)
	var t *time.Timer
	if d > 0 {
		t = time.AfterFunc(d, func() { stop.Store(true) })
	}
	stopWatch := context.AfterFunc(ctx, func() { stop.Store(true) })
	return stop, func() {
		if t != nil {
			t.Stop()
		}
		stopWatch()
	}
}

// run runs one phase of kind for d (0: until the claim budget is spent) or until ctx
// ends; requests in flight then finish and count.
func (f *flood) run(ctx context.Context, kind, label string, d time.Duration) *phaseStats {
	ps := newPhaseStats(kind, time.Now())
	stop, release := stopAfter(ctx, d)
	defer release()

	done, followed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(followed)
		f.live.follow(ps, label, f, done)
	}()

	body, claims := f.baseBody, kind == kindClaims
	if claims {
		body = f.claimBody
	}
	var (
		wg        sync.WaitGroup
		phaseNext atomic.Int64
		users     = int64(len(f.auth))
	)
	for range f.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			for !stop.Load() {
				var i int64
				if claims {
					i = f.next.Add(1) - 1
					if f.budget > 0 && i >= f.budget {
						stop.Store(true)
						return
					}
				} else {
					i = phaseNext.Add(1) - 1
				}
				user := i % users
				// In-flight requests are not cut by an interrupt: a claim the server
				// accepted must be counted, or the audit would see an order too many.
				t0 := time.Now()
				status, answer, err := f.client.post(context.Background(), f.auth[user], body, &buf)
				at := time.Now()
				if claims {
					code := classifyClaim(status, answer, err)
					ps.record(at, at.Sub(t0), code, isClaimError(code))
					if decisive(code) {
						atomic.StoreUint32(&f.decided[user], 1)
					}
					if code == answerAccepted {
						f.accepted.Add(1)
						atomic.StoreInt64(&f.orderIDs[user], orderIDOf(answer))
					}
				} else {
					code := classifyBaseline(status, answer, err)
					ps.record(at, at.Sub(t0), code, code != answerOK)
				}
			}
		}()
	}
	wg.Wait()
	ps.end = time.Now()
	close(done)
	<-followed
	f.live.finish(ps, label, f)
	return ps
}

// runAll runs the warm-up and then the claim phases, interleaved with baseline phases
// when sc.Baseline is set: baseline, claims, baseline, claims… so that whatever else
// the machine is doing at a given moment weighs on both alike.
func (f *flood) runAll(ctx context.Context, sc scenario) []*phaseStats {
	if sc.Warmup > 0 {
		f.run(ctx, kindWarmup, "warm-up", sc.Warmup)
	}
	if !sc.Baseline {
		return []*phaseStats{f.run(ctx, kindClaims, "claims", sc.Duration)}
	}
	var (
		phases    []*phaseStats
		claimTime time.Duration
	)
	rounds := "?"
	if sc.Duration > 0 {
		rounds = strconv.Itoa(int((sc.Duration + sc.Phase - 1) / sc.Phase))
	}
	for round := 1; ctx.Err() == nil; round++ {
		label := fmt.Sprintf("%d/%s", round, rounds)
		phases = append(phases, f.run(ctx, kindBaseline, "baseline "+label, sc.Phase))
		d := sc.Phase
		if sc.Duration > 0 {
			d = min(d, sc.Duration-claimTime)
		}
		p := f.run(ctx, kindClaims, "claims   "+label, d)
		phases = append(phases, p)
		claimTime += p.end.Sub(p.start)
		if f.exhausted() || (sc.Duration > 0 && claimTime >= sc.Duration-sc.Phase/4) {
			break
		}
	}
	return phases
}

// liveLine prints a phase's progress once a second: rate and p99 of the last second,
// answers and errors so far.
type liveLine struct {
	w   io.Writer
	tty bool
}

func (l *liveLine) follow(ps *phaseStats, label string, f *flood, done <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			n, errs, last, ok := ps.snapshot(now)
			if !ok {
				continue
			}
			l.print(fmt.Sprintf("%-16s %5.1fs %8.0f/s  p99 %7s | %d answers, %d accepted, %d errors",
				label, now.Sub(ps.start).Seconds(), float64(last.n), fmtDur(last.hist.quantile(0.99)),
				n, f.accepted.Load(), errs), false)
		}
	}
}

func (l *liveLine) finish(ps *phaseStats, label string, f *flood) {
	l.print(fmt.Sprintf("%-16s %5.1fs %8.0f/s  p99 %7s | %d answers, %d accepted, %d errors",
		label, ps.seconds(), ps.rate(), fmtDur(ps.hist.quantile(0.99)), ps.hist.n, f.accepted.Load(), ps.errors), true)
}

// print rewrites the line in place on a terminal; elsewhere every update is a line.
func (l *liveLine) print(s string, final bool) {
	switch {
	case l.tty && final:
		fmt.Fprintf(l.w, "\r\033[K%s\n", s)
	case l.tty:
		fmt.Fprintf(l.w, "\r\033[K%s", s)
	default:
		fmt.Fprintln(l.w, s)
	}
}
