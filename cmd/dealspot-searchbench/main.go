// Command dealspot-searchbench measures the search (Query.search, shops(name:)) on a
// generated data set of Chinese-ish shops, notes and people: what its indexes cost a
// write, and how fast it answers under a flood of concurrent searches.
//
//	dealspot-searchbench -server 'postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable'
//	dealspot-searchbench -concurrency 1,8,16 -duration 30s
//	dealspot-searchbench -sqlite                       the same on two SQLite files
//
// It makes two fresh databases (dropped at the end unless -keep), migrates both, and
// takes the search's indexes (PostgreSQL's trigram indexes, SQLite's FTS5 tables and
// their triggers) off one of them. On each it loads the data set in multi-row INSERTs and
// times it, then times single-row writes the way the app makes them: a shop and a note
// inserted, a note's like counted (which rewrites the row, so its index entries too, on
// PostgreSQL). On the database without the indexes it then times building them. Last,
// it floods the search use cases on the indexed database from -concurrency workers (one
// flood per level) for -duration each and reports the latency of each kind of query (p50, p95, p99, max) and of
// all together. The searches run in process through the app's use cases and the store
// (internal/app/search over adapters/entstore), without HTTP and GraphQL in front.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/app/search"
	"github.com/dealspot/dealspot/internal/app/social/notes"
	"github.com/dealspot/dealspot/internal/domain"
)

type options struct {
	server      string
	sqlite      bool
	shops       int
	notes       int
	users       int
	writes      int
	concurrency []int
	duration    time.Duration
	keep        bool
	seed        uint64
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "dealspot-searchbench:", err)
		}
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	var o options
	fs := flag.NewFlagSet("dealspot-searchbench", flag.ContinueOnError)
	fs.StringVar(&o.server, "server", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable",
		"a PostgreSQL server on which two databases may be created (and dropped)")
	fs.BoolVar(&o.sqlite, "sqlite", false, "measure SQLite (two files in a temporary directory) instead of PostgreSQL")
	fs.IntVar(&o.shops, "shops", 10_000, "shops in the data set")
	fs.IntVar(&o.notes, "notes", 100_000, "notes in the data set")
	fs.IntVar(&o.users, "users", 2_000, "people in the data set")
	fs.IntVar(&o.writes, "writes", 1_000, "single-row writes timed of each kind (0: no database without the indexes, no writes timed: the flood only)")
	levels := fs.String("concurrency", "1,8", "searches running at once during the flood: one flood per comma-separated level")
	fs.DurationVar(&o.duration, "duration", 20*time.Second, "how long the flood lasts")
	fs.BoolVar(&o.keep, "keep", false, "keep the databases")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the data set")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, l := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(l))
		if err != nil || n <= 0 {
			return fmt.Errorf("-concurrency: %q is not a positive number", l)
		}
		o.concurrency = append(o.concurrency, n)
	}
	ctx := context.Background()
	data := generate(o)
	fmt.Fprintf(out, "data set: %d shops, %d notes (%.0f characters on average), %d people\n",
		len(data.shops), len(data.notes), data.meanNoteRunes(), len(data.users))

	indexed, closeIndexed, err := open(ctx, o, "indexed")
	if err != nil {
		return err
	}
	defer closeIndexed()
	if o.writes == 0 {
		if _, err := load(ctx, indexed, data); err != nil {
			return err
		}
	} else if err := compareWrites(ctx, o, data, indexed, out); err != nil {
		return err
	}
	if err := explain(ctx, indexed, out); err != nil {
		return err
	}

	for _, workers := range o.concurrency {
		fmt.Fprintf(out, "\nsearch flood: %d workers for %s on the indexed database\n", workers, o.duration)
		if err := flood(ctx, indexed, data, workers, o.duration, out); err != nil {
			return err
		}
	}
	return nil
}

