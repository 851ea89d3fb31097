// Command dealspot-bench floods a Dealspot server's claimVoucher with many users'
// claims, reports how fast and how well it answered, and checks afterwards that the
// flash sale kept its invariants (DESIGN.md §3): no oversell, one order per user, every
// accepted claim one order, stocks that add up. With --path read it floods a mix of
// public reads instead and reports each operation.
//
//	dealspot-bench                                   in-process server, embedded defaults
//	dealspot-bench --baseline --json out.json --chart out.svg
//	dealspot-bench --path read --read-mix shops=3,shop=1    public reads, per operation
//	dealspot-bench --url http://host:8080 --admin-phone 13800000000 \
//	    --database-url postgres://… --redis-url redis://…/0
//
// Run with -h for every flag. The exit status is 1 when a request erred or an invariant
// does not hold, 2 for bad flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

func run(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	sc, err := parseScenario(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "dealspot-bench:", err)
		return 2
	}
	// A first interrupt ends the flood early; the orders are still awaited, verified and
	// reported. A second one ends the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	if sc.PrepareOnly != "" {
		if err := prepare(ctx, sc, getenv, stdout, stderr); err != nil {
			fmt.Fprintln(stderr, "dealspot-bench:", err)
			return 1
		}
		return 0
	}
	var ok bool
	if sc.Path == pathRead {
		var r *readResult
		if r, err = benchRead(ctx, sc, getenv, stdout, stderr); err == nil {
			ok = r.OK
		}
	} else {
		var r *result
		if r, err = bench(ctx, sc, getenv, stdout, stderr); err == nil {
			ok = r.OK
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "dealspot-bench:", err)
		return 1
	}
	if !ok {
		return 1
	}
	return 0
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// openTarget starts the in-process server (no sc.URL) or connects to sc.URL, and opens a
// client of it.
func openTarget(ctx context.Context, sc scenario, getenv func(string) string, stderr io.Writer) (*target, *client, error) {
	var (
		t   *target
		err error
	)
	if sc.URL == "" {
		t, err = startInProcess(ctx, sc, getenv, stderr)
	} else {
		t, err = connectRemote(ctx, sc, getenv)
	}
	if err != nil {
		return nil, nil, err
	}
	return t, newClient(t.baseURL, max(sc.Concurrency, sc.LoginConcurrency)), nil
}

// closeTarget closes what openTarget opened, saying so when closing fails.
func closeTarget(t *target, c *client, stderr io.Writer) {
	c.close()
	if err := t.close(); err != nil {
		fmt.Fprintln(stderr, "dealspot-bench: closing:", err)
	}
}

