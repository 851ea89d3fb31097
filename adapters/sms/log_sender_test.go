package sms_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/adapters/sms"
)

func TestLogSenderLogsTheCode(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	s, err := sms.NewLogSender(slog.New(slog.NewTextHandler(&buf, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), "13800000000", "123456"); err != nil {
		t.Fatalf("Send: %v", err)
	}
	out := buf.String()
	for _, want := range []string{"phone=13800000000", "code=123456"} {
		if !strings.Contains(out, want) {
			t.Errorf("log %q lacks %q", out, want)
		}
	}
}

func TestNewLogSenderRefusesNilLogger(t *testing.T) {
	t.Parallel()
	if _, err := sms.NewLogSender(nil); err == nil {
		t.Fatal("NewLogSender(nil) succeeded")
	}
}
