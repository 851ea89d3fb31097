package service_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/seckill"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// drainIDs hands out order and user ids unique across the benchmark's runs.
var drainIDs atomic.Int64

// BenchmarkOrderDrain measures, batch size by batch size, each on a database of its own
// with the real schema, orders/s for:
//
//   - consumer: ProcessClaims, what the queue consumer runs (insert with ON CONFLICT,
//     stock guard, settling the reservations in Redis, status events);
//   - writer: the store's WriteClaims alone (the database part of consumer);
//   - copy: the same work with COPY into a temporary table, then INSERT … SELECT … ON
//     CONFLICT DO NOTHING RETURNING and the stock guard from there (PostgreSQL only);
//   - ceiling: PostgreSQL's multi-row insert ceiling — the same rows (all twelve columns
//     the writer writes, the same values) into the real voucher_orders table with all its
//     indexes and constraints, one INSERT … VALUES statement per batch with bind
//     parameters in its own transaction, nothing else: no ON CONFLICT, no RETURNING, no
//     stock, no Redis;
//   - bare: the six-column INSERT of the same ids the first version of this benchmark
//     compared against (kept to compare with older numbers).
func BenchmarkOrderDrain(b *testing.B) {
	pg := os.Getenv(testsupport.EnvPostgres) != "" && os.Getenv(testsupport.EnvRedis) != ""
	if !pg {
		b.Logf("TEST_DATABASE_URL / TEST_REDIS_URL unset: measuring the embedded SQLite store")
	}
	// start opens a service on a database of its own with one open flash sale.
	start := func(b *testing.B) (*service.Node, domain.Voucher, string) {
		env := map[string]string{"ORDER_CONSUMER": "false", "RECONCILE_INTERVAL": "0", "CLAIM_RATE_PER_USER": "off"}
		if pg {
			env["DATABASE_URL"] = testsupport.PostgresURL(b)
			env["REDIS_URL"] = testsupport.RedisURL(b)
		}
		_, svc := startService(b, env)
		v, err := svc.App.Commands.FlashSales.CreateFlashSale(context.Background(), domain.Operator, seckill.FlashSaleInput{
			VoucherInput: seckill.VoucherInput{ShopID: 1, Title: "drain", PayValue: 1, ActualValue: 2},
			Stock:        10_000_000, BeginTime: time.Now().Add(-time.Minute), EndTime: time.Now().Add(time.Hour),
		})
		if err != nil {
			b.Fatal(err)
		}
		return svc, v, env["DATABASE_URL"]
	}
	claims := func(v domain.Voucher, n int) []domain.Claim {
		cs := make([]domain.Claim, n)
		for i := range cs {
			id := drainIDs.Add(1)
			cs[i] = domain.Claim{OrderID: id, UserID: id, VoucherID: v.ID, ClaimedAt: time.Now()}
		}
		return cs
	}
	// measure runs write b.N times on batches of n claims and reports orders/s.
	measure := func(b *testing.B, v domain.Voucher, n int, write func([]domain.Claim) error) {
		b.ResetTimer()
		t0 := time.Now()
		for range b.N {
			if err := write(claims(v, n)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*n)/time.Since(t0).Seconds(), "orders/s")
	}
	for _, batch := range []int{64, 256, 1024} {
		b.Run(fmt.Sprintf("consumer/batch=%d", batch), func(b *testing.B) {
			svc, v, _ := start(b)
			measure(b, v, batch, func(cs []domain.Claim) error { return svc.Ops.OrderWriter.ProcessClaims(context.Background(), cs) })
		})
		b.Run(fmt.Sprintf("writer/batch=%d", batch), func(b *testing.B) {
			svc, v, _ := start(b)
			orders := svc.Store.Orders()
			measure(b, v, batch, func(cs []domain.Claim) error {
				res, err := orders.WriteClaims(context.Background(), cs, 15*time.Minute)
				if err == nil && len(res.Created) != len(cs) {
					err = fmt.Errorf("%d of %d created", len(res.Created), len(cs))
				}
				return err
			})
		})
		if pg {
			b.Run(fmt.Sprintf("copy/batch=%d", batch), func(b *testing.B) {
				_, v, url := start(b)
				w := newCopyWriter(b, url)
				measure(b, v, batch, func(cs []domain.Claim) error { return w.write(cs, 15*time.Minute) })
			})
		}
		b.Run(fmt.Sprintf("ceiling/batch=%d", batch), func(b *testing.B) {
			svc, v, _ := start(b)
			db := svc.Store.DB()
			const cols = 12
			q := insertValuesSQL(svc.Store.Dialect(), "voucher_orders (id, created_at, updated_at, user_id, voucher_id, status, shop_id, kind, amount, pay_deadline, pay_time, redemption_code)", cols, batch)
			measure(b, v, batch, func(cs []domain.Claim) error {
				now := time.Now().UTC()
				args := make([]any, 0, len(cs)*cols)
				for _, c := range cs {
					args = append(args, c.OrderID, c.ClaimedAt.UTC(), now, c.UserID, c.VoucherID, "CREATED",
						v.ShopID, "FLASH_SALE", v.PayValue, now.Add(15*time.Minute), nil, nil)
				}
				_, err := db.Exec(q, args...)
				return err
			})
		})
		b.Run(fmt.Sprintf("bare/batch=%d", batch), func(b *testing.B) {
			svc, v, _ := start(b)
			db := svc.Store.DB()
			q := insertValuesSQL(svc.Store.Dialect(), "voucher_orders (id, created_at, updated_at, user_id, voucher_id, status)", 6, batch)
			measure(b, v, batch, func(cs []domain.Claim) error {
				now := time.Now().UTC()
				args := make([]any, 0, len(cs)*6)
				for _, c := range cs {
					args = append(args, c.OrderID, now, now, c.UserID, int64(1), "CREATED")
				}
				_, err := db.Exec(q, args...)
				return err
			})
		})
	}
}

