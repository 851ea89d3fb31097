package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Token sources.
const (
	tokensLogin = "login"
	tokensMint  = "mint"
)

// Paths a flood measures.
const (
	// pathAccept: every claim is a different user's first, on a sale with a unit for
	// each, so every claim is accepted and its order written — what a sale costs while it
	// still has stock.
	pathAccept = "accept"
	// pathSoldOut: the flood goes on after the sale ran out, so almost every answer is
	// a refusal (sold out, already claimed).
	pathSoldOut = "sold-out"
	// pathRead: no sale at all; a mix of public read operations (a shop, a page of shops
	// of a type, shops nearby, hot notes), reported one by one.
	pathRead = "read"
)

// defaultBaselineQuery is the operation --baseline measures: a mutation that carries the
// caller's token, so the server verifies the JWT and checks the session in Redis as it
// does for a claim, and goes through gqlgen's parse, validate, execute and encode, but
// resolves nothing. It is the ceiling a claim could reach on the same server.
const defaultBaselineQuery = `mutation Baseline { __typename }`

// scenario is what one run does, read from the command line.
type scenario struct {
	// URL is the server's base URL; empty starts one in-process.
	URL string
	// DatabaseURL and RedisURL open the server's stores for the audit (remote mode).
	DatabaseURL string
	RedisURL    string
	// Shards is the server's SECKILL_SHARDS (remote audit); 0 takes the environment's.
	Shards int

	// Path is the path the flood measures: pathAccept or pathSoldOut.
	Path  string
	Stock int64
	// Buckets splits the created sale's stock over that many Redis shards (0: the
	// server's default, one).
	Buckets   int
	Users     int
	VoucherID int64
	ShopID    int64
	// AdminPhone logs in to create the sale on a remote server; AdminToken is used
	// instead when given.
	AdminPhone string
	AdminToken string

	// ClaimsPerUser caps each user's claims (0: no cap).
	ClaimsPerUser int
	Concurrency   int
	// Duration and Total end the flood, whichever comes first (0: not set).
	Duration time.Duration
	Total    int64

	Tokens           string
	JWTSecret        string
	FirstUserID      int64
	LoginConcurrency int

	Baseline      bool
	BaselineQuery string
	Phase         time.Duration
	Warmup        time.Duration
	DrainTimeout  time.Duration
	ServerLog     string

	// AfterClaim is how many accepted orders to walk through pay, redeem, refund and
	// cancel before checking I5–I7 (0: none); PayWait bounds each payment's wait and
	// SettleTimeout the wait for payments and refunds to settle.
	AfterClaim    int
	PayWait       time.Duration
	SettleTimeout time.Duration

	JSONPath   string
	ChartPath  string
	CPUProfile string

	// ReadMix weighs the read path's operations (--read-mix); ReadMethod sends them
	// over GET or POST; ReadAuth "token" gives each request a user's token.
	ReadMix    []readWeight
	ReadMethod string
	ReadAuth   string

	// PrepareOnly, when set, names the file the users' tokens are written to, one per
	// line, for a load generator of another kind; the sale is described next to it
	// (PrepareOnly + ".json") and nothing is flooded.
	PrepareOnly string
}

// claimBudget is how many claims the flood sends at most (0: unbounded, the duration
// ends it).
func (s scenario) claimBudget() int64 {
	budget := s.Total
	if s.ClaimsPerUser > 0 {
		perUser := int64(s.Users) * int64(s.ClaimsPerUser)
		if budget == 0 || perUser < budget {
			budget = perUser
		}
	}
	return budget
}

