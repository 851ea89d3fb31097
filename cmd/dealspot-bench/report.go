package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// result is everything a run measured; it is printed and written as JSON.
type result struct {
	StartedAt time.Time    `json:"started_at"`
	Server    serverJSON   `json:"server"`
	Scenario  scenarioJSON `json:"scenario"`
	Tokens    tokensJSON   `json:"tokens"`
	Claims    phaseJSON    `json:"claims"`
	// Accepted counts claims answered with an order id (PENDING).
	Accepted     int64            `json:"accepted"`
	SellOut      *sellOutJSON     `json:"sell_out,omitempty"`
	Orders       ordersJSON       `json:"orders"`
	Baseline     *baselineJSON    `json:"baseline,omitempty"`
	Verification verificationJSON `json:"verification"`
	AfterClaim   *afterClaimJSON  `json:"after_claim,omitempty"`
	Series       []secondJSON     `json:"series"`
	// Problems are the reasons OK is false.
	Problems []string `json:"problems"`
	OK       bool     `json:"ok"`
}

type serverJSON struct {
	URL      string `json:"url"`
	Mode     string `json:"mode"`
	Backends string `json:"backends"`
}

type scenarioJSON struct {
	VoucherID       int64   `json:"voucher_id"`
	CreatedSale     bool    `json:"created_sale"`
	InitialStock    int64   `json:"initial_stock"`
	Users           int     `json:"users"`
	ClaimsPerUser   int     `json:"claims_per_user"`
	Concurrency     int     `json:"concurrency"`
	DurationSeconds float64 `json:"duration_seconds"`
	Total           int64   `json:"total"`
	Baseline        bool    `json:"baseline"`
	// Path is the path measured: accept or sold-out.
	Path         string  `json:"path"`
	PhaseSeconds float64 `json:"phase_seconds,omitempty"`
}

type tokensJSON struct {
	Source    string  `json:"source"`
	Count     int     `json:"count"`
	Seconds   float64 `json:"seconds"`
	PerSecond float64 `json:"per_second"`
}

type latencyJSON struct {
	P50  float64 `json:"p50_ms"`
	P90  float64 `json:"p90_ms"`
	P99  float64 `json:"p99_ms"`
	Max  float64 `json:"max_ms"`
	Mean float64 `json:"mean_ms"`
}

type phaseJSON struct {
	Requests  uint64            `json:"requests"`
	Seconds   float64           `json:"seconds"`
	PerSecond float64           `json:"per_second"`
	Errors    uint64            `json:"errors"`
	Latency   latencyJSON       `json:"latency"`
	Answers   map[string]uint64 `json:"answers"`
}

type sellOutJSON struct {
	Accepted int64 `json:"accepted"`
	// Seconds is from the first to the last accepted answer.
	Seconds float64 `json:"seconds"`
}

type ordersJSON struct {
	Measured bool   `json:"measured"`
	Note     string `json:"note,omitempty"`
	// AllCreated is true when every accepted claim became an order in time.
	AllCreated bool `json:"all_created"`
	// Seconds until every accepted claim was an order, after the last and after the
	// first accepted answer.
	AfterLastAcceptSeconds  float64 `json:"after_last_accept_seconds"`
	AfterFirstAcceptSeconds float64 `json:"after_first_accept_seconds"`
	// ResolutionMillis is the time between the two audits the last order was written
	// between: the sale is audited every 100 ms, less often when the server is busy.
	ResolutionMillis int64 `json:"resolution_ms"`
}

type pairJSON struct {
	BaselinePerSecond float64 `json:"baseline_per_second"`
	ClaimsPerSecond   float64 `json:"claims_per_second"`
	Ratio             float64 `json:"ratio"`
	// Accepted counts the claim phase's accepted claims; phases without any answered
	// only refusals (sold out, already claimed).
	Accepted uint64 `json:"accepted"`
}

type baselineJSON struct {
	Query string    `json:"query"`
	Ops   phaseJSON `json:"ops"`
	// Pairs are adjacent baseline and claim phases; MedianRatio is their median claims/s
	// over baseline/s.
	Pairs        []pairJSON `json:"pairs"`
	MedianRatio  float64    `json:"median_ratio"`
	OverallRatio float64    `json:"overall_ratio"`
	// RefusalMedianRatio is the median over the pairs whose claim phase accepted no
	// claim: the rate of sold-out answers against the baseline (0: no such pair).
	RefusalMedianRatio float64 `json:"refusal_median_ratio"`
	RefusalPairs       int     `json:"refusal_pairs"`
}

type auditJSON struct {
	RedisStock   int64 `json:"redis_stock"`
	RedisLoaded  bool  `json:"redis_loaded"`
	Pending      int   `json:"pending"`
	RedisHolders int   `json:"redis_holders"`
	DBStock      int64 `json:"db_stock"`
	Created      int64 `json:"orders_created"`
	Failed       int64 `json:"orders_failed"`
	LiveUsers    int64 `json:"live_users"`
}