// insertValuesSQL is INSERT INTO target VALUES with rows of cols bind parameters.
func insertValuesSQL(dialect, target string, cols, rows int) string {
	var sb strings.Builder
	sb.WriteString("INSERT INTO " + target + " VALUES ")
	n := 0
	for i := range rows {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteByte('(')
		for k := range cols {
			if k > 0 {
				sb.WriteString(", ")
			}
			n++
			if dialect == "postgres" {
				fmt.Fprintf(&sb, "$%d", n)
			} else {
				sb.WriteByte('?')
			}
		}
		sb.WriteByte(')')
	}
	return sb.String()
}

// copyWriter writes claims the way WriteClaims does on PostgreSQL, but sends them with
// COPY into a temporary table (COPY itself cannot skip conflicting rows) and inserts
// from there. It is the COPY form the writer was measured against; one connection, so
// the temporary table is made once.
type copyWriter struct{ db *sql.DB }

func newCopyWriter(b *testing.B, url string) *copyWriter {
	db, err := sql.Open("postgres", url)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	if _, err := db.Exec(`CREATE TEMPORARY TABLE claim_stage (id bigint, user_id bigint, voucher_id bigint,
		created_at timestamptz, code text, n bigint) ON COMMIT DELETE ROWS`); err != nil {
		b.Fatal(err)
	}
	return &copyWriter{db: db}
}

// copyInsertSQL is the writer's statement with the claims read from claim_stage.
const copyInsertSQL = `WITH ins AS (
	INSERT INTO voucher_orders AS o (id, created_at, updated_at, user_id, voucher_id, status,
		shop_id, kind, amount, pay_deadline, pay_time, redemption_code)
	SELECT c.id, c.created_at, $1::timestamptz, c.user_id, c.voucher_id,
		CASE WHEN COALESCE(v.pay_value, 0) = 0 THEN 'PAID' ELSE 'CREATED' END,
		COALESCE(v.shop_id, 0), 'FLASH_SALE', COALESCE(v.pay_value, 0),
		CASE WHEN COALESCE(v.pay_value, 0) <> 0 THEN $2::timestamptz END,
		CASE WHEN COALESCE(v.pay_value, 0) = 0 THEN $1::timestamptz END,
		CASE WHEN COALESCE(v.pay_value, 0) = 0 THEN c.code END
	FROM claim_stage c LEFT JOIN vouchers v ON v.id = c.voucher_id
	ORDER BY c.n
	ON CONFLICT DO NOTHING
	RETURNING o.id, o.user_id, o.voucher_id, o.status
), took AS (
	UPDATE flash_sales f SET stock = f.stock - k.n, updated_at = $1::timestamptz
	FROM (SELECT voucher_id, count(*) AS n FROM ins GROUP BY voucher_id) k
	WHERE f.id = k.voucher_id AND f.stock >= k.n
	RETURNING f.id
)
SELECT ins.id, ins.user_id, ins.voucher_id, ins.status, took.id IS NOT NULL
FROM ins LEFT JOIN took ON took.id = ins.voucher_id`

func (w *copyWriter) write(cs []domain.Claim, payWithin time.Duration) error {
	tx, err := w.db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	st, err := tx.Prepare("COPY claim_stage (id, user_id, voucher_id, created_at, code, n) FROM STDIN")
	if err != nil {
		return err
	}
	for i, c := range cs {
		if _, err := st.Exec(c.OrderID, c.UserID, c.VoucherID, c.ClaimedAt.UTC(), domain.NewRedemptionCode(), int64(i)); err != nil {
			return err
		}
	}
	if _, err := st.Exec(); err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		return err
	}
	now := time.Now().UTC()
	rows, err := tx.Query(copyInsertSQL, now, now.Add(payWithin))
	if err != nil {
		return err
	}
	n := 0
	for rows.Next() {
		var (
			id, user, voucher int64
			status            string
			took              bool
		)
		if err := rows.Scan(&id, &user, &voucher, &status, &took); err != nil {
			return err
		}
		if !took {
			return fmt.Errorf("stock not taken for voucher %d", voucher)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n != len(cs) {
		return fmt.Errorf("%d of %d inserted", n, len(cs))
	}
	return tx.Commit()
}
