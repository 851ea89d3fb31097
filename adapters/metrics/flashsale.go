package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealspot/dealspot/internal/app/seckill"
)

// FlashSaleMetrics counts the flash sale's claims by outcome, the orders the order writer
// wrote and failed, and the reconciler's repairs. Every series is resolved once here, so
// counting a claim is one atomic add: no label look-up, no allocation, no lock.
type FlashSaleMetrics struct {
	claims        []prometheus.Counter // by seckill.ClaimOutcome
	written       prometheus.Counter
	writeErrors   prometheus.Counter
	failed        []prometheus.Counter // by seckill.FailReason
	repairs       map[string]prometheus.Counter
	reconcilePass prometheus.Counter
}

var _ seckill.Observer = (*FlashSaleMetrics)(nil)

// Repair kinds, the labels of dealspot_reconciler_repairs_total.
var repairKinds = []string{"sale_loaded", "settled", "republished", "failed", "released", "stock", "holders", "busy", "transfers"}

// NewFlashSaleMetrics registers the flash sale's counters with reg (reusing those already
// there).
func NewFlashSaleMetrics(reg prometheus.Registerer) (*FlashSaleMetrics, error) {
	claims, err := register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "dealspot_claims_total",
		Help: "Flash-sale claims answered, by outcome: accepted, sold_out, already_claimed, not_started, ended, rate_limited, refused (no user, unknown voucher, not a flash sale), error (INTERNAL).",
	}, []string{"outcome"}))
	if err != nil {
		return nil, err
	}
	written, err := register(reg, prometheus.NewCounter(prometheus.CounterOpts{
		Name: "dealspot_orders_written_total",
		Help: "Claims whose orders the order writer wrote (a claim delivered again counts again).",
	}))
	if err != nil {
		return nil, err
	}
	writeErrors, err := register(reg, prometheus.NewCounter(prometheus.CounterOpts{
		Name: "dealspot_order_write_errors_total",
		Help: "Order batches whose write failed (nothing written; the batch is retried).",
	}))
	if err != nil {
		return nil, err
	}
	failed, err := register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "dealspot_orders_failed_total",
		Help: "Orders recorded FAILED, by reason: duplicate, no_stock, poison (dead-lettered), expired (given up by the reconciler), id_taken, lost (lost with Redis before it was written).",
	}, []string{"reason"}))
	if err != nil {
		return nil, err
	}
	repairs, err := register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "dealspot_reconciler_repairs_total",
		Help: "What the reconciler repaired, by kind: sale_loaded (a sale Redis lacked), settled, republished, failed, released (reservations), stock (sales whose Redis stock drifted), holders (users added to or removed from holder sets), busy (sales left for the next pass).",
	}, []string{"kind"}))
	if err != nil {
		return nil, err
	}
	passes, err := register(reg, prometheus.NewCounter(prometheus.CounterOpts{
		Name: "dealspot_reconciler_passes_total",
		Help: "Reconcile passes run by this node.",
	}))
	if err != nil {
		return nil, err
	}
	m := &FlashSaleMetrics{written: written, writeErrors: writeErrors,
		repairs: make(map[string]prometheus.Counter, len(repairKinds)), reconcilePass: passes}
	for _, o := range seckill.ClaimOutcomes() {
		m.claims = append(m.claims, claims.WithLabelValues(o.String()))
	}
	for _, r := range seckill.FailReasons() {
		m.failed = append(m.failed, failed.WithLabelValues(r.String()))
	}
	for _, k := range repairKinds {
		m.repairs[k] = repairs.WithLabelValues(k)
	}
	return m, nil
}

// Claimed implements seckill.Observer.
func (m *FlashSaleMetrics) Claimed(o seckill.ClaimOutcome) {
	if int(o) < len(m.claims) {
		m.claims[o].Inc()
	}
}

// OrdersWritten implements seckill.Observer.
func (m *FlashSaleMetrics) OrdersWritten(n int) { m.written.Add(float64(n)) }

// WriteFailed implements seckill.Observer.
func (m *FlashSaleMetrics) WriteFailed(int) { m.writeErrors.Inc() }

// OrderFailed implements seckill.Observer.
func (m *FlashSaleMetrics) OrderFailed(r seckill.FailReason) {
	if int(r) < len(m.failed) {
		m.failed[r].Inc()
	}
}

// Reconciled implements seckill.Observer.
func (m *FlashSaleMetrics) Reconciled(rep seckill.ReconcileReport) {
	m.reconcilePass.Inc()
	for k, n := range map[string]int{
		"sale_loaded": rep.SalesLoaded, "settled": rep.Settled, "republished": rep.Republished,
		"failed": rep.Failed, "released": rep.Released, "stock": rep.StockRepaired,
		"holders": rep.HoldersRepaired, "busy": rep.Busy, "transfers": rep.TransfersCompleted,
	} {
		if n > 0 {
			m.repairs[k].Add(float64(n))
		}
	}
}