func toAuditJSON(a seckill.Audit) *auditJSON {
	return &auditJSON{RedisStock: a.RedisStock, RedisLoaded: a.RedisLoaded, Pending: a.Pending, RedisHolders: a.RedisHolders,
		DBStock: a.DBStock, Created: a.Orders.Created, Failed: a.Orders.Failed, LiveUsers: a.Orders.LiveUsers}
}

type verificationJSON struct {
	Checked bool       `json:"checked"`
	Note    string     `json:"note,omitempty"`
	Audit   *auditJSON `json:"audit,omitempty"`
	Checks  []check    `json:"checks,omitempty"`
}

// secondJSON is one second of one phase (the last second of a phase may be shorter).
type secondJSON struct {
	T         float64 `json:"t"`
	Seconds   float64 `json:"seconds"`
	Kind      string  `json:"kind"`
	Requests  uint64  `json:"requests"`
	PerSecond float64 `json:"per_second"`
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	Errors    uint64  `json:"errors"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func latencyOf(h *histogram) latencyJSON {
	return latencyJSON{P50: ms(h.quantile(0.50)), P90: ms(h.quantile(0.90)), P99: ms(h.quantile(0.99)), Max: ms(h.max), Mean: ms(h.mean())}
}

func phaseOf(c combined) phaseJSON {
	return phaseJSON{Requests: c.hist.n, Seconds: c.seconds, PerSecond: c.rate(), Errors: c.errors, Latency: latencyOf(&c.hist), Answers: c.answers}
}

// series lists every second of the measured phases, timed from the first of them.
func series(phases []*phaseStats) []secondJSON {
	var out []secondJSON
	if len(phases) == 0 {
		return out
	}
	t0 := phases[0].start
	for _, p := range phases {
		for i, b := range p.bins {
			from := p.start.Add(time.Duration(i) * time.Second)
			secs := min(time.Second, p.end.Sub(from)).Seconds()
			if secs <= 0 {
				continue
			}
			out = append(out, secondJSON{
				T: from.Sub(t0).Seconds(), Seconds: secs, Kind: p.kind, Requests: b.n, PerSecond: float64(b.n) / secs,
				P50: ms(b.hist.quantile(0.5)), P99: ms(b.hist.quantile(0.99)), Errors: b.errors,
			})
		}
	}
	return out
}

// baselineOf pairs each baseline phase with the claim phase after it. A pair whose
// claim phase was cut short (the budget ran out) counts only if it lasted a quarter of
// a phase: a rate over a few milliseconds says little.
func baselineOf(phases []*phaseStats, query string, phase time.Duration) *baselineJSON {
	b := &baselineJSON{Query: query, Ops: phaseOf(combine(phases, kindBaseline))}
	var ratios, refusals []float64
	for i := 0; i+1 < len(phases); i++ {
		base, claims := phases[i], phases[i+1]
		if base.kind != kindBaseline || claims.kind != kindClaims {
			continue
		}
		if claims.end.Sub(claims.start) < phase/4 || base.rate() == 0 {
			continue
		}
		r := claims.rate() / base.rate()
		accepted := claims.answers[answerAccepted]
		b.Pairs = append(b.Pairs, pairJSON{BaselinePerSecond: base.rate(), ClaimsPerSecond: claims.rate(), Ratio: r, Accepted: accepted})
		ratios = append(ratios, r)
		if accepted == 0 {
			refusals = append(refusals, r)
		}
	}
	b.MedianRatio = median(ratios)
	b.RefusalMedianRatio, b.RefusalPairs = median(refusals), len(refusals)
	if b.Ops.PerSecond > 0 {
		b.OverallRatio = phaseOf(combine(phases, kindClaims)).PerSecond / b.Ops.PerSecond
	}
	return b
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	default:
		return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000)
	}
}

func fmtMS(v float64) string { return fmtDur(time.Duration(v * float64(time.Millisecond))) }

// sortedAnswers lists answers by count, accepted claims first.
func sortedAnswers(m map[string]uint64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == answerAccepted) != (keys[j] == answerAccepted) {
			return keys[i] == answerAccepted
		}
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

// writeText prints the report.
func (r *result) writeText(w io.Writer) {
	p := func(label, format string, args ...any) {
		fmt.Fprintf(w, "%-11s%s\n", label, fmt.Sprintf(format, args...))
	}
	fmt.Fprintln(w)
	p("server", "%s at %s (%s)", r.Server.Mode, r.Server.URL, r.Server.Backends)
	sale := "existing"
	if r.Scenario.CreatedSale {
		sale = "created"
	}
	stock := fmt.Sprint(r.Scenario.InitialStock)
	if !r.Scenario.CreatedSale && !r.Verification.Checked {
		stock = "unknown"
	}
	p("sale", "voucher %d (%s, initial stock %s)", r.Scenario.VoucherID, sale, stock)
	p("tokens", "%d by %s in %.1fs (%.0f/s)", r.Tokens.Count, r.Tokens.Source, r.Tokens.Seconds, r.Tokens.PerSecond)
	c := r.Claims
	p("claims", "%d in %.1fs = %.0f claims/s, %d errors (concurrency %d)", c.Requests, c.Seconds, c.PerSecond, c.Errors, r.Scenario.Concurrency)
	switch accepted := c.Answers[answerAccepted]; {
	case r.Scenario.Path == pathAccept && c.Requests > 0 && accepted == c.Requests:
		p("path", "accept path: every one of the %d claims accepted (and written: see orders)", accepted)
	case r.Scenario.Path == pathAccept:
		p("path", "accept path NOT measured cleanly: %d of %d claims accepted", accepted, c.Requests)
	default:
		p("path", "sold-out path: %d of %d answers refusals (%.1f%%), %d accepted", c.Requests-accepted, c.Requests,
			100*float64(c.Requests-accepted)/float64(max(c.Requests, 1)), accepted)
	}
	p("latency", "p50 %s  p90 %s  p99 %s  max %s  mean %s",
		fmtMS(c.Latency.P50), fmtMS(c.Latency.P90), fmtMS(c.Latency.P99), fmtMS(c.Latency.Max), fmtMS(c.Latency.Mean))
	var answers []string
	for _, k := range sortedAnswers(c.Answers) {
		s := fmt.Sprintf("%s %d", k, c.Answers[k])
		if k == answerAccepted {
			s += " (accepted)"
		}
		answers = append(answers, s)
	}
	p("answers", "%s", strings.Join(answers, ", "))
	if r.SellOut != nil {
		p("accepting", "%d claims accepted within %.3fs (first to last accepted answer)", r.SellOut.Accepted, r.SellOut.Seconds)
	}
	switch o := r.Orders; {
	case !o.Measured:
		p("orders", "%s", o.Note)
	case r.Accepted == 0:
		p("orders", "no claim accepted")
	case o.AllCreated:
		p("orders", "all %d accepted claims written %.3fs after the last accepted answer, %.3fs after the first (audits %dms apart)",
			r.Accepted, o.AfterLastAcceptSeconds, o.AfterFirstAcceptSeconds, o.ResolutionMillis)
	default:
		p("orders", "NOT every accepted claim was written in time")
	}
	if b := r.Baseline; b != nil {
		p("baseline", "%s: %d in %.1fs = %.0f ops/s, p50 %s p99 %s, %d errors", b.Query, b.Ops.Requests, b.Ops.Seconds,
			b.Ops.PerSecond, fmtMS(b.Ops.Latency.P50), fmtMS(b.Ops.Latency.P99), b.Ops.Errors)
		var rs []string
		for _, pr := range b.Pairs {
			s := fmt.Sprintf("%.0f/%.0f=%.2f", pr.ClaimsPerSecond, pr.BaselinePerSecond, pr.Ratio)
			if pr.Accepted > 0 {
				s += "*"
			}
			rs = append(rs, s)
		}
		p("ratio", "claims/s ÷ baseline ops/s: median %.2f over %d pairs, overall %.2f", b.MedianRatio, len(b.Pairs), b.OverallRatio)
		if b.RefusalPairs > 0 && b.RefusalPairs < len(b.Pairs) {
			p("", "only refusals (no claim accepted in the phase): median %.2f over %d pairs", b.RefusalMedianRatio, b.RefusalPairs)
		}
		if len(rs) > 0 {
			p("", "pairs (claims/s / baseline/s; * accepted claims): %s", strings.Join(rs, "  "))
		}
	}
	if a := r.AfterClaim; a != nil {
		switch {
		case a.Orders == 0:
			p("after", "%s", a.Note)
		default:
			p("after", "%s in %.1fs; settled %.1fs later", outcomesLine(a), a.Seconds, a.SettleSeconds)
			if a.Note != "" {
				p("", "%s", a.Note)
			}
		}
	}
	v := r.Verification
	if !v.Checked {
		p("invariants", "%s", v.Note)
	}
	if len(v.Checks) > 0 {
		fmt.Fprintln(w, "checks")
		for _, ch := range v.Checks {
			mark := "ok  "
			if !ch.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(w, "  %s %-38s %s\n", mark, ch.Name, ch.Detail)
		}
	}
	if r.OK {
		p("result", "PASS")
	} else {
		p("result", "FAIL: %s", strings.Join(r.Problems, "; "))
	}
}

func (r *result) writeJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
