package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	redisadapter "github.com/dealspot/dealspot/adapters/redis"
	"github.com/dealspot/dealspot/internal/app"
	"github.com/dealspot/dealspot/internal/config"
)

// Admin is what `dealspot admin` needs: the account use cases on the deployment's
// database and Redis, without serving anything.
type Admin struct {
	// Ops are the operator's account actions.
	Ops app.AccountOperations
	// Attached reports whether Redis is a running deployment's (a real server, or the
	// embedded server a running process published); when false, the change is made in
	// the database only, which is all a stopped deployment needs.
	Attached bool
	closers  []func() error
}

// OpenAdmin opens the database and the deployment's Redis. With the embedded Redis it
// attaches to the server a running process published under the data directory; with no
// process running it uses a private in-process server (sessions of a stopped embedded
// deployment are gone anyway).
func OpenAdmin(ctx context.Context, cfg config.Config, log *slog.Logger) (_ *Admin, err error) {
	a := &Admin{}
	defer func() {
		if err != nil {
			_ = a.Close()
		}
	}()
	store, err := OpenStore(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, store.Close)
	rc, attached, err := openAdminRedis(ctx, cfg)
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, rc.Close)
	a.Attached = attached
	authSvc, err := newAuth(cfg, store, rc, nil, redisadapter.Coalescing{}, log)
	if err != nil {
		return nil, err
	}
	_, _, a.Ops = app.Account(authSvc)
	return a, nil
}

func openAdminRedis(ctx context.Context, cfg config.Config) (*redisadapter.Conn, bool, error) {
	if cfg.RedisURL != redisadapter.Embedded {
		rc, err := redisadapter.Open(ctx, cfg.RedisURL)
		if err != nil {
			return nil, false, fmt.Errorf("open redis: %w", err)
		}
		return rc, true, nil
	}
	rc, ok, err := redisadapter.Attach(ctx, EmbeddedRedisFile(cfg))
	if err != nil {
		return nil, false, err
	}
	if ok {
		return rc, true, nil
	}
	rc, err = redisadapter.Open(ctx, redisadapter.Embedded)
	if err != nil {
		return nil, false, fmt.Errorf("open redis: %w", err)
	}
	return rc, false, nil
}

// Close releases what OpenAdmin opened.
func (a *Admin) Close() error {
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i]())
	}
	a.closers = nil
	return errors.Join(errs...)
}
