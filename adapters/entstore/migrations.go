package entstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"ariga.io/atlas/sql/migrate"
	atlaspg "ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
	atlassqlite "ariga.io/atlas/sql/sqlite"
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	entschema "entgo.io/ent/dialect/sql/schema"

	"github.com/dealspot/dealspot/adapters/entstore/internal/lastunversioned"
)

// The schema is versioned: migrations/<dialect>/ holds one SQL file per change, in
// Atlas's format with its integrity sum (atlas.sum), written from the ent schema by
// `make migration name=X` (internal/tools/migrations). Migrate applies the files a
// database lacks, each in one transaction with its revision row, and records them in
// the revisions table.
//
//go:embed migrations/postgres/*.sql migrations/postgres/atlas.sum migrations/sqlite/*.sql migrations/sqlite/atlas.sum
var migrationFiles embed.FS

// RevisionsTable records the migration files applied to a database.
const RevisionsTable = "schema_revisions"

// Revision is one migration file and what the database knows of it.
type Revision struct {
	Version     string
	Description string
	// Applied is when the file was applied or adopted (zero when pending).
	Applied time.Time
	// Adopted means the file was not run but found already applied: the database was
	// created before versioned migrations, by ent's Schema.Create, and matched the
	// schema the files up to this one build.
	Adopted bool
	// Changed means the file differs from the one applied (its hash changed).
	Changed bool
}

// MigrationStatus is where a database stands against this build's migration files.
type MigrationStatus struct {
	Dialect string
	// Files are this build's files, oldest first.
	Files []Revision
	// Unknown are versions the database has applied that this build lacks (a newer
	// build migrated it).
	Unknown []string
	// Unversioned means the database has tables but no revisions: it was created
	// before versioned migrations; Migrate adopts it.
	Unversioned bool
}

// Pending returns the files not yet applied.
func (m MigrationStatus) Pending() []Revision {
	var p []Revision
	for _, f := range m.Files {
		if f.Applied.IsZero() {
			p = append(p, f)
		}
	}
	return p
}

// Current is the newest applied version ("" when none).
func (m MigrationStatus) Current() string {
	cur := ""
	for _, f := range m.Files {
		if !f.Applied.IsZero() {
			cur = f.Version
		}
	}
	return cur
}

// Latest is the newest version of this build.
func (m MigrationStatus) Latest() string {
	if len(m.Files) == 0 {
		return ""
	}
	return m.Files[len(m.Files)-1].Version
}

// ErrSchemaOutOfDate is returned (wrapped) by CheckMigrated when migration files are
// pending.
var ErrSchemaOutOfDate = errors.New("the database schema is not up to date")