// compareWrites loads the data set into indexed and into a database without the search
// indexes, times single-row writes on both, then times building the indexes on the
// latter.
func compareWrites(ctx context.Context, o options, data *dataset, indexed *entstore.Store, out io.Writer) error {
	plain, closePlain, err := open(ctx, o, "plain")
	if err != nil {
		return err
	}
	defer closePlain()
	ddl, err := dropSearchIndexes(ctx, plain)
	if err != nil {
		return fmt.Errorf("take the search indexes off: %w", err)
	}
	var rows [2]writeCost
	for i, s := range []*entstore.Store{plain, indexed} {
		if rows[i], err = load(ctx, s, data); err != nil {
			return err
		}
	}
	if err := measureWrites(ctx, [2]*entstore.Store{plain, indexed}, &rows, data, o.writes); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nwrites (%s)                     without search indexes   with them   ratio\n", plain.Dialect())
	line := func(what string, a, b time.Duration) {
		fmt.Fprintf(out, "  %-36s %12s %12s %6.2f×\n", what, round(a), round(b), float64(b)/float64(a))
	}
	line("load: shops, multi-row INSERTs", rows[0].loadShops, rows[1].loadShops)
	line("load: notes, multi-row INSERTs", rows[0].loadNotes, rows[1].loadNotes)
	line("load: people, multi-row INSERTs", rows[0].loadUsers, rows[1].loadUsers)
	line("per note inserted (load)", rows[0].loadNotes/time.Duration(len(data.notes)), rows[1].loadNotes/time.Duration(len(data.notes)))
	for _, w := range []struct {
		what   string
		plain  []time.Duration
		search []time.Duration
	}{
		{"one shop INSERT", rows[0].shopInsert, rows[1].shopInsert},
		{"one note INSERT", rows[0].noteInsert, rows[1].noteInsert},
		{"one like (UPDATE blogs SET liked)", rows[0].likeUpdate, rows[1].likeUpdate},
	} {
		m0, p0 := meanAndP99(w.plain)
		m1, p1 := meanAndP99(w.search)
		line(w.what+", mean", m0, m1)
		line(w.what+", p99", p0, p1)
	}
	built, err := buildSearchIndexes(ctx, plain, ddl)
	if err != nil {
		return fmt.Errorf("build the search indexes: %w", err)
	}
	fmt.Fprintf(out, "  building the search indexes on the loaded database: %s\n", round(built))
	return nil
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(100 * time.Nanosecond)
}

// open makes a fresh database named after role, migrates it and returns its store, with
// the function that closes it (and drops it unless -keep).
func open(ctx context.Context, o options, role string) (*entstore.Store, func(), error) {
	var (
		dbURL string
		drop  func()
	)
	if o.sqlite {
		dir, err := os.MkdirTemp("", "dealspot-searchbench-")
		if err != nil {
			return nil, nil, err
		}
		dbURL = "sqlite://" + filepath.ToSlash(filepath.Join(dir, role+".db"))
		drop = func() {
			if !o.keep {
				_ = os.RemoveAll(dir)
			}
		}
	} else {
		admin, err := sql.Open("postgres", o.server)
		if err != nil {
			return nil, nil, err
		}
		name := fmt.Sprintf("dealspot_searchbench_%s_%d", role, time.Now().UnixNano())
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
			_ = admin.Close()
			return nil, nil, fmt.Errorf("create database: %w", err)
		}
		u, err := url.Parse(o.server)
		if err != nil {
			return nil, nil, err
		}
		u.Path = "/" + name
		dbURL = u.String()
		drop = func() {
			if !o.keep {
				_, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			}
			_ = admin.Close()
		}
	}
	s, err := entstore.Open(ctx, dbURL, entstore.MaxConns(slices.Max(o.concurrency)+4))
	if err != nil {
		drop()
		return nil, nil, err
	}
	if err := s.Migrations().Migrate(ctx); err != nil {
		_ = s.Close()
		drop()
		return nil, nil, fmt.Errorf("migrate: %w", err)
	}
	return s, func() { _ = s.Close(); drop() }, nil
}

// searchIndexDDL lists the search's objects as the migration made them, to drop and
// build again.
func searchIndexDDL(ctx context.Context, s *entstore.Store) (names, ddl []string, err error) {
	q := "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'search\\_%' ORDER BY indexname"
	if s.Dialect() != dialect.Postgres {
		// The FTS tables first, then their triggers.
		q = "SELECT name, sql FROM sqlite_master WHERE (type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%') OR (type = 'trigger' AND name LIKE '%\\_search\\_%' ESCAPE '\\') ORDER BY type, name"
	}
	rows, err := s.DB().QueryContext(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n, d string
		if err := rows.Scan(&n, &d); err != nil {
			return nil, nil, err
		}
		names, ddl = append(names, n), append(ddl, d)
	}
	if len(names) == 0 && rows.Err() == nil {
		return nil, nil, errors.New("no search index found: is the database migrated?")
	}
	return names, ddl, rows.Err()
}

