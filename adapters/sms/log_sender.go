// Package sms delivers login codes to phones: through an SMS gateway's webhook, or, in
// dev mode, to the log.
package sms

import (
	"context"
	"errors"
	"log/slog"

	"github.com/dealspot/dealspot/internal/app/auth"
)

// LogSender "delivers" login codes by writing them to the log. It is the delivery
// channel of dev mode (which returns the code in the API anyway), so, unlike everything
// else, it logs the code on purpose. The composition root uses it in dev mode only;
// everywhere else codes go to a WebhookSender.
type LogSender struct {
	log *slog.Logger
}

var _ auth.CodeSender = (*LogSender)(nil)

// NewLogSender returns a LogSender writing to log.
func NewLogSender(log *slog.Logger) (*LogSender, error) {
	if log == nil {
		return nil, errors.New("sms: nil logger")
	}
	return &LogSender{log: log}, nil
}

// Send implements auth.CodeSender.
func (s *LogSender) Send(ctx context.Context, phone, code string) error {
	s.log.InfoContext(ctx, "login code", slog.String("phone", phone), slog.String("code", code))
	return nil
}