// migrationDir returns the dialect's embedded files as an Atlas directory, its sum
// checked.
func migrationDir(dia string) (*migrate.MemDir, error) {
	name := "sqlite"
	if dia == dialect.Postgres {
		name = "postgres"
	}
	root := path.Join("migrations", name)
	entries, err := fs.ReadDir(migrationFiles, root)
	if err != nil {
		return nil, err
	}
	dir := &migrate.MemDir{}
	for _, e := range entries {
		b, err := fs.ReadFile(migrationFiles, path.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		if err := dir.WriteFile(e.Name(), b); err != nil {
			return nil, err
		}
	}
	if err := migrate.Validate(dir); err != nil {
		return nil, fmt.Errorf("migration files of %s do not match their atlas.sum: %w", name, err)
	}
	return dir, nil
}

// migrationSet is a dialect's files with their hashes and statements.
type migrationSet struct {
	files []migrate.File
	sums  migrate.HashFile
	stmts map[string][]string // by file name
}

// migrationSets are read, checked and split into statements once per process: the
// files are embedded and never change.
var migrationSets = map[string]func() (migrationSet, error){
	dialect.Postgres: sync.OnceValues(func() (migrationSet, error) { return readMigrations(dialect.Postgres) }),
	dialect.SQLite:   sync.OnceValues(func() (migrationSet, error) { return readMigrations(dialect.SQLite) }),
}

func loadMigrations(dia string) (migrationSet, error) {
	load, ok := migrationSets[dia]
	if !ok {
		return migrationSet{}, fmt.Errorf("no migrations for dialect %q", dia)
	}
	return load()
}

func readMigrations(dia string) (migrationSet, error) {
	dir, err := migrationDir(dia)
	if err != nil {
		return migrationSet{}, err
	}
	files, err := dir.Files()
	if err != nil {
		return migrationSet{}, err
	}
	sums, err := dir.Checksum()
	if err != nil {
		return migrationSet{}, err
	}
	set := migrationSet{files: files, sums: sums, stmts: map[string][]string{}}
	for _, f := range files {
		if set.stmts[f.Name()], err = f.Stmts(); err != nil {
			return migrationSet{}, fmt.Errorf("read migration %s: %w", f.Name(), err)
		}
	}
	return set, nil
}

func (m migrationSet) hash(f migrate.File) string {
	h, _ := m.sums.SumByName(f.Name())
	return h
}

// Migrations brings a database's schema to this build's version and says where it
// stands: the versioned migration files, applied, adopted and checked.
type Migrations struct {
	db      *sql.DB
	dialect string
}

// Migrations returns the store's schema migrations (`dealspot migrate`, and the start-up
// that migrates or checks the schema).
func (s *Store) Migrations() *Migrations { return &Migrations{db: s.db, dialect: s.dialect} }

// Migrate brings the schema to this build's latest version by applying the migration
// files the database lacks, each in one transaction together with its revision row.
// A database created before versioned migrations (tables but no revisions) is adopted
// first: the newest version whose files build exactly its schema is recorded as applied
// without running anything, and the files after it are applied; a schema no version
// matches is refused. On PostgreSQL one session advisory lock serialises concurrent
// callers (every server and `dealspot migrate`), so each file is applied once; on
// SQLite, the single writer, each file's transaction checks again that the file is not
// yet applied.
func (m *Migrations) Migrate(ctx context.Context) error { return m.migrate(ctx, "") }

// MigrateTo is Migrate stopping after the file of version (a 14-digit version that this
// build has a file of): to leave a database a release behind, or to step through.
func (m *Migrations) MigrateTo(ctx context.Context, version string) error {
	set, err := loadMigrations(m.dialect)
	if err != nil {
		return err
	}
	for _, f := range set.files {
		if f.Version() == version {
			return m.migrate(ctx, version)
		}
	}
	return fmt.Errorf("this build has no migration file of version %q (see dealspot migrate --status)", version)
}

// migrate is Migrate stopping after version upTo ("": the latest).
func (m *Migrations) migrate(ctx context.Context, upTo string) error {
	set, err := loadMigrations(m.dialect)
	if err != nil {
		return err
	}
	conn, err := m.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("reserve connection for migrations: %w", err)
	}
	defer conn.Close()
	return m.withLock(ctx, conn, func() error {
		st, err := m.status(ctx, conn, set)
		if err != nil {
			return err
		}
		if st.Unversioned {
			if err := m.adopt(ctx, conn, set); err != nil {
				return err
			}
			if st, err = m.status(ctx, conn, set); err != nil {
				return err
			}
		} else if err := m.createRevisionsTable(ctx, conn); err != nil {
			return err
		}
		for _, r := range st.Files {
			if r.Changed {
				return fmt.Errorf("migration %s was changed after it was applied to this database; restore the released file", r.Version)
			}
		}
		for i, f := range set.files {
			if upTo != "" && f.Version() > upTo {
				break
			}
			if !st.Files[i].Applied.IsZero() {
				continue
			}
			if err := m.apply(ctx, conn, set, f); err != nil {
				return err
			}
		}
		return nil
	})
}

// Status reports which of this build's migration files the database has applied.
func (m *Migrations) Status(ctx context.Context) (MigrationStatus, error) {
	set, err := loadMigrations(m.dialect)
	if err != nil {
		return MigrationStatus{}, err
	}
	conn, err := m.db.Conn(ctx)
	if err != nil {
		return MigrationStatus{}, fmt.Errorf("reserve connection: %w", err)
	}
	defer conn.Close()
	return m.status(ctx, conn, set)
}

