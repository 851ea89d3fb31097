package entstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"entgo.io/ent/dialect"

	"github.com/dealspot/dealspot/internal/domain"
)

// rawSQL runs hand-written statements on the store's database, in its dialect, where
// one statement does what ent would need several for (a conditional move, a batch).
type rawSQL struct {
	db      *sql.DB
	dialect string
}

// raw returns the store's hand-written statement runner.
func (s *Store) raw() *rawSQL { return &rawSQL{db: s.db, dialect: s.dialect} }

// param is the i-th (1-based) bind parameter in the dialect's syntax.
func (r *rawSQL) param(i int) string {
	if r.dialect == dialect.Postgres {
		return "$" + strconv.Itoa(i)
	}
	return "?"
}

// forUpdate locks the rows a statement reads, where the database can (SQLite's
// transactions already hold the whole database).
func (r *rawSQL) forUpdate() string {
	if r.dialect == dialect.Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// inTx runs fn in one transaction, committed when fn returns nil.
func (r *rawSQL) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	var tx *sql.Tx
	err := retryBusy(ctx, func() (err error) {
		tx, err = r.db.BeginTx(ctx, nil)
		return err
	})
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

type rowScanner interface{ Scan(dest ...any) error }

// args builds a statement's bind parameters in the dialect's syntax.
type args struct {
	o    *rawSQL
	vals []any
}

// p adds v and returns its placeholder.
func (a *args) p(v any) string {
	a.vals = append(a.vals, v)
	return a.o.param(len(a.vals))
}

// in adds the statuses and returns "(…)" of their placeholders.
func (a *args) in(statuses []domain.OrderStatus) string {
	ph := make([]string, len(statuses))
	for i, s := range statuses {
		ph[i] = a.p(string(s))
	}
	return "(" + strings.Join(ph, ", ") + ")"
}

// statusList is "('A', 'B')" of statuses taken from the domain (never from input), for
// statements whose plan must see them, as a partial index's condition does.
func statusList(statuses []domain.OrderStatus) string {
	q := make([]string, len(statuses))
	for i, s := range statuses {
		if !s.Valid() {
			panic("entstore: not an order status: " + string(s))
		}
		q[i] = "'" + string(s) + "'"
	}
	return "(" + strings.Join(q, ", ") + ")"
}