const usageText = `usage: dealspot-bench [flags]

Floods claimVoucher over HTTP with one token per user and reports claims/s, latency,
answers by code, how long until every accepted claim is CREATED, and the flash-sale
invariants I1–I4 (exit status 1 if any fails or any request errs). Then it walks up to
--after-claim accepted orders through the rest of their lives over GraphQL (pay, redeem,
redeem again, refund, cancel, leave unpaid) and checks I5–I7: units and stocks add up,
no money kept for nothing, a code redeems once.

Without --url a server is started in-process on the embedded defaults (SQLite in a
temporary directory, in-process Redis, memory queue); DATABASE_URL, REDIS_URL, QUEUE and
the other server variables apply to it as usual.

By default it measures the accept path: every user claims once a sale with a unit for
each, so every claim is accepted and its order written. --path sold-out measures a sale
of --stock flooded for --duration instead, where almost every answer is a refusal.
--path read creates no sale: it floods a mix of public reads (--read-mix, default
shop=4,shops=3,nearby=2,hotBlogs=1) over GET (--read-method) without a token
(--read-auth token gives each request a user's), on shops the server already has, and
reports each operation and the whole.

The flood ends after --duration, after --total claims, or once every user has made
--claims-per-user claims, whichever comes first; users are cycled in order. Without any
of the three it runs for 5s.

With --prepare-only FILE it floods nothing: against --url it creates the sale (a unit
for each user on the accept path, --stock on the sold-out path) or takes --voucher, gets
every user's token as a flood would (logged in, or minted with --jwt-secret and
registered in --redis-url), writes the tokens to FILE one per line and the sale to
FILE.json, prints the voucher id and exits, so that another load generator (wrk, k6 …)
can send the claims. Each token is a different user's.

Flags:
`