// CheckMigrated returns nil when the database has every migration file of this build
// applied, and an error wrapping ErrSchemaOutOfDate that says what is missing
// otherwise. Versions applied by a newer build are allowed: its files only add.
func (m *Migrations) CheckMigrated(ctx context.Context) error {
	st, err := m.Status(ctx)
	if err != nil {
		return err
	}
	pending := st.Pending()
	if len(pending) == 0 {
		return nil
	}
	switch {
	case st.Unversioned:
		return fmt.Errorf("%w: it was created by a release before versioned migrations and has no %s table (run `dealspot migrate` to adopt it and apply %d migration(s))",
			ErrSchemaOutOfDate, RevisionsTable, len(pending))
	case st.Current() == "":
		return fmt.Errorf("%w: the %s database has no schema yet (run `dealspot migrate`)", ErrSchemaOutOfDate, st.Dialect)
	}
	return fmt.Errorf("%w: it is at version %s, this build needs %s: %d migration(s) pending, starting with %s (run `dealspot migrate`)",
		ErrSchemaOutOfDate, st.Current(), st.Latest(), len(pending), pending[0].Version+"_"+pending[0].Description)
}

// withLock runs fn holding the migration advisory lock on conn (PostgreSQL); SQLite
// needs none.
func (m *Migrations) withLock(ctx context.Context, conn *sql.Conn, fn func() error) (err error) {
	if m.dialect != dialect.Postgres {
		return fn()
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", int64(migrationLockID)); err != nil {
		return fmt.Errorf("take advisory lock: %w", err)
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, uerr := conn.ExecContext(uctx, "SELECT pg_advisory_unlock($1)", int64(migrationLockID)); uerr != nil {
			err = errors.Join(err, fmt.Errorf("release advisory lock: %w", uerr))
		}
	}()
	return fn()
}

func (m *Migrations) createRevisionsTable(ctx context.Context, q execQuerier) error {
	ddl := "CREATE TABLE IF NOT EXISTS " + RevisionsTable + ` (version varchar(32) NOT NULL PRIMARY KEY,
		description varchar(255) NOT NULL, hash varchar(64) NOT NULL, applied_at varchar(40) NOT NULL,
		adopted boolean NOT NULL DEFAULT false)`
	if _, err := q.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("create the %s table: %w", RevisionsTable, err)
	}
	return nil
}

type execQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// tables lists the tables of the connected schema.
func (m *Migrations) tables(ctx context.Context, q execQuerier) ([]string, error) {
	query := "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
	if m.dialect != dialect.Postgres {
		query = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

type appliedRevision struct {
	hash    string
	at      time.Time
	adopted bool
}

func (m *Migrations) status(ctx context.Context, q execQuerier, set migrationSet) (MigrationStatus, error) {
	st := MigrationStatus{Dialect: m.dialect}
	tables, err := m.tables(ctx, q)
	if err != nil {
		return st, err
	}
	applied := map[string]appliedRevision{}
	hasRevisions := false
	for _, t := range tables {
		hasRevisions = hasRevisions || t == RevisionsTable
	}
	if hasRevisions {
		rows, err := q.QueryContext(ctx, "SELECT version, hash, applied_at, adopted FROM "+RevisionsTable)
		if err != nil {
			return st, fmt.Errorf("read %s: %w", RevisionsTable, err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				v, at string
				r     appliedRevision
			)
			if err := rows.Scan(&v, &r.hash, &at, &r.adopted); err != nil {
				return st, fmt.Errorf("read %s: %w", RevisionsTable, err)
			}
			if r.at, err = time.Parse(time.RFC3339Nano, at); err != nil {
				return st, fmt.Errorf("read %s: version %s: %w", RevisionsTable, v, err)
			}
			applied[v] = r
		}
		if err := rows.Err(); err != nil {
			return st, err
		}
	}
	st.Unversioned = len(applied) == 0 && len(tables) > 0 && !(len(tables) == 1 && hasRevisions)
	known := map[string]bool{}
	for _, f := range set.files {
		r := Revision{Version: f.Version(), Description: f.Desc()}
		if a, ok := applied[f.Version()]; ok {
			r.Applied, r.Adopted, r.Changed = a.at, a.adopted, a.hash != set.hash(f)
		}
		known[f.Version()] = true
		st.Files = append(st.Files, r)
	}
	for v := range applied {
		if !known[v] {
			st.Unknown = append(st.Unknown, v)
		}
	}
	return st, nil
}

// apply runs one file and records it, in one transaction. On SQLite, foreign keys are
// off while the file runs (the files rebuild tables to change them, as SQLite's manual
// prescribes) and checked before commit.
func (m *Migrations) apply(ctx context.Context, conn *sql.Conn, set migrationSet, f migrate.File) (err error) {
	stmts := set.stmts[f.Name()]
	if m.dialect == dialect.SQLite {
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = off"); err != nil {
			return err
		}
		defer func() {
			if _, ferr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = on"); ferr != nil {
				err = errors.Join(err, ferr)
			}
		}()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin migration %s: %w", f.Name(), err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	// Another process may have applied it meanwhile (SQLite takes no advisory lock).
	var n int
	if err := tx.QueryRowContext(ctx, m.rebind("SELECT COUNT(*) FROM "+RevisionsTable+" WHERE version = ?"), f.Version()).Scan(&n); err != nil {
		return fmt.Errorf("migration %s: %w", f.Name(), err)
	}
	if n > 0 {
		return tx.Rollback()
	}
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("migration %s failed (nothing of it was applied): %w\nstatement: %s", f.Name(), err, firstLine(stmt))
		}
	}
	if m.dialect == dialect.SQLite {
		if err := foreignKeyCheck(ctx, tx); err != nil {
			return fmt.Errorf("migration %s: %w", f.Name(), err)
		}
	}
	if err := m.record(ctx, tx, set, f, false); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit migration %s: %w", f.Name(), err)
	}
	return nil
}

