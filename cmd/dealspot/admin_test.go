package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/config"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/service"
)

// `dealspot admin grant` and `block`, run beside a server on the embedded defaults,
// act on that server at once: the grant reaches the user's token, the block ends it.
func TestAdminCommandReachesARunningEmbeddedServer(t *testing.T) {
	env := map[string]string{"DEALSPOT_DATA_DIR": t.TempDir(), "JWT_SECRET": "admin-command-test-secret-0123456789abcdef"}
	getenv := func(k string) string { return env[k] }
	cfg, err := config.Load(getenv)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc, err := service.New(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()

	const phone = "13300001234"
	sent, err := svc.App.Commands.SendLoginCode.Handle(ctx, phone, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := svc.App.Commands.Login.Handle(ctx, phone, sent.DevCode, "")
	if err != nil {
		t.Fatal(err)
	}
	admin := func(args ...string) {
		t.Helper()
		var out bytes.Buffer
		if err := run(append([]string{"admin"}, args...), getenv, io.MultiWriter(&out)); err != nil {
			t.Fatalf("dealspot admin %v: %v\n%s", args, err, out.String())
		}
	}

	admin("grant", phone)
	p, err := svc.App.Queries.Authenticate.Handle(ctx, s.AccessToken)
	if err != nil || p.Role != domain.RoleAdmin {
		t.Fatalf("after `admin grant` the server sees role %s (%v), want ADMIN", p.Role, err)
	}
	admin("block", phone)
	if _, err := svc.App.Queries.Authenticate.Handle(ctx, s.AccessToken); domain.ErrorCode(err) != domain.CodeUnauthenticated || !errors.Is(err, auth.ErrBlocked) {
		t.Fatalf("after `admin block` the server still accepts the token: %v", err)
	}
}
