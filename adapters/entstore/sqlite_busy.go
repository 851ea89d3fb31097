package entstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// sqliteBusy is SQLite's primary result code for a database another connection holds.
const sqliteBusy = 5

// isBusy reports whether err is SQLITE_BUSY (any extended form).
func isBusy(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == sqliteBusy
}

// retryBusy runs fn again while SQLite answers busy — after its own busy timeout, when a
// writer (another process, a long migration) holds the database longer — until ctx ends.
// Only steps that did nothing when they failed busy go through it: a statement outside a
// transaction, or BEGIN IMMEDIATE.
func retryBusy(ctx context.Context, fn func() error) error {
	wait := 10 * time.Millisecond
	for {
		err := fn()
		if err == nil || !isBusy(err) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, 250*time.Millisecond)
	}
}

// busyRetryDriver is ent's SQLite driver with statements outside transactions, and the
// start of transactions, retried while the database is busy. Inside a transaction
// (BEGIN IMMEDIATE) the write lock is already held, so statements there are never busy.
type busyRetryDriver struct{ *entsql.Driver }

func (d busyRetryDriver) Exec(ctx context.Context, query string, args, v any) error {
	return retryBusy(ctx, func() error { return d.Driver.Exec(ctx, query, args, v) })
}

func (d busyRetryDriver) Query(ctx context.Context, query string, args, v any) error {
	return retryBusy(ctx, func() error { return d.Driver.Query(ctx, query, args, v) })
}

func (d busyRetryDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	return d.BeginTx(ctx, nil)
}

func (d busyRetryDriver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	var tx dialect.Tx
	err := retryBusy(ctx, func() (err error) {
		tx, err = d.Driver.BeginTx(ctx, opts)
		return err
	})
	return tx, err
}