func (m *Migrations) record(ctx context.Context, q execQuerier, set migrationSet, f migrate.File, adopted bool) error {
	_, err := q.ExecContext(ctx, m.rebind("INSERT INTO "+RevisionsTable+" (version, description, hash, applied_at, adopted) VALUES (?, ?, ?, ?, ?)"),
		f.Version(), f.Desc(), set.hash(f), time.Now().UTC().Format(time.RFC3339Nano), adopted)
	if err != nil {
		return fmt.Errorf("record migration %s: %w", f.Name(), err)
	}
	return nil
}

// rebind turns ? placeholders into PostgreSQL's $n.
func (m *Migrations) rebind(q string) string {
	if m.dialect != dialect.Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func foreignKeyCheck(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	if rows.Next() {
		var table string
		var rowid sql.NullInt64
		var parent string
		var fkid int
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			return err
		}
		return fmt.Errorf("foreign key violated: a row of %s (rowid %d) refers to a missing row of %s", table, rowid.Int64, parent)
	}
	return rows.Err()
}

func firstLine(stmt string) string {
	stmt = strings.TrimSpace(stmt)
	if i := strings.IndexByte(stmt, '\n'); i >= 0 {
		stmt = stmt[:i] + " …"
	}
	if len(stmt) > 300 {
		stmt = stmt[:300] + " …"
	}
	return stmt
}

