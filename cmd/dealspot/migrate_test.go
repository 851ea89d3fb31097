package main

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/dealspot/dealspot/internal/config"
)

// migrationStatus runs `dealspot migrate --status` and returns what it printed.
func migrationStatus(t *testing.T, getenv func(string) string) string {
	t.Helper()
	cfg, err := config.Load(getenv)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := migrate(t.Context(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), []string{"--status"}, &out); err != nil {
		t.Fatalf("migrate --status: %v", err)
	}
	return out.String()
}

var versionLine = regexp.MustCompile(`(?m)^(\d{14})\s+(\w+)\s+(.*)$`)

func TestMigrateStatus(t *testing.T) {
	t.Parallel()
	dbURL := "sqlite://" + filepath.ToSlash(filepath.Join(t.TempDir(), "status.db"))
	_, getenv := environment(t, map[string]string{"DATABASE_URL": dbURL})

	for range 2 { // --status changes nothing: the second run sees the same
		out := migrationStatus(t, getenv)
		lines := versionLine.FindAllStringSubmatch(out, -1)
		if len(lines) < 3 {
			t.Fatalf("status lists %d files, want every migration file:\n%s", len(lines), out)
		}
		for _, l := range lines {
			if l[3] != "pending" {
				t.Errorf("on an empty database %s is %q, want pending", l[1], l[3])
			}
		}
		if !strings.Contains(out, "SQLite database is at version none (empty database); "+strconv.Itoa(len(lines))+" migration(s) pending: run `dealspot migrate`") {
			t.Errorf("status of an empty database:\n%s", out)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var log syncBuffer
	if err := runContext(ctx, []string{"migrate"}, getenv, &log); err != nil {
		t.Fatalf("migrate: %v\n%s", err, log.String())
	}
	out := migrationStatus(t, getenv)
	lines := versionLine.FindAllStringSubmatch(out, -1)
	for _, l := range lines {
		if !strings.HasPrefix(l[3], "applied 20") {
			t.Errorf("after migrate %s is %q, want applied with its time", l[1], l[3])
		}
	}
	latest := lines[len(lines)-1][1]
	if lines[0][2] != "first_release" || !strings.Contains(out, "SQLite database is up to date at version "+latest+".") {
		t.Errorf("status after migrate:\n%s", out)
	}
	if !strings.Contains(log.String(), "database schema migrated") || !strings.Contains(log.String(), "applied="+strconv.Itoa(len(lines))) {
		t.Errorf("migrate should log the files it applied:\n%s", log.String())
	}
}

// productionEnv is a production configuration on an embedded SQLite file.
func productionEnv(t *testing.T, dbURL string) func(string) string {
	_, getenv := environment(t, map[string]string{
		"DEALSPOT_ENV": "production", "JWT_SECRET": strings.Repeat("s", 40), "ALLOW_EMBEDDED": "true",
		"SMS_WEBHOOK_URL": "https://sms.example/hook", "SMS_WEBHOOK_SECRET": strings.Repeat("w", 20),
		"METRICS_ADDR": "same", "DATABASE_URL": dbURL,
	})
	return getenv
}

// In production serve never changes the schema: on a database that lacks a migration it
// refuses to start and says to run `dealspot migrate`; after that, it starts.
func TestProductionServeRefusesOutOfDateDatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "prod.db")
	getenv := productionEnv(t, "sqlite://"+filepath.ToSlash(path))

	err := runFailing(t, []string{"serve"}, getenv)
	if !strings.Contains(err.Error(), "not up to date") || !strings.Contains(err.Error(), "run `dealspot migrate`") {
		t.Errorf("serve on an empty database: %v; want a refusal naming dealspot migrate", err)
	}
	if out := migrationStatus(t, getenv); strings.Contains(out, "applied") {
		t.Fatalf("the refused serve migrated the database:\n%s", out)
	}

	// A database one release behind: every file but the last applied (migrate --to).
	files := versionLine.FindAllStringSubmatch(migrationStatus(t, getenv), -1)
	if len(files) < 2 {
		t.Fatalf("status lists %d migration files", len(files))
	}
	last, prev := files[len(files)-1][1], files[len(files)-2][1]
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var log syncBuffer
	if err := runContext(ctx, []string{"migrate", "--to", prev}, getenv, &log); err != nil {
		t.Fatalf("migrate --to %s: %v\n%s", prev, err, log.String())
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = runFailing(t, []string{"serve"}, getenv)
	if !strings.Contains(err.Error(), "1 migration(s) pending, starting with "+last) || !strings.Contains(err.Error(), "run `dealspot migrate`") {
		t.Errorf("serve one migration behind: %v", err)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM schema_revisions WHERE version = ?", last).Scan(&n); err != nil || n != 0 {
		t.Errorf("the refused serve applied %s (%d rows, %v)", last, n, err)
	}

	if err := runContext(ctx, []string{"migrate"}, getenv, &log); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	srvCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- runContext(srvCtx, []string{"serve"}, getenv, &log) }()
	deadline := time.After(time.Minute)
	for !strings.Contains(log.String(), "dealspot serving") {
		select {
		case err := <-done:
			t.Fatalf("serve on a migrated database stopped: %v\n%s", err, log.String())
		case <-deadline:
			t.Fatalf("serve did not start:\n%s", log.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}
