package entstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"sync/atomic"
)

// Every statement the store sends goes through countingConn, which counts it on the
// store (Store.Statements) and on the counter a context carries (WithStatementCounter):
// how many statements one request costs can then be measured from outside, whatever
// runs beside it. Within a recorded trace it also gives each statement a span (see
// statementSpan).

type statementCounterKey struct{}

// errNoContext: both drivers the store uses (lib/pq, modernc SQLite) take contexts.
var errNoContext = errors.New("entstore: the database driver does not take contexts")

// WithStatementCounter returns a context whose database statements are counted into n,
// however deep the calls that carry it (dataloaders and caches keep the context's values).
func WithStatementCounter(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, statementCounterKey{}, n)
}

// Statements counts the statements sent since the store opened.
func (s *Store) Statements() int64 { return s.statements.Load() }

// countedDB opens dsn with the driver registered under name, counting statements into
// total and into the counters contexts carry.
func countedDB(name, dsn string, total *atomic.Int64) (*sql.DB, error) {
	probe, err := sql.Open(name, dsn)
	if err != nil {
		return nil, err
	}
	drv := probe.Driver()
	if err := probe.Close(); err != nil {
		return nil, err
	}
	var conn driver.Connector = dsnConnector{dsn: dsn, drv: drv}
	if dc, ok := drv.(driver.DriverContext); ok {
		if conn, err = dc.OpenConnector(dsn); err != nil {
			return nil, err
		}
	}
	return sql.OpenDB(countingConnector{Connector: conn, total: total, system: dbSystem(name)}), nil
}

type dsnConnector struct {
	dsn string
	drv driver.Driver
}

func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c dsnConnector) Driver() driver.Driver                        { return c.drv }

type countingConnector struct {
	driver.Connector
	total  *atomic.Int64
	system string // db.system.name of the spans
}

func (c countingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: conn, total: c.total, system: c.system}, nil
}

// countingConn passes everything to the driver's connection and counts the statements.
type countingConn struct {
	driver.Conn
	total  *atomic.Int64
	system string
}

func (c *countingConn) count(ctx context.Context) {
	c.total.Add(1)
	if n, ok := ctx.Value(statementCounterKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
}

func (c *countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.Conn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	ctx, span := c.statementSpan(ctx, query)
	rows, err := q.QueryContext(ctx, query, args)
	if !errors.Is(err, driver.ErrSkip) {
		c.count(ctx)
	}
	endStatementSpan(span, err)
	return rows, err
}

func (c *countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.Conn.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	ctx, span := c.statementSpan(ctx, query)
	res, err := e.ExecContext(ctx, query, args)
	if !errors.Is(err, driver.ErrSkip) {
		c.count(ctx)
	}
	endStatementSpan(span, err)
	return res, err
}

func (c *countingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	var (
		st  driver.Stmt
		err error
	)
	if p, ok := c.Conn.(driver.ConnPrepareContext); ok {
		st, err = p.PrepareContext(ctx, query)
	} else {
		st, err = c.Conn.Prepare(query)
	}
	if err != nil {
		return nil, err
	}
	return &countingStmt{Stmt: st, conn: c, query: query}, nil
}

func (c *countingConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *countingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if b, ok := c.Conn.(driver.ConnBeginTx); ok {
		return b.BeginTx(ctx, opts)
	}
	return nil, errNoContext
}

func (c *countingConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *countingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *countingConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *countingConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := c.Conn.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

// countingStmt counts each run of a prepared statement.
type countingStmt struct {
	driver.Stmt
	conn  *countingConn
	query string
}

func (s *countingStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	s.conn.count(ctx)
	e, ok := s.Stmt.(driver.StmtExecContext)
	if !ok {
		return nil, errNoContext
	}
	ctx, span := s.conn.statementSpan(ctx, s.query)
	res, err := e.ExecContext(ctx, args)
	endStatementSpan(span, err)
	return res, err
}

func (s *countingStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	s.conn.count(ctx)
	q, ok := s.Stmt.(driver.StmtQueryContext)
	if !ok {
		return nil, errNoContext
	}
	ctx, span := s.conn.statementSpan(ctx, s.query)
	rows, err := q.QueryContext(ctx, args)
	endStatementSpan(span, err)
	return rows, err
}

func (s *countingStmt) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := s.Stmt.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return s.conn.CheckNamedValue(nv)
}