// adopt records the versions of an unversioned database: it replays the files one by one
// on a scratch schema, compares each state with the database's schema, and records every
// file up to the newest matching state as applied (adopted). Data-only files keep the
// schema the same, so they are adopted with the schema file before them: the release
// that built the database ran the same fixes in its own start-up migration.
//
// A database no state matches may come from a release between the first and the last
// unversioned one (each added to the schema with Schema.Create at start, never dropping
// an index). If every table and column it has is one the last unversioned release knew,
// it is brought to that release's schema the way that release's start-up would have
// (plus the indexes it no longer had dropped), in one transaction with the adoption, and
// matched again; otherwise, or if that does not match either, nothing is changed.
func (m *Migrations) adopt(ctx context.Context, conn *sql.Conn, set migrationSet) error {
	states, err := m.replay(ctx, conn, set)
	if err != nil {
		return err
	}
	drv, err := m.atlasDriver(conn)
	if err != nil {
		return err
	}
	live, err := inspectLive(ctx, drv)
	if err != nil {
		return err
	}
	match, closest, err := matchState(drv, set, states, live)
	if err != nil {
		return err
	}
	if m.dialect == dialect.SQLite {
		// Schema.Create may rebuild tables; see apply.
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = off"); err != nil {
			return err
		}
		defer func() { _, _ = conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = on") }()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if match < 0 && knownToLastUnversioned(live) {
		if err := m.upgradeLikeLastUnversioned(ctx, tx, live); err != nil {
			return fmt.Errorf("bring the database to the last unversioned release's schema: %w", err)
		}
		txDrv, err := m.atlasDriver(tx)
		if err != nil {
			return err
		}
		if live, err = inspectLive(ctx, txDrv); err != nil {
			return err
		}
		if match, closest, err = matchState(txDrv, set, states, live); err != nil {
			return err
		}
	}
	if match < 0 {
		return fmt.Errorf("the database has tables but no %s table, and its schema matches no migration version of this build; "+
			"it was made by an unreleased or modified build: bring it to a released schema (a development database can be deleted "+
			"and made again) and run `dealspot migrate` again; nothing was changed (%s)", RevisionsTable, closest)
	}
	if m.dialect == dialect.SQLite {
		if err := foreignKeyCheck(ctx, tx); err != nil {
			return err
		}
	}
	if err := m.createRevisionsTable(ctx, tx); err != nil {
		return err
	}
	for _, f := range set.files[:match+1] {
		if err := m.record(ctx, tx, set, f, true); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// matchState returns the index of the newest replayed state equal to live (-1 when none)
// and, when none, the first difference of the newest state.
func matchState(drv migrate.Driver, set migrationSet, states []*schema.Schema, live *schema.Schema) (int, string, error) {
	match, closest := -1, ""
	for i, st := range states {
		st.Name = live.Name
		changes, err := drv.SchemaDiff(st, live)
		if err != nil {
			return -1, "", fmt.Errorf("compare the database with migration %s: %w", set.files[i].Name(), err)
		}
		if len(changes) == 0 {
			match = i
		} else {
			closest = fmt.Sprintf("after %s it differs by %d change(s), the first: %s", set.files[i].Name(), len(changes), describeChange(changes[0]))
		}
	}
	return match, closest, nil
}

// knownToLastUnversioned reports whether every table and column of s is one the last
// unversioned release's schema has.
func knownToLastUnversioned(s *schema.Schema) bool {
	tables := map[string]*entschema.Table{}
	for _, t := range lastunversioned.Tables {
		tables[t.Name] = t
	}
	for _, t := range s.Tables {
		et, ok := tables[t.Name]
		if !ok {
			return false
		}
		for _, c := range t.Columns {
			if !slices.ContainsFunc(et.Columns, func(ec *entschema.Column) bool { return ec.Name == c.Name }) {
				return false
			}
		}
	}
	return true
}

// lastUnversionedMu serialises ent's Schema.Create on the package-level tables of
// lastunversioned, which it writes to while it plans.
var lastUnversionedMu sync.Mutex

// upgradeLikeLastUnversioned runs, in tx, what the last unversioned release ran at start:
// ent's Schema.Create with its tables, then its data fix (shops without rating sums count
// their reviews as ratings of their score); and drops the indexes that release's schema
// no longer had, which Schema.Create left behind.
func (m *Migrations) upgradeLikeLastUnversioned(ctx context.Context, tx *sql.Tx, before *schema.Schema) error {
	lastUnversionedMu.Lock()
	defer lastUnversionedMu.Unlock()
	mig, err := entschema.NewMigrate(txDriver{entsql.NewDriver(m.dialect, entsql.Conn{ExecQuerier: tx})}, entschema.WithDropIndex(true))
	if err != nil {
		return err
	}
	if err := mig.Create(ctx, lastunversioned.Tables...); err != nil {
		return err
	}
	if shops, ok := before.Table("shops"); ok {
		if _, had := shops.Column("rating_count"); !had {
			if _, err := tx.ExecContext(ctx, "UPDATE shops SET rating_count = comments, rating_sum = (score * comments) / 10"); err != nil {
				return fmt.Errorf("start the shops' rating sums: %w", err)
			}
		}
	}
	return nil
}

// txDriver is an ent driver on an open transaction: ent's migration opens a "transaction"
// of its own, which runs inside this one.
type txDriver struct{ *entsql.Driver }

func (d txDriver) Tx(context.Context) (dialect.Tx, error) { return dialect.NopTx(d), nil }

// Query answers ent's check that SQLite enforces foreign keys as if it did: enforcement
// is off on purpose while tables are rebuilt, and checked with foreign_key_check before
// the commit (SQLite's documented procedure for altering tables).
func (d txDriver) Query(ctx context.Context, query string, args, v any) error {
	if query == "PRAGMA foreign_keys" {
		query = "SELECT 1"
	}
	return d.Driver.Query(ctx, query, args, v)
}

// inspectLive reads the database's schema, without the revisions table.
func inspectLive(ctx context.Context, drv migrate.Driver) (*schema.Schema, error) {
	live, err := drv.InspectSchema(ctx, "", &schema.InspectOptions{Exclude: []string{RevisionsTable}})
	if err != nil {
		return nil, fmt.Errorf("inspect the database schema: %w", err)
	}
	return live, nil
}

func (m *Migrations) atlasDriver(q schema.ExecQuerier) (migrate.Driver, error) {
	if m.dialect == dialect.Postgres {
		return atlaspg.Open(q)
	}
	return atlassqlite.Open(q)
}

// replay applies the files in order on an empty scratch schema and returns the schema
// after each: for PostgreSQL a temporary schema inside a transaction that is rolled
// back, for SQLite a database in memory.
func (m *Migrations) replay(ctx context.Context, conn *sql.Conn, set migrationSet) ([]*schema.Schema, error) {
	var (
		q      schema.ExecQuerier
		scheme string
	)
	if m.dialect == dialect.Postgres {
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		defer func() { _ = tx.Rollback() }()
		scheme = fmt.Sprintf("dealspot_adopt_%d", time.Now().UnixNano())
		// The scratch schema comes first in the path, so the files create their tables
		// there; the schemas after it keep the extensions the database already has (a
		// file's CREATE EXTENSION IF NOT EXISTS does nothing then, and its indexes need
		// their operator classes).
		for _, stmt := range []string{"CREATE SCHEMA " + scheme,
			"SELECT set_config('search_path', '" + scheme + ", ' || current_setting('search_path'), true)"} {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return nil, fmt.Errorf("prepare a scratch schema to compare with: %w", err)
			}
		}
		q = tx
	} else {
		db, err := sql.Open("sqlite", ":memory:?_pragma=foreign_keys(0)")
		if err != nil {
			return nil, err
		}
		defer db.Close()
		db.SetMaxOpenConns(1)
		db.SetConnMaxIdleTime(0)
		db.SetConnMaxLifetime(0)
		q = db
	}
	drv, err := m.atlasDriver(q)
	if err != nil {
		return nil, err
	}
	states := make([]*schema.Schema, 0, len(set.files))
	for _, f := range set.files {
		for _, stmt := range set.stmts[f.Name()] {
			if _, err := q.ExecContext(ctx, stmt); err != nil {
				return nil, fmt.Errorf("replay migration %s: %w", f.Name(), err)
			}
		}
		st, err := drv.InspectSchema(ctx, scheme, nil)
		if err != nil {
			return nil, fmt.Errorf("inspect migration %s: %w", f.Name(), err)
		}
		states = append(states, st)
	}
	return states, nil
}

// describeChange names a schema difference for an operator.
func describeChange(c schema.Change) string {
	switch c := c.(type) {
	case *schema.AddTable:
		return "table " + c.T.Name + " is missing"
	case *schema.DropTable:
		return "table " + c.T.Name + " is extra"
	case *schema.ModifyTable:
		parts := make([]string, 0, len(c.Changes))
		for _, m := range c.Changes {
			switch m := m.(type) {
			case *schema.AddColumn:
				parts = append(parts, "column "+m.C.Name+" is extra")
			case *schema.DropColumn:
				parts = append(parts, "column "+m.C.Name+" is missing")
			case *schema.ModifyColumn:
				parts = append(parts, "column "+m.To.Name+" differs")
			case *schema.AddIndex:
				parts = append(parts, "index "+m.I.Name+" is extra")
			case *schema.DropIndex:
				parts = append(parts, "index "+m.I.Name+" is missing")
			case *schema.ModifyIndex:
				parts = append(parts, "index "+m.To.Name+" differs")
			default:
				parts = append(parts, fmt.Sprintf("%T", m))
			}
		}
		return "table " + c.T.Name + ": " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%T", c)
}