// dropSearchIndexes drops the search's objects and returns the statements that make
// them again.
func dropSearchIndexes(ctx context.Context, s *entstore.Store) ([]string, error) {
	names, ddl, err := searchIndexDDL(ctx, s)
	if err != nil {
		return nil, err
	}
	for i := len(names) - 1; i >= 0; i-- {
		stmt := "DROP INDEX " + names[i]
		if s.Dialect() != dialect.Postgres {
			stmt = "DROP TRIGGER " + names[i]
			if strings.HasPrefix(ddl[i], "CREATE VIRTUAL TABLE") {
				stmt = "DROP TABLE " + names[i]
			}
		}
		if _, err := s.DB().ExecContext(ctx, stmt); err != nil {
			return nil, err
		}
	}
	return ddl, nil
}

// buildSearchIndexes runs ddl and fills SQLite's FTS tables from their tables.
func buildSearchIndexes(ctx context.Context, s *entstore.Store, ddl []string) (time.Duration, error) {
	start := time.Now()
	for _, stmt := range ddl {
		if _, err := s.DB().ExecContext(ctx, stmt); err != nil {
			return 0, err
		}
	}
	if s.Dialect() != dialect.Postgres {
		for _, t := range []string{"shops_search", "blogs_search", "users_search"} {
			if _, err := s.DB().ExecContext(ctx, "INSERT INTO "+t+" ("+t+") VALUES ('rebuild')"); err != nil {
				return 0, err
			}
		}
	}
	return time.Since(start), nil
}

type writeCost struct {
	loadShops, loadNotes, loadUsers    time.Duration
	shopInsert, noteInsert, likeUpdate []time.Duration
}

// load writes the data set into s and times each table.
func load(ctx context.Context, s *entstore.Store, d *dataset) (writeCost, error) {
	var c writeCost
	db, pg := s.DB(), s.Dialect() == dialect.Postgres
	now := time.Now().UTC()
	if _, err := db.ExecContext(ctx, rebind(pg, "INSERT INTO shop_types (id, created_at, updated_at, name, icon, sort) VALUES (1, ?, ?, '美食', '', 1)"), now, now); err != nil {
		return c, err
	}
	var err error
	c.loadUsers, err = insertRows(ctx, db, pg, "users", []string{"created_at", "updated_at", "phone", "nick_name"}, len(d.users), func(i int) []any {
		return []any{now, now, fmt.Sprintf("139%08d", i), d.users[i]}
	})
	if err != nil {
		return c, err
	}
	c.loadShops, err = insertRows(ctx, db, pg, "shops", []string{"created_at", "updated_at", "name", "area", "address", "longitude", "latitude", "type_id"}, len(d.shops), func(i int) []any {
		sh := d.shops[i]
		return []any{now, now, sh.name, sh.area, sh.address, 120.1 + float64(i%100)/1000, 30.2 + float64(i/100%100)/1000, 1}
	})
	if err != nil {
		return c, err
	}
	c.loadNotes, err = insertRows(ctx, db, pg, "blogs", []string{"created_at", "updated_at", "shop_id", "user_id", "title", "content"}, len(d.notes), func(i int) []any {
		nt := d.notes[i]
		return []any{now, now, 1 + i%len(d.shops), 1 + i%len(d.users), nt.title, nt.content}
	})
	if err != nil {
		return c, err
	}
	stmt := "ANALYZE"
	if !pg {
		stmt = "PRAGMA optimize"
	}
	_, err = db.ExecContext(ctx, stmt)
	return c, err
}

