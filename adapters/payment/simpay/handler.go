package simpay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/dealspot/dealspot/internal/app/orders"
	"github.com/dealspot/dealspot/internal/domain"
)

// notification is the JSON body of a notification.
type notification struct {
	PaymentID   string `json:"paymentId"`
	ProviderRef string `json:"providerRef"`
	Status      string `json:"status"` // SUCCEEDED or FAILED
	Amount      int64  `json:"amount"` // cents
	// Reason says why a FAILED payment was declined.
	Reason string    `json:"reason,omitempty"`
	At     time.Time `json:"at"`
}

// maxNotificationBytes bounds a notification's body.
const maxNotificationBytes = 64 << 10

// Handler serves POST /payments/notify: it verifies the signature, decodes the body and
// hands it to notify. It answers 204 when the notification was applied (also when it had
// been before), 401 for a bad signature, 400 for a bad body or amount, 404 for an unknown
// payment, and 500 when notify fails otherwise (the provider sends it again).
func Handler(v Verifier, notify func(context.Context, orders.Notification) error, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxNotificationBytes))
		if err != nil {
			http.Error(w, "body too large or unreadable", http.StatusBadRequest)
			return
		}
		if err := v.Verify(r.Header.Get(SignatureHeader), body); err != nil {
			log.Warn("payment notification refused", slog.String("reason", err.Error()), slog.String("remote", r.RemoteAddr))
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var n notification
		if err := json.Unmarshal(body, &n); err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		id, err := strconv.ParseInt(n.PaymentID, 10, 64)
		if err != nil || (n.Status != statusSucceeded && n.Status != statusFailed) {
			http.Error(w, "bad paymentId or status", http.StatusBadRequest)
			return
		}
		err = notify(r.Context(), orders.Notification{PaymentID: id, ProviderRef: n.ProviderRef, Succeeded: n.Status == statusSucceeded,
			Amount: n.Amount, Reason: n.Reason, At: n.At})
		switch {
		case err == nil:
			w.WriteHeader(http.StatusNoContent)
		case errors.Is(err, domain.ErrNotFound):
			http.Error(w, "unknown payment", http.StatusNotFound)
		case errors.Is(err, domain.ErrBadInput):
			http.Error(w, "notification refused", http.StatusBadRequest)
		default:
			log.Error("cannot apply a payment notification; the provider will send it again", slog.Int64("payment_id", id), slog.Any("error", err))
			http.Error(w, "try again", http.StatusInternalServerError)
		}
	})
}
