package queue

import (
	"fmt"
	"strconv"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"

	"github.com/dealspot/dealspot/adapters/claimwire"
	"github.com/dealspot/dealspot/internal/domain"
)

// Metadata keys carried by order messages.
const (
	MetadataOrderID   = "order_id"
	MetadataVoucherID = "voucher_id"
)

// Topic names before the namespace is prepended. The Redis backend's order streams are
// named by claimwire (one per shard), because the gate script writes to them.
const (
	ordersTopic      = "orders"
	deadLetterTopic  = "orders.dead"
	deadLetterStream = "orders:dead"
)

// newClaimMessage builds the Watermill message for c: its UUID is the decimal order id,
// its payload claimwire's encoding.
func newClaimMessage(c domain.Claim) *message.Message {
	id := strconv.FormatInt(c.OrderID, 10)
	msg := message.NewMessage(id, claimwire.EncodeClaim(c))
	msg.Metadata.Set(MetadataOrderID, id)
	msg.Metadata.Set(MetadataVoucherID, strconv.FormatInt(c.VoucherID, 10))
	middleware.SetCorrelationID(id, msg)
	return msg
}

func validClaim(c domain.Claim) error {
	if c.OrderID <= 0 || c.UserID <= 0 || c.VoucherID <= 0 {
		return fmt.Errorf("queue: claim needs positive order, user and voucher ids (got %d, %d, %d)",
			c.OrderID, c.UserID, c.VoucherID)
	}
	return nil
}