// measureWrites times single-row writes as the app makes them (one statement, one
// transaction each) on both stores, in rounds that take turns, so that both see the
// same machine: n of each kind on each store.
func measureWrites(ctx context.Context, stores [2]*entstore.Store, costs *[2]writeCost, d *dataset, n int) error {
	const rounds = 5
	r := rand.New(rand.NewPCG(d.seed, 2))
	now := time.Now().UTC()
	for range rounds {
		for i, s := range stores {
			db, pg := s.DB(), s.Dialect() == dialect.Postgres
			shopStmt := rebind(pg, "INSERT INTO shops (created_at, updated_at, name, area, address, longitude, latitude, type_id) VALUES (?, ?, ?, ?, ?, 120.2, 30.3, 1)")
			took, err := timeEach(n/rounds, func(int) error {
				sh := d.shops[r.IntN(len(d.shops))]
				_, err := db.ExecContext(ctx, shopStmt, now, now, sh.name+"新店", sh.area, sh.address)
				return err
			})
			if err != nil {
				return err
			}
			costs[i].shopInsert = append(costs[i].shopInsert, took...)
			noteStmt := rebind(pg, "INSERT INTO blogs (created_at, updated_at, shop_id, user_id, title, content) VALUES (?, ?, 1, 1, ?, ?)")
			took, err = timeEach(n/rounds, func(int) error {
				nt := d.notes[r.IntN(len(d.notes))]
				_, err := db.ExecContext(ctx, noteStmt, now, now, nt.title, nt.content)
				return err
			})
			if err != nil {
				return err
			}
			costs[i].noteInsert = append(costs[i].noteInsert, took...)
			likeStmt := rebind(pg, "UPDATE blogs SET liked = liked + 1, liked_seq = liked_seq + 1 WHERE id = ?")
			took, err = timeEach(n/rounds, func(int) error {
				_, err := db.ExecContext(ctx, likeStmt, 1+r.IntN(len(d.notes)))
				return err
			})
			if err != nil {
				return err
			}
			costs[i].likeUpdate = append(costs[i].likeUpdate, took...)
		}
	}
	return nil
}

// timeEach runs fn n times and returns how long each took.
func timeEach(n int, fn func(i int) error) ([]time.Duration, error) {
	took := make([]time.Duration, 0, n)
	for i := range n {
		start := time.Now()
		if err := fn(i); err != nil {
			return nil, err
		}
		took = append(took, time.Since(start))
	}
	return took, nil
}

// meanAndP99 describes single-row write times.
func meanAndP99(l []time.Duration) (mean, p99 time.Duration) {
	if len(l) == 0 {
		return 0, 0
	}
	var sum time.Duration
	for _, d := range l {
		sum += d
	}
	s := slices.Sorted(slices.Values(l))
	return sum / time.Duration(len(l)), s[min(len(s)-1, len(s)*99/100)]
}

// insertRows writes n rows in multi-row INSERTs of up to 500 rows, one transaction each.
func insertRows(ctx context.Context, db *sql.DB, pg bool, table string, cols []string, n int, row func(i int) []any) (time.Duration, error) {
	const batch = 500
	start := time.Now()
	for from := 0; from < n; from += batch {
		to := min(n, from+batch)
		var b strings.Builder
		b.WriteString("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES ")
		args := make([]any, 0, (to-from)*len(cols))
		for i := from; i < to; i++ {
			if i > from {
				b.WriteString(", ")
			}
			b.WriteString("(")
			for j, v := range row(i) {
				if j > 0 {
					b.WriteString(", ")
				}
				args = append(args, v)
				if pg {
					b.WriteString("$" + strconv.Itoa(len(args)))
				} else {
					b.WriteString("?")
				}
			}
			b.WriteString(")")
		}
		if _, err := db.ExecContext(ctx, b.String(), args...); err != nil {
			return 0, fmt.Errorf("load %s: %w", table, err)
		}
	}
	return time.Since(start), nil
}

