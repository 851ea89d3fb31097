package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/dealspot/dealspot/internal/testsupport"
)

// repoDir is the migration directory of a dialect in the tree.
func repoDir(t *testing.T, name string) *migrate.LocalDir {
	t.Helper()
	dir, err := migrate.NewLocalDir(filepath.Join("..", "..", "..", "adapters", "entstore", "migrations", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func devDriver(t *testing.T, name string) *entsql.Driver {
	t.Helper()
	if name == "sqlite" {
		db, err := OpenSQLiteDev()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return entsql.OpenDB(dialect.SQLite, db)
	}
	db, err := sql.Open("postgres", testsupport.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return entsql.OpenDB(dialect.Postgres, db)
}

// TestMigrationFilesMatchEntSchema is the drift check: replaying the files in the tree on
// an empty database must give exactly the ent schema, and atlas.sum must match them.
func TestMigrationFilesMatchEntSchema(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "postgres" {
				testsupport.Require(t, testsupport.EnvPostgres)
			}
			missing, err := Drift(t.Context(), devDriver(t, name), repoDir(t, name))
			if err != nil {
				t.Fatal(err)
			}
			if len(missing) > 0 {
				t.Fatalf("the migration files lack changes of the ent schema; run `make migration name=<what changed>`. Missing:\n%s", missing[0].Bytes())
			}
		})
	}
}

// The drift check fails when the files lack a change: here, everything after the first
// release.
func TestDriftCheckFindsAMissingChange(t *testing.T) {
	t.Parallel()
	files, err := repoDir(t, "sqlite").Files()
	if err != nil {
		t.Fatal(err)
	}
	mem := &migrate.MemDir{}
	if err := mem.CopyFiles(files[:1]); err != nil {
		t.Fatal(err)
	}
	missing, err := Drift(t.Context(), devDriver(t, "sqlite"), mem)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != 1 || !strings.Contains(string(missing[0].Bytes()), "CREATE TABLE `sessions`") {
		t.Fatalf("drift of the first release's files = %d files, want one creating the sessions table", len(missing))
	}
}

// A file edited after atlas.sum was written fails the check.
func TestDriftCheckRefusesAStaleSum(t *testing.T) {
	t.Parallel()
	files, err := repoDir(t, "sqlite").Files()
	if err != nil {
		t.Fatal(err)
	}
	mem := &migrate.MemDir{}
	if err := mem.CopyFiles(files); err != nil {
		t.Fatal(err)
	}
	last := files[len(files)-1]
	if err := mem.WriteFile(last.Name(), append(last.Bytes(), "\n-- edited\n"...)); err != nil {
		t.Fatal(err)
	}
	if _, err := Drift(t.Context(), devDriver(t, "sqlite"), mem); err == nil || !strings.Contains(err.Error(), "atlas.sum") {
		t.Fatalf("Drift with an edited file = %v, want an atlas.sum error", err)
	}
}
