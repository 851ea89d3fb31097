package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	goredis "github.com/redis/go-redis/v9"
)

// TestPrepareOnlyHandsTheSaleToAnotherLoadGenerator: against a running server,
// --prepare-only creates the sale, writes one token per user and the sale next to them,
// and claims nothing; every token then claims the sale as a flood's would. Minted tokens
// (whose users have no row in the database) are honoured like logged-in ones.
func TestPrepareOnlyHandsTheSaleToAnotherLoadGenerator(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	ctx := context.Background()
	// One admin per run: a phone is sent one login code a minute.
	admins := []string{"13800000098", "13800000099"}
	env := func(k string) string {
		if k == "ADMIN_PHONES" {
			return strings.Join(admins, ",")
		}
		return ""
	}
	srv, err := startInProcess(ctx, scenario{ServerLog: "error"}, env, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.close() })
	client, ok := srv.svc.Redis.Client.(*goredis.Client)
	if !ok {
		t.Fatalf("the in-process server's Redis is a %T, want a single server", srv.svc.Redis.Client)
	}
	opts := client.Options()
	redisURL := fmt.Sprintf("redis://:%s@%s/%d", opts.Password, srv.svc.Redis.Addr, opts.DB)

	for i, tc := range []struct {
		name              string
		args              []string
		users             int
		stock             int64
		accepted, soldOut int
	}{
		{"accept path, minted", []string{"--users", "30", "--jwt-secret", srv.jwtSecret, "--redis-url", redisURL}, 30, 30, 30, 0},
		{"sold-out path, logged in", []string{"--path", "sold-out", "--users", "8", "--stock", "5"}, 8, 5, 5, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "out", "tokens.txt")
			var stdout, stderr bytes.Buffer
			args := append([]string{"--url", srv.baseURL, "--admin-phone", admins[i], "--prepare-only", file}, tc.args...)
			if code := run(args, env, &stdout, &stderr); code != 0 {
				t.Fatalf("exit status %d\nstderr:\n%s", code, stderr.String())
			}
			voucherID, err := strconv.ParseInt(strings.TrimSpace(stdout.String()), 10, 64)
			if err != nil {
				t.Fatalf("stdout is not the voucher id: %q", stdout.String())
			}
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			tokens := strings.Fields(string(raw))
			if len(tokens) != tc.users || !strings.HasSuffix(string(raw), "\n") {
				t.Fatalf("want %d tokens one per line, got %d", tc.users, len(tokens))
			}
			seen := map[string]bool{}
			for _, tok := range tokens {
				if seen[tok] {
					t.Fatalf("token %s written twice", tok)
				}
				seen[tok] = true
			}
			var meta preparedJSON
			if raw, err = os.ReadFile(file + ".json"); err == nil {
				err = json.Unmarshal(raw, &meta)
			}
			if err != nil {
				t.Fatal(err)
			}
			want, _ := claimBody(voucherID)
			if meta.VoucherID != strconv.FormatInt(voucherID, 10) || !meta.CreatedSale || meta.Stock != tc.stock ||
				meta.Users != tc.users || meta.ClaimBody != string(want) || !filepath.IsAbs(meta.TokensFile) {
				t.Errorf("sale description: %+v", meta)
			}
			// Nothing was claimed.
			if a, err := srv.audit(ctx, voucherID); err != nil || a.DBStock != tc.stock || a.RedisStock != tc.stock || a.Pending != 0 {
				t.Fatalf("before any claim the sale reads %+v (%v)", a, err)
			}

			// Each token claims once, as an external generator would.
			c := newClient(srv.baseURL, 4)
			defer c.close()
			answers := map[string]int{}
			var buf bytes.Buffer
			for _, tok := range tokens {
				status, body, err := c.post(ctx, "Bearer "+tok, want, &buf)
				answers[classifyClaim(status, body, err)]++
			}
			if answers[answerAccepted] != tc.accepted || answers["SOLD_OUT"] != tc.soldOut || len(answers) > 2 {
				t.Errorf("claims answered %v, want %d accepted and %d sold out", answers, tc.accepted, tc.soldOut)
			}
		})
	}
}