// bench prepares the scenario, floods, waits for the orders, verifies and reports.
func bench(ctx context.Context, sc scenario, getenv func(string) string, stdout, stderr io.Writer) (_ *result, err error) {
	tty := isTerminal(stderr)
	t, c, err := openTarget(ctx, sc, getenv, stderr)
	if err != nil {
		return nil, err
	}
	defer closeTarget(t, c, stderr)
	fmt.Fprintf(stderr, "server   %s at %s (%s)\nscenario %s\n", t.mode, t.baseURL, t.backends, sc.describe())

	r := &result{
		StartedAt: time.Now().UTC(),
		Server:    serverJSON{URL: t.baseURL, Mode: t.mode, Backends: t.backends},
		Scenario: scenarioJSON{Users: sc.Users, ClaimsPerUser: sc.ClaimsPerUser, Concurrency: sc.Concurrency,
			DurationSeconds: sc.Duration.Seconds(), Total: sc.Total, Baseline: sc.Baseline, Path: sc.Path},
		Series:   []secondJSON{},
		Problems: []string{},
	}
	if sc.Baseline {
		r.Scenario.PhaseSeconds = sc.Phase.Seconds()
	}

	voucherID, fresh := sc.VoucherID, false
	if voucherID == 0 {
		if voucherID, err = t.createSale(ctx, c, sc); err != nil {
			return nil, err
		}
		fresh = true
	}
	r.Scenario.VoucherID, r.Scenario.CreatedSale = voucherID, fresh
	// The sale's initial stock is what its database stock and its orders add up to
	// before the flood (its configured stock, for a sale created just now).
	var base seckill.Audit
	initialStock := sc.Stock
	if t.audit != nil {
		if base, err = t.audit(ctx, voucherID); err != nil {
			return nil, fmt.Errorf("audit voucher %d: %w", voucherID, err)
		}
		initialStock = base.DBStock + base.Orders.Created
		if base.Pending > 0 {
			fmt.Fprintf(stderr, "note: voucher %d has %d claims pending before the flood\n", voucherID, base.Pending)
		}
	} else if !fresh {
		// Unknown without the database.
		initialStock = 0
	}
	r.Scenario.InitialStock = initialStock
	fmt.Fprintf(stderr, "sale     voucher %d (initial stock %d)\n", voucherID, initialStock)

	tokens, err := getTokens(ctx, sc, t, c, stderr, tty, r)
	if err != nil {
		return nil, err
	}
	if err := checkTokens(ctx, c, tokens); err != nil {
		return nil, err
	}

	fl, err := newFlood(c, tokens, voucherID, sc.BaselineQuery, sc, &liveLine{w: stderr, tty: tty})
	if err != nil {
		return nil, err
	}
	stopProfile, err := startCPUProfile(sc.CPUProfile)
	if err != nil {
		return nil, err
	}
	var watch *orderWatch
	if t.audit != nil {
		watch = startOrderWatch(t.audit, voucherID, base, initialStock)
	}
	phases := fl.runAll(ctx, sc)
	stopProfile()
	claims := r.addFlood(phases, sc)
	if ctx.Err() != nil {
		r.Problems = append(r.Problems, "interrupted")
	}

	if watch == nil {
		r.Orders = ordersJSON{Note: "not measured: " + t.auditNote}
		r.Verification = verificationJSON{Note: t.auditNote}
	} else {
		fmt.Fprintln(stderr, "waiting until every accepted claim is an order…")
		a, since, gap, err := watch.finish(context.WithoutCancel(ctx), r.Accepted, sc.DrainTimeout)
		if err != nil {
			return nil, fmt.Errorf("audit voucher %d: %w", voucherID, err)
		}
		r.Orders = ordersJSON{Measured: true, AllCreated: !since.IsZero(), ResolutionMillis: gap.Milliseconds()}
		if !since.IsZero() && r.Accepted > 0 {
			r.Orders.AfterLastAcceptSeconds = max(0, since.Sub(claims.lastAccept).Seconds())
			r.Orders.AfterFirstAcceptSeconds = max(0, since.Sub(claims.firstAccept).Seconds())
		}
		r.Verification = verificationJSON{Checked: true, Audit: toAuditJSON(a),
			Checks: verdict(a, base, initialStock, r.Accepted, claims.answers[answerTransport])}
	}
	if fresh {
		r.Verification.Checks = append(r.Verification.Checks,
			acceptedCheck(initialStock, r.Accepted, sc.Users, fl.undecided(), claims.answers["SOLD_OUT"] > 0))
	}
	if err := afterClaim(context.WithoutCancel(ctx), sc, t, c, fl, voucherID, initialStock, watch != nil, stderr, r); err != nil {
		return nil, err
	}
	for _, c := range r.Verification.Checks {
		if !c.OK {
			r.Problems = append(r.Problems, c.Name+": "+c.Detail)
		}
	}
	r.OK = len(r.Problems) == 0

	r.writeText(stdout)
	if sc.JSONPath != "" {
		if err := writeFile(sc.JSONPath, r.writeJSON); err != nil {
			return nil, fmt.Errorf("write %s: %w", sc.JSONPath, err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", sc.JSONPath)
	}
	if sc.ChartPath != "" {
		if err := writeFile(sc.ChartPath, func(path string) error { return writeChart(path, r, phases) }); err != nil {
			return nil, fmt.Errorf("write %s: %w", sc.ChartPath, err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", sc.ChartPath)
	}
	return r, nil
}

// afterClaim walks accepted orders through the rest of their lives and adds the I5–I7
// checks to r, when the sale can be audited.
func afterClaim(ctx context.Context, sc scenario, t *target, c *client, fl *flood, voucherID, initialStock int64,
	audited bool, stderr io.Writer, r *result) error {
	owned := fl.owned(sc.AfterClaim)
	switch {
	case sc.AfterClaim == 0:
		return nil
	case !audited || t.ledger == nil:
		r.AfterClaim = &afterClaimJSON{Note: "not walked: the sale cannot be audited (" + t.auditNote + ")"}
		return nil
	case len(owned) == 0:
		r.AfterClaim = &afterClaimJSON{Note: "not walked: no claim was accepted"}
		return nil
	}
	redeem, note, err := t.redeemer(ctx, c, sc, voucherID)
	if err != nil {
		return err
	}
	out := &afterClaimJSON{Orders: len(owned), Outcomes: map[string]int{}, Unexpected: []string{}, Note: note}
	fmt.Fprintf(stderr, "after the claim: walking %d orders through pay, redeem, refund and cancel…\n", len(owned))
	w := &walker{c: c, redeem: redeem, out: out, payWait: sc.PayWait}
	w.walk(ctx, owned, min(sc.Concurrency, 32))
	checks, err := w.settle(ctx, t.audit, t.ledger, voucherID, initialStock, sc.SettleTimeout)
	if err != nil {
		return fmt.Errorf("audit voucher %d after the claim: %w", voucherID, err)
	}
	r.AfterClaim = out
	r.Verification.Checks = append(r.Verification.Checks, checks...)
	return nil
}

// addFlood adds the flood's figures to r and returns the claims' totals.
func (r *result) addFlood(phases []*phaseStats, sc scenario) combined {
	claims := combine(phases, kindClaims)
	r.Claims = phaseOf(claims)
	r.Accepted = int64(claims.answers[answerAccepted])
	if r.Accepted > 0 {
		r.SellOut = &sellOutJSON{Accepted: r.Accepted, Seconds: claims.lastAccept.Sub(claims.firstAccept).Seconds()}
	}
	r.Series = series(phases)
	if sc.Baseline {
		r.Baseline = baselineOf(phases, sc.BaselineQuery, sc.Phase)
	}
	if claims.errors > 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("%d claim requests erred (%s)", claims.errors, errorCodes(claims.answers)))
	}
	if sc.Path == pathAccept && sc.VoucherID == 0 && r.Accepted != int64(claims.hist.n) {
		r.Problems = append(r.Problems, fmt.Sprintf("accept path: only %d of %d claims accepted (%s)", r.Accepted, claims.hist.n,
			strings.Join(sortedAnswers(claims.answers), ", ")))
	}
	if r.Baseline != nil && r.Baseline.Ops.Errors > 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("%d baseline requests erred", r.Baseline.Ops.Errors))
	}
	return claims
}