func rebind(pg bool, q string) string {
	if !pg {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// explain prints how PostgreSQL finds the notes holding a word of four characters that
// a few percent of them hold, with the server's random_page_cost and with the search's.
func explain(ctx context.Context, s *entstore.Store, out io.Writer) error {
	if s.Dialect() != dialect.Postgres {
		return nil
	}
	const q = "EXPLAIN ANALYZE SELECT id FROM blogs d WHERE d.title LIKE '%红烧排骨%' OR d.content LIKE '%红烧排骨%'"
	for _, cost := range []string{"", "1.1"} {
		tx, err := s.DB().BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		what := "the server's random_page_cost"
		if cost != "" {
			what = "random_page_cost " + cost + ", as the search sets it"
			if _, err := tx.ExecContext(ctx, "SET LOCAL random_page_cost = "+cost); err != nil {
				_ = tx.Rollback()
				return err
			}
		}
		rows, err := tx.QueryContext(ctx, q)
		if err != nil {
			_ = tx.Rollback()
			return err
		}
		var plan []string
		for rows.Next() {
			var l string
			if err := rows.Scan(&l); err != nil {
				_ = tx.Rollback()
				return err
			}
			if !strings.Contains(l, "Filter") && !strings.Contains(l, "Cond") && !strings.HasPrefix(strings.TrimSpace(l), "Heap") &&
				!strings.HasPrefix(strings.TrimSpace(l), "Rows Removed") && !strings.HasPrefix(strings.TrimSpace(l), "Recheck") {
				plan = append(plan, "      "+strings.TrimSpace(l))
			}
		}
		_ = rows.Close()
		_ = tx.Rollback()
		fmt.Fprintf(out, "  notes holding 红烧排骨, with %s:\n%s\n", what, strings.Join(plan, "\n"))
	}
	return nil
}

// anyone sees every note unliked (the flood searches as an anonymous reader).
type anyone struct{}

func (anyone) Of(_ context.Context, _ int64, blogs []domain.Blog) ([]notes.BlogView, error) {
	out := make([]notes.BlogView, len(blogs))
	for i, b := range blogs {
		out[i] = notes.BlogView{Blog: b}
	}
	return out, nil
}

// flood runs searches from workers goroutines for duration and reports latencies.
func flood(ctx context.Context, s *entstore.Store, d *dataset, workers int, duration time.Duration, out io.Writer) error {
	queries, err := search.NewQueries(entstore.NewSearch(s), anyone{}, search.Limits{Pages: domain.PageLimits{Default: 10, Max: 50}, MaxQueryRunes: 64})
	if err != nil {
		return err
	}
	kinds := d.queryKinds()
	var (
		mu      sync.Mutex
		samples = map[string][]time.Duration{}
		hits    = map[string]int{}
		errs    []error
		wg      sync.WaitGroup
	)
	deadline := time.Now().Add(duration)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(d.seed, uint64(100+w)))
			local := map[string][]time.Duration{}
			found := map[string]int{}
			for time.Now().Before(deadline) {
				k := kinds[r.IntN(len(kinds))]
				text := k.texts[r.IntN(len(k.texts))]
				start := time.Now()
				var page search.Page
				var err error
				if k.byName {
					page, err = queries.ShopsByName(ctx, text, 0, 10, nil)
				} else {
					page, err = queries.Search(ctx, 0, text, k.kind, 10, nil)
				}
				took := time.Since(start)
				if err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%s %q: %w", k.name, text, err))
					mu.Unlock()
					return
				}
				local[k.name] = append(local[k.name], took)
				found[k.name] += len(page.Results)
			}
			mu.Lock()
			for n, l := range local {
				samples[n] = append(samples[n], l...)
				hits[n] += found[n]
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	var all []time.Duration
	fmt.Fprintf(out, "  %-44s %7s %8s %9s %9s %9s %9s %6s\n", "query", "n", "/s", "p50", "p95", "p99", "max", "hits")
	for _, k := range kinds {
		l := samples[k.name]
		all = append(all, l...)
		report(out, k.name, l, hits[k.name], duration)
	}
	report(out, "all", all, -1, duration)
	return nil
}

func report(out io.Writer, name string, l []time.Duration, hits int, over time.Duration) {
	if len(l) == 0 {
		fmt.Fprintf(out, "  %-44s none\n", name)
		return
	}
	slices.Sort(l)
	p := func(q float64) time.Duration { return round(l[min(len(l)-1, int(q*float64(len(l))))]) }
	h := ""
	if hits >= 0 {
		h = fmt.Sprintf("%6.1f", float64(hits)/float64(len(l)))
	}
	fmt.Fprintf(out, "  %-44s %7d %8.0f %9s %9s %9s %9s %6s\n", name, len(l), float64(len(l))/over.Seconds(), p(0.50), p(0.95), p(0.99), round(l[len(l)-1]), h)
}
