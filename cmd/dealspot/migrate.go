package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/service"
)

// migrate applies the pending migration files (under the advisory lock on PostgreSQL), with
// --to VERSION only those up to that version, or with --status lists them on out.
func migrate(ctx context.Context, cfg config.Config, log *slog.Logger, args []string, out io.Writer) (err error) {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	status := fs.Bool("status", false, "list the migration files and which the database has applied; change nothing")
	to := fs.String("to", "", "apply the pending files up to and including this version only")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || (*status && *to != "") {
		return errors.New("usage: dealspot migrate [--status | --to VERSION]")
	}
	store, err := service.OpenStoreAsIs(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, store.Close()) }()
	if !*status {
		return service.MigrateStoreTo(ctx, store, *to, log)
	}
	st, err := store.Migrations().Status(ctx)
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	return writeStatus(out, st)
}

// dialectNames are the databases' names in the status.
var dialectNames = map[string]string{"postgres": "PostgreSQL", "sqlite3": "SQLite"}

// writeStatus prints one line per migration file, then where the database stands.
func writeStatus(out io.Writer, st entstore.MigrationStatus) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "VERSION\tNAME\tSTATE\n")
	for _, f := range st.Files {
		state := "pending"
		switch {
		case f.Changed:
			state = "applied " + f.Applied.UTC().Format(time.RFC3339) + ", but the file changed since"
		case f.Adopted:
			state = "adopted " + f.Applied.UTC().Format(time.RFC3339) + " (the schema was already there)"
		case !f.Applied.IsZero():
			state = "applied " + f.Applied.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Version, f.Description, state)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, v := range st.Unknown {
		fmt.Fprintf(out, "%s\t(applied by a newer build: this build lacks the file)\n", v)
	}
	pending, name := st.Pending(), dialectNames[st.Dialect]
	switch {
	case len(pending) == 0:
		fmt.Fprintf(out, "\n%s database is up to date at version %s.\n", name, st.Current())
	case st.Unversioned:
		fmt.Fprintf(out, "\n%s database was created before versioned migrations (no %s table); `dealspot migrate` adopts it and applies what it lacks.\n",
			name, entstore.RevisionsTable)
	default:
		cur := st.Current()
		if cur == "" {
			cur = "none (empty database)"
		}
		fmt.Fprintf(out, "\n%s database is at version %s; %d migration(s) pending: run `dealspot migrate`.\n", name, cur, len(pending))
	}
	return nil
}
