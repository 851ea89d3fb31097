// Package entstore implements Dealspot's relational repositories with ent, on SQLite
// (pure-Go modernc driver, the embedded default) or PostgreSQL (lib/pq).
package entstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	_ "github.com/lib/pq"  // registers the "postgres" driver
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/dealspot/dealspot/ent"
)

// migrationLockID names the PostgreSQL advisory lock that serialises migrations and
// seeding when several servers start at once.
const migrationLockID = 0x6465616c73706f74 // "dealspot"

// Store is an open relational database with Dealspot's schema.
type Store struct {
	db      *sql.DB
	client  *ent.Client
	dialect string
	// statements counts every statement sent (see statements.go).
	statements *atomic.Int64
}

// Open connects to the database named by databaseURL (see ParseURL) and checks that it
// answers. It does not migrate; call Migrations().Migrate.
//
// SQLite files are opened in WAL mode with foreign keys on, a 5 s busy timeout and
// BEGIN IMMEDIATE transactions, so writers queue on the database lock instead of failing
// when a read transaction tries to upgrade; a writer still busy after the timeout (the
// file held longer by another process) is retried until its context ends. WAL lets readers run beside the one writer,
// so a file database keeps a small pool; an in-memory database exists only inside its
// one connection and is limited to it.
func Open(ctx context.Context, databaseURL string, opts ...Option) (*Store, error) {
	src, err := ParseURL(databaseURL)
	if err != nil {
		return nil, err
	}
	o := openOptions{maxConns: defaultPostgresConns}
	for _, opt := range opts {
		opt(&o)
	}
	var (
		db    *sql.DB
		total = new(atomic.Int64)
	)
	switch src.Dialect {
	case dialect.SQLite:
		db, err = openSQLite(src, total)
	case dialect.Postgres:
		db, err = openPostgres(src, total, o.maxConns)
	default:
		err = fmt.Errorf("unsupported dialect %q", src.Dialect)
	}
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("connect to %s database: %w", src.Dialect, err)
	}
	var drv dialect.Driver = entsql.OpenDB(src.Dialect, db)
	if src.Dialect == dialect.SQLite {
		drv = busyRetryDriver{drv.(*entsql.Driver)}
	}
	return &Store{
		db:         db,
		client:     ent.NewClient(ent.Driver(drv)),
		dialect:    src.Dialect,
		statements: total,
	}, nil
}

func openSQLite(src Source, total *atomic.Int64) (*sql.DB, error) {
	params := url.Values{}
	for k, v := range src.Params {
		params[k] = append([]string(nil), v...)
	}
	params.Add("_pragma", "foreign_keys(1)")
	params.Add("_pragma", "busy_timeout(5000)")
	if params.Get("_txlock") == "" {
		params.Set("_txlock", "immediate")
	}
	name := ":memory:"
	if !src.Memory {
		if dir := filepath.Dir(src.Path); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("create database directory: %w", err)
			}
		}
		params.Add("_pragma", "journal_mode(WAL)")
		params.Add("_pragma", "synchronous(NORMAL)")
		name = src.Path
	}
	db, err := countedDB("sqlite", name+"?"+params.Encode(), total)
	if err != nil {
		return nil, fmt.Errorf("open sqlite database: %w", err)
	}
	if src.Memory {
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	} else {
		db.SetMaxOpenConns(4)
		db.SetMaxIdleConns(4)
		db.SetConnMaxIdleTime(5 * time.Minute)
	}
	return db, nil
}

func openPostgres(src Source, total *atomic.Int64, maxConns int) (*sql.DB, error) {
	db, err := countedDB("postgres", src.URL, total)
	if err != nil {
		return nil, fmt.Errorf("open postgres database: %w", err)
	}
	// As many idle connections as open ones: with fewer, a burst of reads that takes
	// every connection is followed by closing the surplus and dialling it again on the
	// next burst, which cost the server more than the query (a new PostgreSQL session
	// each time).
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	db.SetConnMaxLifetime(30 * time.Minute)
	return db, nil
}

// defaultPostgresConns is a PostgreSQL pool's size unless MaxConns says otherwise.
const defaultPostgresConns = 32

// Option changes how Open opens a database.
type Option func(*openOptions)

type openOptions struct{ maxConns int }

// MaxConns bounds a PostgreSQL pool to n connections (n > 0), all kept open while idle
// (for up to five minutes): a pool that closes what it cannot keep idle opens and closes
// connections — a PostgreSQL process each — by the hundred a second under a read flood.
// SQLite pools keep their own sizes.
func MaxConns(n int) Option {
	return func(o *openOptions) {
		if n > 0 {
			o.maxConns = n
		}
	}
}

// Dialect is ent's name for the database: "sqlite3" or "postgres".
func (s *Store) Dialect() string { return s.dialect }

// Client is the ent client, for adapters that need queries of their own.
func (s *Store) Client() *ent.Client { return s.client }

// DB is the underlying connection pool.
func (s *Store) DB() *sql.DB { return s.db }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return fmt.Errorf("ping %s database: %w", s.dialect, err)
	}
	return nil
}

// Close closes the connection pool.
func (s *Store) Close() error {
	return s.client.Close()
}

// exclusively runs fn while holding the PostgreSQL advisory lock, so two servers never
// migrate or seed at the same moment. SQLite's own database lock is enough there.
func (s *Store) exclusively(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	if s.dialect != dialect.Postgres {
		return fn(ctx)
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("reserve connection for advisory lock: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", int64(migrationLockID)); err != nil {
		return fmt.Errorf("take advisory lock: %w", err)
	}
	defer func() {
		// A fresh context: the caller's may be done, and the lock must still be released.
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, uerr := conn.ExecContext(uctx, "SELECT pg_advisory_unlock($1)", int64(migrationLockID)); uerr != nil {
			err = errors.Join(err, fmt.Errorf("release advisory lock: %w", uerr))
		}
	}()
	return fn(ctx)
}