// parseScenario reads the command line.
func parseScenario(args []string, stderr io.Writer) (scenario, error) {
	var s scenario
	fs := flag.NewFlagSet("dealspot-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	fs.StringVar(&s.URL, "url", "", "base URL of a running server, e.g. http://127.0.0.1:8080 (default: start one in-process)")
	fs.StringVar(&s.DatabaseURL, "database-url", "", "remote mode: the server's DATABASE_URL, opened to audit the sale")
	fs.StringVar(&s.RedisURL, "redis-url", "", "remote mode: the server's REDIS_URL, opened to audit the sale and to register minted sessions")
	fs.IntVar(&s.Shards, "shards", 0, "remote mode: the server's SECKILL_SHARDS (default: from the environment, else 16)")
	fs.StringVar(&s.Path, "path", pathAccept, "what to measure: accept (every claim a new user's, the sale never runs out: each claim accepted and written; stock defaults to users × claims-per-user, claims-per-user to 1), sold-out (a sale of --stock flooded for --duration: mostly refusals) or read (a mix of public reads, no sale: see --read-mix)")
	readMix := fs.String("read-mix", defaultReadMix, "--path read: the operations and their weights, name=weight,… of "+strings.Join(readOpNames(), ", "))
	fs.StringVar(&s.ReadMethod, "read-method", "get", "--path read: send the reads over get or post")
	fs.StringVar(&s.ReadAuth, "read-auth", "none", "--path read: none (anonymous reads) or token (each request carries a user's token, from --tokens)")
	fs.Int64Var(&s.Stock, "stock", 100, "stock of the flash sale created for the run")
	fs.IntVar(&s.Buckets, "buckets", 0, "split the created sale's stock over this many Redis shards (createFlashSale's buckets; default 1)")
	fs.IntVar(&s.Users, "users", 500, "number of users, each with its own token")
	fs.Int64Var(&s.VoucherID, "voucher", 0, "claim this existing flash-sale voucher instead of creating one")
	fs.Int64Var(&s.ShopID, "shop", 1, "shop the created flash sale belongs to")
	fs.StringVar(&s.AdminPhone, "admin-phone", "", "remote mode: phone listed in the server's ADMIN_PHONES, logged in to create the sale")
	fs.StringVar(&s.AdminToken, "admin-token", "", "remote mode: an ADMIN access token to create the sale with (instead of --admin-phone)")
	fs.IntVar(&s.ClaimsPerUser, "claims-per-user", 0, "claims each user makes at most (0: no cap)")
	fs.IntVar(&s.Concurrency, "concurrency", 64, "concurrent requests (one keep-alive connection each)")
	fs.DurationVar(&s.Duration, "duration", 0, "how long to flood claims (default 5s when neither --total nor --claims-per-user is given)")
	fs.Int64Var(&s.Total, "total", 0, "claims to send in all")
	fs.StringVar(&s.Tokens, "tokens", "", "where tokens come from: login (through the API, dev mode) or mint (default: mint with --jwt-secret, else login)")
	fs.StringVar(&s.JWTSecret, "jwt-secret", "", "the server's JWT_SECRET: mint tokens instead of logging in (--tokens mint in-process uses the server's own)")
	fs.Int64Var(&s.FirstUserID, "first-user-id", 0, "minted tokens: id of the first user (default: a random id above 10^12)")
	fs.IntVar(&s.LoginConcurrency, "login-concurrency", 32, "concurrent logins or session registrations while getting tokens")
	fs.BoolVar(&s.Baseline, "baseline", false, "also measure a trivial authenticated operation, interleaved with the claims, and report claims/s as a ratio of it")
	fs.StringVar(&s.BaselineQuery, "baseline-query", defaultBaselineQuery, "the operation --baseline measures")
	fs.DurationVar(&s.Phase, "phase", 2*time.Second, "--baseline: length of each baseline and claim phase")
	fs.DurationVar(&s.Warmup, "warmup", time.Second, "unmeasured requests of the baseline operation before the flood, to open the connections")
	fs.DurationVar(&s.DrainTimeout, "drain-timeout", 60*time.Second, "how long to wait for every accepted claim to become an order")
	fs.IntVar(&s.AfterClaim, "after-claim", 100, "after the flood, walk up to this many accepted orders through pay, redeem, refund and cancel, then check I5–I7 (0: skip)")
	fs.DurationVar(&s.PayWait, "pay-wait", 30*time.Second, "--after-claim: how long a payment may take to be confirmed")
	fs.DurationVar(&s.SettleTimeout, "settle-timeout", 60*time.Second, "--after-claim: how long payments and refunds may take to settle")
	fs.StringVar(&s.ServerLog, "server-log", "warn", "in-process server's log level (debug, info, warn, error)")
	fs.StringVar(&s.JSONPath, "json", "", "write the result as JSON to this file")
	fs.StringVar(&s.ChartPath, "chart", "", "write an SVG chart of throughput and p99 per second to this file")
	fs.StringVar(&s.CPUProfile, "cpuprofile", "", "write a CPU profile of the flood to this file (in-process: server and load together)")
	fs.StringVar(&s.PrepareOnly, "prepare-only", "", "remote mode: create the sale (or take --voucher) and get every user's token, write the tokens to this file one per line and the sale to FILE.json, print the voucher id and exit without flooding — for a load generator of another kind")
	if err := fs.Parse(args); err != nil {
		return s, err
	}
	if fs.NArg() > 0 {
		return s, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var mixErr error
	s.ReadMix, mixErr = parseReadMix(*readMix)
	if s.Path != pathRead && (set["read-mix"] || set["read-method"] || set["read-auth"]) {
		mixErr = errors.Join(mixErr, errors.New("--read-mix, --read-method and --read-auth are for --path read"))
	}
	if s.Path == pathAccept {
		// One claim per user unless told otherwise, and a unit for every claim.
		if !set["claims-per-user"] {
			s.ClaimsPerUser = 1
			set["claims-per-user"] = true
		}
		if !set["stock"] {
			s.Stock = int64(s.Users) * int64(max(s.ClaimsPerUser, 1))
		}
	}
	if !set["duration"] && !set["total"] && !set["claims-per-user"] {
		s.Duration = 5 * time.Second
	}
	if s.Tokens == "" {
		s.Tokens = tokensLogin
		if s.JWTSecret != "" {
			s.Tokens = tokensMint
		}
	}
	s.URL = strings.TrimRight(s.URL, "/")
	return s, errors.Join(mixErr, s.validate())
}

func (s scenario) validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if s.Users < 1 {
		bad("--users must be at least 1")
	}
	if s.Path != pathAccept && s.Path != pathSoldOut && s.Path != pathRead {
		bad("--path: want accept, sold-out or read, got %q", s.Path)
	}
	if s.ReadMethod != "get" && s.ReadMethod != "post" {
		bad("--read-method: want get or post, got %q", s.ReadMethod)
	}
	if s.ReadAuth != "none" && s.ReadAuth != "token" {
		bad("--read-auth: want none or token, got %q", s.ReadAuth)
	}
	if s.Path == pathRead && (s.Baseline || s.PrepareOnly != "" || s.VoucherID != 0 || s.ChartPath != "") {
		bad("--path read claims nothing: --baseline, --voucher, --prepare-only and --chart do not apply")
	}
	if s.Stock < 1 && s.VoucherID == 0 {
		bad("--stock must be at least 1")
	}
	if s.Concurrency < 1 || s.LoginConcurrency < 1 {
		bad("--concurrency and --login-concurrency must be at least 1")
	}
	if s.Duration < 0 || s.Total < 0 || s.ClaimsPerUser < 0 {
		bad("--duration, --total and --claims-per-user must not be negative")
	}
	if s.Duration == 0 && s.claimBudget() == 0 {
		bad("give --duration, --total or --claims-per-user")
	}
	if s.AfterClaim < 0 || s.PayWait <= 0 || s.SettleTimeout <= 0 {
		bad("--after-claim must not be negative, --pay-wait and --settle-timeout must be positive")
	}
	if s.Phase <= 0 || s.Warmup < 0 || s.DrainTimeout <= 0 {
		bad("--phase and --drain-timeout must be positive, --warmup not negative")
	}
	switch s.Tokens {
	case tokensLogin:
	case tokensMint:
		if s.URL != "" && s.JWTSecret == "" {
			bad("--tokens mint against --url needs --jwt-secret")
		}
		if s.URL != "" && s.RedisURL == "" {
			bad("minted tokens need --redis-url: their sessions are registered in the server's Redis (and in its database, with --database-url)")
		}
	default:
		bad("--tokens: want login or mint, got %q", s.Tokens)
	}
	if s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
		bad("--url: want http://host:port, got %q", s.URL)
	}
	if s.URL != "" && s.Path != pathRead && s.VoucherID == 0 && s.AdminPhone == "" && s.AdminToken == "" {
		bad("against --url, give --voucher, or --admin-phone / --admin-token to create the sale")
	}
	if s.RedisURL != "" && !slices.ContainsFunc([]string{"redis://", "rediss://", "redis-cluster://", "rediss-cluster://"},
		func(p string) bool { return strings.HasPrefix(s.RedisURL, p) }) {
		bad("--redis-url: want redis://host:port/db or redis-cluster://host:port,host:port,…, got %q", s.RedisURL)
	}
	if s.URL == "" && (s.DatabaseURL != "" || s.RedisURL != "") {
		bad("--database-url and --redis-url are for --url; the in-process server reads DATABASE_URL and REDIS_URL")
	}
	if s.FirstUserID < 0 {
		bad("--first-user-id must be positive")
	}
	if s.PrepareOnly != "" && s.URL == "" {
		bad("--prepare-only needs --url: the tokens are for a server that outlives this process")
	}
	if s.PrepareOnly != "" && (s.Baseline || s.JSONPath != "" || s.ChartPath != "" || s.CPUProfile != "") {
		bad("--prepare-only floods nothing: --baseline, --json, --chart and --cpuprofile do not apply")
	}
	return errors.Join(errs...)
}

// describe summarises the scenario in one line.
func (s scenario) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s path, %d users, concurrency %d", s.Path, s.Users, s.Concurrency)
	if s.ClaimsPerUser > 0 {
		fmt.Fprintf(&b, ", at most %d claims per user", s.ClaimsPerUser)
	}
	if s.Total > 0 {
		fmt.Fprintf(&b, ", %d claims in all", s.Total)
	}
	if s.Duration > 0 {
		fmt.Fprintf(&b, ", %s of claims", s.Duration)
	}
	fmt.Fprintf(&b, ", tokens by %s", s.Tokens)
	if s.Baseline {
		fmt.Fprintf(&b, ", interleaved with baseline phases of %s", s.Phase)
	}
	return b.String()
}
