// Command migrations writes Dealspot's versioned migration files from the ent schema and
// checks that the files in the tree still match it. `make migration name=X` and its
// neighbours in the Makefile call it.
//
//	go run ./internal/tools/migrations diff NAME   write the changes the ent schema makes to the files, one file per dialect
//	go run ./internal/tools/migrations new NAME    write an empty file per dialect, for a data migration written by hand
//	go run ./internal/tools/migrations hash        recompute atlas.sum after editing a file that was never released
//	go run ./internal/tools/migrations check       fail when the files lack a change of the ent schema (the CI drift check)
//
// The current schema is computed by replaying the files on a dev database: SQLite in
// memory, and for PostgreSQL a fresh database created for the run on the server named
// by -dev-url (dropped afterwards). The atlas CLI is not needed.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"ariga.io/atlas/sql/migrate"
	atlas "ariga.io/atlas/sql/schema"
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"
	_ "github.com/lib/pq"  // registers the "postgres" driver
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	entmigrate "github.com/dealspot/dealspot/ent/migrate"
)

// dialects maps each migration directory (under -dir) to ent's dialect name.
var dialects = map[string]string{"postgres": dialect.Postgres, "sqlite": dialect.SQLite}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "migrations:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("migrations", flag.ContinueOnError)
	root := fs.String("dir", "adapters/entstore/migrations", "the migration directories' parent (one directory per dialect)")
	devURL := fs.String("dev-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable",
		"a PostgreSQL server on which a fresh dev database may be created and dropped")
	only := fs.String("dialect", "", "postgres or sqlite (default: both)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cmd, rest := fs.Arg(0), fs.Args()
	if len(rest) > 0 {
		rest = rest[1:]
	}
	name := ""
	switch cmd {
	case "diff", "new":
		if len(rest) != 1 || !validName(rest[0]) {
			return fmt.Errorf("%s wants one NAME of lower-case letters, digits and underscores", cmd)
		}
		name = rest[0]
	case "hash", "check":
	default:
		return errors.New("usage: migrations [-dir D] [-dev-url URL] [-dialect postgres|sqlite] diff NAME | new NAME | hash | check")
	}
	var failed bool
	for _, d := range []string{"postgres", "sqlite"} {
		if *only != "" && *only != d {
			continue
		}
		path := filepath.Join(*root, d)
		if err := os.MkdirAll(path, 0o755); err != nil {
			return err
		}
		dir, err := migrate.NewLocalDir(path)
		if err != nil {
			return err
		}
		switch cmd {
		case "diff":
			err = withDevDatabase(ctx, dialects[d], *devURL, func(drv *entsql.Driver) error {
				return Diff(ctx, drv, dir, name)
			})
		case "new":
			err = NewFile(dir, name, time.Now())
		case "hash":
			err = Rehash(dir)
		case "check":
			var missing []migrate.File
			err = withDevDatabase(ctx, dialects[d], *devURL, func(drv *entsql.Driver) error {
				missing, err = Drift(ctx, drv, dir)
				return err
			})
			if err == nil && len(missing) > 0 {
				failed = true
				fmt.Fprintf(out, "%s: the migration files lack changes of the ent schema; run `make migration name=...`:\n%s\n", d, missing[0].Bytes())
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", d, err)
		}
	}
	if failed {
		return errors.New("migration files do not match the ent schema")
	}
	return nil
}

func validName(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return s != ""
}

// options are the migration options of both generation and the drift check: indexes and
// columns the schema no longer has are dropped, so a leftover shows as drift — except the
// search indexes, which hand-written files make (keepSearchIndexes).
func options(dir migrate.Dir, drv *entsql.Driver) []schema.MigrateOption {
	return []schema.MigrateOption{
		schema.WithDiffHook(keepSearchIndexes),
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithDialect(drv.Dialect()),
		schema.WithFormatter(migrate.DefaultFormatter),
		schema.WithDropIndex(true),
		schema.WithDropColumn(true),
	}
}

// searchIndexPrefix starts the names of the indexes that search reads (PostgreSQL's
// trigram indexes): ent cannot describe them, so a hand-written migration creates them and
// the diff leaves them be. (SQLite's search tables are tables ent does not know, which
// ent's diff never drops.)
const searchIndexPrefix = "search_"

// keepSearchIndexes drops from a diff the removal of the search indexes.
func keepSearchIndexes(next schema.Differ) schema.Differ {
	return schema.DiffFunc(func(current, desired *atlas.Schema) ([]atlas.Change, error) {
		changes, err := next.Diff(current, desired)
		if err != nil {
			return nil, err
		}
		kept := changes[:0]
		for _, c := range changes {
			if m, ok := c.(*atlas.ModifyTable); ok {
				m.Changes = slices.DeleteFunc(m.Changes, func(c atlas.Change) bool {
					d, ok := c.(*atlas.DropIndex)
					return ok && strings.HasPrefix(d.I.Name, searchIndexPrefix)
				})
				if len(m.Changes) == 0 {
					continue
				}
			}
			kept = append(kept, c)
		}
		return kept, nil
	})
}

// diffMu serialises diffs: ent writes to the package-level tables of ent/migrate while
// it plans.
var diffMu sync.Mutex

// Diff writes into dir the file that brings the replayed files to the ent schema, named
// name, and updates atlas.sum. It writes nothing when there is no change. drv must be a
// fresh (empty) dev database.
func Diff(ctx context.Context, drv *entsql.Driver, dir migrate.Dir, name string) error {
	diffMu.Lock()
	defer diffMu.Unlock()
	m, err := schema.NewMigrate(drv, options(dir, drv)...)
	if err != nil {
		return err
	}
	return m.NamedDiff(ctx, name, entmigrate.Tables...)
}

// Drift returns the file Diff would write for dir (none when the files match the ent
// schema), without touching dir.
func Drift(ctx context.Context, drv *entsql.Driver, dir migrate.Dir) ([]migrate.File, error) {
	files, err := dir.Files()
	if err != nil {
		return nil, err
	}
	mem := &migrate.MemDir{}
	if err := mem.CopyFiles(files); err != nil {
		return nil, err
	}
	// The copy gets its sum from the files; check the tree's own sum first.
	if err := migrate.Validate(dir); err != nil {
		return nil, fmt.Errorf("atlas.sum does not match the files (run `make migration-hash` after editing an unreleased file): %w", err)
	}
	if err := Diff(ctx, drv, mem, "drift"); err != nil {
		return nil, err
	}
	after, err := mem.Files()
	if err != nil {
		return nil, err
	}
	return after[len(files):], nil
}

// NewFile writes an empty migration file named name for a hand-written (data) migration
// and updates atlas.sum.
func NewFile(dir migrate.Dir, name string, now time.Time) error {
	version := now.UTC().Format("20060102150405")
	body := "-- " + strings.ReplaceAll(name, "_", " ") + ": a data migration written by hand.\n"
	if err := dir.WriteFile(version+"_"+name+".sql", []byte(body)); err != nil {
		return err
	}
	return Rehash(dir)
}

// Rehash rewrites atlas.sum from the files.
func Rehash(dir migrate.Dir) error {
	sum, err := dir.Checksum()
	if err != nil {
		return err
	}
	return migrate.WriteSumFile(dir, sum)
}

// withDevDatabase runs fn on an empty dev database of the dialect: SQLite in memory, or a
// PostgreSQL database created for the call on the server of serverURL and dropped after.
func withDevDatabase(ctx context.Context, dia, serverURL string, fn func(drv *entsql.Driver) error) (err error) {
	if dia == dialect.SQLite {
		db, err := OpenSQLiteDev()
		if err != nil {
			return err
		}
		defer db.Close()
		return fn(entsql.OpenDB(dialect.SQLite, db))
	}
	admin, err := sql.Open("postgres", serverURL)
	if err != nil {
		return err
	}
	defer admin.Close()
	name := fmt.Sprintf("dealspot_migration_dev_%d", time.Now().UnixNano())
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return fmt.Errorf("create the dev database on %s: %w", redact(serverURL), err)
	}
	defer func() {
		if _, derr := admin.ExecContext(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); derr != nil {
			err = errors.Join(err, fmt.Errorf("drop the dev database: %w", derr))
		}
	}()
	u, err := url.Parse(serverURL)
	if err != nil {
		return err
	}
	u.Path = "/" + name
	db, err := sql.Open("postgres", u.String())
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(entsql.OpenDB(dialect.Postgres, db))
}

// OpenSQLiteDev opens an empty in-memory SQLite database (one connection: the database
// lives in it) with foreign keys on, as ent requires.
func OpenSQLiteDev() (*sql.DB, error) {
	db, err := sql.Open("sqlite", ":memory:?_pragma=foreign_keys(1)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	return db, nil
}

func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "the dev server"
	}
	return p.Redacted()
}
