package service_test

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/entstore"
)

// The flood's shape; the defaults keep it short, docs/performance.md runs it as the
// security test did (-ws-flood-subscribes=5000 -ws-flood-recheck=15s -ws-flood-window=30s).
var (
	floodSubscribes = flag.Int("ws-flood-subscribes", 200, "subscribe messages the websocket flood sends on one socket")
	floodRecheck    = flag.Duration("ws-flood-recheck", 400*time.Millisecond, "ORDER_STATUS_RECHECK of the websocket flood")
	floodWindow     = flag.Duration("ws-flood-window", 4*time.Second, "how long the websocket flood's statements are counted")
)

// TestWebsocketSubscriptionFloodIsBounded: one socket sends many orderStatus subscribes
// of one PENDING order. Only WS_MAX_OPERATIONS_PER_SOCKET of them run, and those share
// one re-read of the order per ORDER_STATUS_RECHECK: the socket's database statements
// per period stay at about one, not one per subscription.
func TestWebsocketSubscriptionFloodIsBounded(t *testing.T) {
	t.Parallel()
	const adminPhone = "13300005550"
	_, svc := startService(t, map[string]string{"JWT_SECRET": testSecret, "ADMIN_PHONES": adminPhone,
		"ORDER_CONSUMER": "false", "ORDER_STATUS_RECHECK": floodRecheck.String()})
	// Every statement made for the socket (its operations and their shared watcher)
	// is counted into socketStatements.
	var socketStatements atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			r = r.WithContext(entstore.WithStatementCounter(r.Context(), &socketStatements))
		}
		svc.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	admin := client(srv)
	admin.Token = login(t, client(srv), adminPhone).AccessToken
	alice := login(t, client(srv), "13300005551")
	order := pendingOrder(t, srv, admin, alice.AccessToken)

	goroutinesBefore := runtime.NumGoroutine()
	ws := wsOpen(t, srv, alice.AccessToken)
	vars := map[string]any{"id": order}
	accepted, refused := 0, 0
	for i := range *floodSubscribes {
		codes, code := ws.subscribe(fmt.Sprintf("s%d", i), orderStatusSubscription, vars)
		switch {
		case code != -1:
			t.Fatalf("socket closed (%d) after %d subscribes", code, i)
		case len(codes) == 0:
			accepted++
		case len(codes) == 1 && codes[0] == "RATE_LIMITED":
			refused++
		default:
			t.Fatalf("subscribe %d: %v", i, codes)
		}
	}
	const perSocket = 50 // WS_MAX_OPERATIONS_PER_SOCKET's default
	if accepted != min(perSocket, *floodSubscribes) {
		t.Fatalf("%d of %d subscriptions accepted on one socket, want %d", accepted, *floodSubscribes, min(perSocket, *floodSubscribes))
	}
	goroutines := runtime.NumGoroutine() - goroutinesBefore

	start, startTotal := socketStatements.Load(), svc.Store.Statements()
	time.Sleep(*floodWindow)
	statements, total := socketStatements.Load()-start, svc.Store.Statements()-startTotal
	// One shared read per period (jittered down to 0.8 of it), with room to spare; one
	// read per subscription would be accepted times as many.
	periods := float64(*floodWindow) / float64(*floodRecheck)
	if bound := int64(periods/0.8) + 3; statements > bound {
		t.Errorf("%d subscriptions of one order made %d statements in %v (recheck %v), want at most %d",
			accepted, statements, *floodWindow, *floodRecheck, bound)
	}
	t.Logf("subscribes %d: accepted %d, refused %d (RATE_LIMITED); goroutines +%d; statements in %v with recheck %v: socket %d, node %d",
		*floodSubscribes, accepted, refused, goroutines, *floodWindow, *floodRecheck, statements, total)
}
