package graph

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"

	"github.com/dealspot/dealspot/graph/model"
	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// caller is who the request speaks for: a principal, nobody (no token), or the reason a
// presented token was refused.
type caller struct {
	principal auth.Principal
	err       error
}

type callerKey struct{}

func withCaller(ctx context.Context, c caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerFrom(ctx context.Context) caller {
	c, _ := ctx.Value(callerKey{}).(caller)
	return c
}

// principal returns the authenticated caller, or UNAUTHENTICATED.
func principal(ctx context.Context) (auth.Principal, error) {
	c := callerFrom(ctx)
	switch {
	case c.err != nil:
		return auth.Principal{}, c.err
	case c.principal.UserID <= 0:
		return auth.Principal{}, domain.Errorf(domain.CodeUnauthenticated, "log in first")
	}
	return c.principal, nil
}

// authenticate resolves an Authorization value; an empty one is an anonymous caller.
// Errors other than a refused token (the session store being down, say) pass through.
func authenticate(ctx context.Context, a *auth.Authenticate, header string) (caller, error) {
	if header == "" {
		return caller{}, nil
	}
	p, err := a.Handle(ctx, header)
	if err == nil {
		return caller{principal: p}, nil
	}
	if domain.ErrorCode(err) == domain.CodeUnauthenticated {
		return caller{err: err}, nil
	}
	return caller{}, err
}

// Authentication reads the Authorization header of HTTP requests. A refused token does
// not fail the request: fields that need a caller answer UNAUTHENTICATED, public fields
// still answer.
func Authentication(a *auth.Authenticate, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := authenticate(r.Context(), a, r.Header.Get("Authorization"))
		if err != nil {
			c = caller{err: err}
		}
		next.ServeHTTP(w, r.WithContext(withCaller(r.Context(), c)))
	})
}

// Websocket close codes: 4403 Forbidden (graphql-transport-ws), 1013 Try Again Later.
// (See also websocket.go.)
const (
	closeForbidden = 4403
	closeTryAgain  = 1013
)

// authDirective implements @auth(requires: Role).
func authDirective(ctx context.Context, _ any, next graphql.Resolver, requires *model.Role) (any, error) {
	role := domain.RoleUser
	if requires != nil {
		role = domain.Role(*requires)
	}
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	if !p.Allows(role) {
		return nil, domain.Errorf(domain.CodeForbidden, "this needs the %s role", role)
	}
	return next(ctx)
}

// setBlocked blocks or unblocks the user with the raw id for the calling administrator.
func (r *mutationResolver) setBlocked(ctx context.Context, rawID string, blocked bool) (*model.User, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	id, err := parseID("userId", rawID)
	if err != nil {
		return nil, err
	}
	u, err := r.App.Commands.SetUserBlocked.Handle(ctx, p, id, blocked)
	if err != nil {
		return nil, err
	}
	return userToModel(u, p), nil
}
