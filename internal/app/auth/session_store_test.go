package auth_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// wipe drops everything the cache holds of userID's sessions and account, as a cache
// server that restarted empty would.
func (e *env) wipe(userID int64) { e.cache.Forget(userID) }

// The database holds the sessions; losing the cache changes no answer.
func TestSessionsOutliveTheCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("a live session keeps authenticating and rotating", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, "13800000001")
		e.wipe(s.User.ID)
		principalOf(t, e, s)
		next, err := e.svc.Refresh.Handle(ctx, s.RefreshToken)
		if err != nil {
			t.Fatalf("refresh after the wipe: %v", err)
		}
		e.wipe(s.User.ID)
		principalOf(t, e, next)
	})

	t.Run("a reused token ends the session after the wipe", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, "13800000002")
		next, err := e.svc.Refresh.Handle(ctx, s.RefreshToken)
		if err != nil {
			t.Fatal(err)
		}
		principalOf(t, e, next) // cached live
		e.wipe(s.User.ID)
		_, err = e.svc.Refresh.Handle(ctx, s.RefreshToken)
		wantCode(t, err, domain.CodeUnauthenticated)
		_, err = e.svc.Authenticate.Handle(ctx, next.AccessToken)
		wantCode(t, err, domain.CodeUnauthenticated)
		_, err = e.svc.Refresh.Handle(ctx, next.RefreshToken)
		wantCode(t, err, domain.CodeUnauthenticated)
	})

	t.Run("a blocked user is told so after the wipe", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, "13800000003")
		if _, err := e.svc.BlockUser.Handle(ctx, "13800000003", true); err != nil {
			t.Fatal(err)
		}
		e.wipe(s.User.ID)
		_, err := e.svc.Authenticate.Handle(ctx, s.AccessToken)
		wantCode(t, err, domain.CodeUnauthenticated)
		if !errors.Is(err, auth.ErrBlocked) {
			t.Fatalf("blocked user's token after the wipe: %v; want ErrBlocked", err)
		}
	})

	t.Run("an admin stays admin after the wipe", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, nil)
		s := e.login(t, "13800000004")
		if _, err := e.svc.GrantAdmin.Handle(ctx, "13800000004"); err != nil {
			t.Fatal(err)
		}
		e.wipe(s.User.ID)
		if p := principalOf(t, e, s); p.Role != domain.RoleAdmin {
			t.Fatalf("role after the wipe: %s", p.Role)
		}
	})
}

// Misses of one family read the database once, however many arrive at once; an ended
// family is cached as ended, so its tokens presented again do not read it again.
func TestSessionCacheMissesReadTheDatabaseOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, nil)
	live := e.login(t, "13800000011")
	ended := e.login(t, "13800000012")
	if err := e.svc.Logout.Handle(ctx, principalOf(t, e, ended)); err != nil {
		t.Fatal(err)
	}
	e.wipe(live.User.ID)
	e.wipe(ended.User.ID)
	principalOf(t, e, live) // the account states are cached again
	_, _ = e.svc.Authenticate.Handle(ctx, ended.AccessToken)
	e.wipe(live.User.ID)
	e.wipe(ended.User.ID)

	gate := make(chan struct{})
	e.records.HoldReadsAndRecount(gate)
	const callers = 50
	var wg sync.WaitGroup
	errs := make(chan error, 2*callers)
	for range callers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := e.svc.Authenticate.Handle(ctx, live.AccessToken); err != nil {
				errs <- fmt.Errorf("live session: %w", err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := e.svc.Authenticate.Handle(ctx, ended.AccessToken); domain.ErrorCode(err) != domain.CodeUnauthenticated {
				errs <- fmt.Errorf("ended session: %v", err)
			}
		}()
	}
	waitFor(t, func() bool { return e.records.ReadCount() >= 2 })
	close(gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Late callers may have missed the one read in flight and read again; what
	// matters is that the cache answers once filled.
	first := e.records.ReadCount()
	if first > callers/5 {
		t.Errorf("%d database reads for 2 families × %d concurrent misses", first, callers)
	}
	for range callers {
		principalOf(t, e, live)
		_, _ = e.svc.Authenticate.Handle(ctx, ended.AccessToken)
	}
	if got := e.records.ReadCount(); got != first {
		t.Errorf("cached answers read the database %d more times", got-first)
	}
}

// A database read that answered "live" before a logout cannot cache the session as live
// after it.
func TestSessionRebuildLosesToALogout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, nil)
	s := e.login(t, "13800000021")
	p := principalOf(t, e, s)
	e.wipe(s.User.ID)
	gate := make(chan struct{})
	e.records.HoldReads(gate)
	done := make(chan error, 1)
	go func() {
		_, err := e.svc.Authenticate.Handle(ctx, s.AccessToken)
		done <- err
	}()
	waitFor(t, func() bool { return e.records.ReadCount() >= 1 })
	if err := e.svc.Logout.Handle(ctx, p); err != nil {
		t.Fatal(err)
	}
	close(gate)
	<-done // in flight before the logout: either answer is right
	_, err := e.svc.Authenticate.Handle(ctx, s.AccessToken)
	wantCode(t, err, domain.CodeUnauthenticated)
}

// With the database out of reach, sessions the cache knows keep working; logins,
// refreshes and checks the cache cannot answer fail with a coded error.
func TestSessionsWithTheDatabaseDown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, nil)
	cached := e.login(t, "13800000031")
	principalOf(t, e, cached)
	lost := e.login(t, "13800000032")
	principalOf(t, e, lost)
	code := e.code(t, "13800000033")
	e.records.SetDown(true)

	for range 3 {
		principalOf(t, e, cached)
	}
	_, err := e.svc.Refresh.Handle(ctx, cached.RefreshToken)
	wantCode(t, err, domain.CodeInternal)
	_, err = e.svc.Login.Handle(ctx, "13800000033", code, "")
	wantCode(t, err, domain.CodeInternal)
	e.wipe(lost.User.ID)
	_, err = e.svc.Authenticate.Handle(ctx, lost.AccessToken)
	wantCode(t, err, domain.CodeInternal)

	e.records.SetDown(false)
	principalOf(t, e, lost)
	if _, err := e.svc.Refresh.Handle(ctx, cached.RefreshToken); err != nil {
		t.Fatalf("refresh once the database is back: %v", err)
	}
}

// waitFor polls cond until it holds; the deadline only catches a hang.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within a minute")
		}
		time.Sleep(time.Millisecond)
	}
}

// Logins delete expired sessions, at most once a minute.
func TestLoginsSweepExpiredSessions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	count := e.records.Len
	e.login(t, "13800000041")
	e.login(t, "13800000042")
	e.clock.Advance(e.cfg.RefreshTTL + time.Second)
	e.login(t, "13800000043") // the first login swept nothing; a minute has passed since
	if got := count(); got != 1 {
		t.Fatalf("%d sessions stored after the sweep, want the new one only", got)
	}
	e.clock.Advance(e.cfg.RefreshTTL + time.Second)
	e.login(t, "13800000044")
	e.clock.Advance(time.Second)
	e.login(t, "13800000045") // within the minute: no sweep
	if got := count(); got != 2 {
		t.Fatalf("%d sessions stored, want the two last", got)
	}
}