// getTokens logs every user in or mints their tokens, with a progress bar.
func getTokens(ctx context.Context, sc scenario, t *target, c *client, stderr io.Writer, tty bool, r *result) ([]string, error) {
	bar := startProgress(stderr, tty, "tokens", sc.Users)
	var (
		tokens []string
		err    error
	)
	if sc.Tokens == tokensMint {
		secret := sc.JWTSecret
		if secret == "" {
			secret = t.jwtSecret
		}
		var m *minter
		if m, err = newMinter(secret, t.sessions, t.cache); err == nil {
			first := sc.FirstUserID
			if first == 0 {
				first, err = randomUserBase()
			}
			if err == nil {
				tokens, err = mintAll(ctx, m, first, sc.Users, sc.LoginConcurrency, bar)
			}
		}
	} else {
		var phones []string
		if phones, err = benchPhones(sc.Users); err == nil {
			tokens, err = loginAll(ctx, c, phones, sc.LoginConcurrency, bar)
		}
	}
	took := bar.finish()
	if err != nil {
		return nil, err
	}
	r.Tokens = tokensJSON{Source: sc.Tokens, Count: len(tokens), Seconds: took.Seconds(), PerSecond: float64(len(tokens)) / took.Seconds()}
	return tokens, nil
}

// writeFile makes path's directory if need be, then lets write write the file.
func writeFile(path string, write func(path string) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return write(path)
}

// startCPUProfile profiles the process into path until the returned function is called.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}

// errorCodes lists the answers counted as errors.
func errorCodes(answers map[string]uint64) string {
	var out []string
	for _, k := range sortedAnswers(answers) {
		if isClaimError(k) {
			out = append(out, fmt.Sprintf("%s %d", k, answers[k]))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
