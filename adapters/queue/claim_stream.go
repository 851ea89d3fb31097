package queue

// ClaimStream names the topic (on the Redis backend: the shard stream orders:{s<k>},
// with the namespace) that the voucher's claims are published to. The Redis gate script
// XADDs to it, so a claim and its message are one atomic step.
func (q *Queue) ClaimStream(voucherID int64) string {
	return q.backend.ordersTopic(voucherID)
}
