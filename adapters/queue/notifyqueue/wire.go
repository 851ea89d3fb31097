package notifyqueue

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dealspot/dealspot/internal/domain"
)

// wireEvent is a domain.NotificationEvent as a message carries it.
type wireEvent struct {
	Kind          string    `json:"k"`
	ActorID       int64     `json:"a,omitempty"`
	RecipientID   int64     `json:"r,omitempty"`
	BlogID        int64     `json:"b,omitempty"`
	CommentID     int64     `json:"c,omitempty"`
	OrderID       int64     `json:"o,omitempty"`
	ShopID        int64     `json:"s,omitempty"`
	VoucherID     int64     `json:"v,omitempty"`
	ReplyToID     int64     `json:"rt,omitempty"`
	ReplyToUserID int64     `json:"ru,omitempty"`
	At            time.Time `json:"t"`
}

// wireBatch is the body of one message: the events one flush of the publish buffer
// gathered, in the order they were reported.
type wireBatch struct {
	Events []wireEvent `json:"e"`
}

func encodeBatch(events []domain.NotificationEvent) ([]byte, error) {
	b := wireBatch{Events: make([]wireEvent, len(events))}
	for i, e := range events {
		b.Events[i] = wireEvent{
			Kind: string(e.Kind), ActorID: e.ActorID, RecipientID: e.RecipientID, BlogID: e.BlogID, CommentID: e.CommentID,
			OrderID: e.OrderID, ShopID: e.ShopID, VoucherID: e.VoucherID, ReplyToID: e.ReplyToID, ReplyToUserID: e.ReplyToUserID,
			At: e.At,
		}
	}
	return json.Marshal(b)
}

func decodeBatch(payload []byte) ([]domain.NotificationEvent, error) {
	var b wireBatch
	if err := json.Unmarshal(payload, &b); err != nil {
		return nil, fmt.Errorf("decode notification events: %w", err)
	}
	out := make([]domain.NotificationEvent, len(b.Events))
	for i, e := range b.Events {
		out[i] = domain.NotificationEvent{
			Kind: domain.NotificationKind(e.Kind), ActorID: e.ActorID, RecipientID: e.RecipientID, BlogID: e.BlogID,
			CommentID: e.CommentID, OrderID: e.OrderID, ShopID: e.ShopID, VoucherID: e.VoucherID, ReplyToID: e.ReplyToID,
			ReplyToUserID: e.ReplyToUserID, At: e.At,
		}
	}
	return out, nil
}
