package service_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
	"github.com/dealspot/dealspot/internal/testsupport"
)

// TestFirstRequestAfterLoginReadsNoUser: logging in caches the account's state next to
// its session, so the session's first authenticated request (a claim, in a flash sale
// where every claimer has just logged in) costs no database statement.
func TestFirstRequestAfterLoginReadsNoUser(t *testing.T) {
	t.Parallel()
	srv, svc := startService(t, map[string]string{"JWT_SECRET": testSecret,
		"DATABASE_URL": testsupport.PostgresURL(t), "REDIS_URL": testsupport.RedisURL(t)})
	token := login(t, client(srv), "13900000991").AccessToken
	var n atomic.Int64
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader([]byte(`{"query":"mutation Baseline { __typename }"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req = req.WithContext(entstore.WithStatementCounter(req.Context(), &n))
	rec := httptest.NewRecorder()
	svc.Handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"errors"`)) {
		t.Fatalf("authenticated request: %d %s", rec.Code, rec.Body.String())
	}
	if got := n.Load(); got != 0 {
		t.Errorf("the first request after login cost %d database statements, want 0", got)
	}
}
