package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/reqmeta"
)

// CodeTimeout is the extensions.code of an operation that ran past its time limit.
const CodeTimeout = string(domain.CodeTimeout)

// ErrorPresenter maps errors to client-safe GraphQL errors. It is the only place that
// turns domain codes into extensions.code; anything without a code is logged with the
// request id and shown as INTERNAL.
func ErrorPresenter(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gqlErr := graphql.DefaultErrorPresenter(ctx, err)
		var coded *domain.Error
		switch {
		case errors.As(err, &coded):
			gqlErr.Message = coded.Message
			if gqlErr.Message == "" {
				gqlErr.Message = string(coded.Code)
			}
			if coded.RetryAfterSeconds > 0 {
				gqlErr.Extensions = ownExtensions(gqlErr.Extensions)
				gqlErr.Extensions["retryAfterSeconds"] = coded.RetryAfterSeconds
			}
			if coded.TriesLeft != nil {
				gqlErr.Extensions = ownExtensions(gqlErr.Extensions)
				gqlErr.Extensions["triesLeft"] = *coded.TriesLeft
			}
			if coded.CurrentStatus != "" {
				gqlErr.Extensions = ownExtensions(gqlErr.Extensions)
				gqlErr.Extensions["currentStatus"] = coded.CurrentStatus
			}
			setCode(gqlErr, string(coded.Code))
			if coded.Code == domain.CodeInternal {
				logInternal(ctx, log, err)
				gqlErr.Message = "internal error"
			}
		case errors.Is(err, context.DeadlineExceeded):
			gqlErr.Message = "the operation took too long"
			setCode(gqlErr, CodeTimeout)
		case isGraphQLError(err):
			// Parse, validation and limit errors from the GraphQL engine carry their own
			// codes and safe messages. One without a code and without a path concerns the
			// request as a whole (a persisted-query hash that does not match, say); one
			// with a path and no code is the server's own failure.
			if variableCoercion(gqlErr) {
				// A variable of the wrong type ({} for an ID): the input is bad, the
				// document is not.
				setCode(gqlErr, string(domain.CodeBadUserInput))
				break
			}
			if _, coded := gqlErr.Extensions["code"]; !coded {
				if len(gqlErr.Path) == 0 {
					setCode(gqlErr, CodeBadRequest)
					break
				}
				logInternal(ctx, log, err)
				gqlErr.Message = "internal error"
				setCode(gqlErr, string(domain.CodeInternal))
			}
		default:
			logInternal(ctx, log, err)
			gqlErr.Message = "internal error"
			setCode(gqlErr, string(domain.CodeInternal))
		}
		return gqlErr
	}
}

// variableCoercion reports whether e is gqlparser's refusal of a variable's value, which
// it places at the path ["variable", name, …].
func variableCoercion(e *gqlerror.Error) bool {
	return len(e.Path) > 0 && e.Path[0] == ast.PathName("variable")
}

// isGraphQLError reports whether err was made by the GraphQL engine itself (and carries
// no wrapped cause from our code).
func isGraphQLError(err error) bool {
	var g *gqlerror.Error
	return errors.As(err, &g) && g.Unwrap() == nil
}

// setCode sets extensions.code. An error without other extensions gets the code's
// shared extensions map, which nothing may modify afterwards: a flood of SOLD_OUT
// answers then allocates no map per answer.
func setCode(e *gqlerror.Error, code string) {
	if e.Extensions == nil {
		e.Extensions = codeOnly(code)
		return
	}
	e.Extensions["code"] = code
}

// codeOnlyExtensions holds one read-only {"code": code} map per code.
var codeOnlyExtensions sync.Map

func codeOnly(code string) map[string]any {
	if m, ok := codeOnlyExtensions.Load(code); ok {
		return m.(map[string]any)
	}
	m, _ := codeOnlyExtensions.LoadOrStore(code, map[string]any{"code": code})
	return m.(map[string]any)
}

// ownExtensions returns a map the caller may modify, with m's entries.
func ownExtensions(m map[string]any) map[string]any {
	own := make(map[string]any, len(m)+2)
	for k, v := range m {
		own[k] = v
	}
	return own
}

func logInternal(ctx context.Context, log *slog.Logger, err error) {
	attrs := []any{slog.String("request_id", reqmeta.From(ctx).RequestID), slog.String("error", err.Error())}
	if fc := graphql.GetFieldContext(ctx); fc != nil {
		attrs = append(attrs, slog.String("path", fc.Path().String()))
	}
	log.ErrorContext(ctx, "graphql internal error", attrs...)
}

// RecoverFunc turns a panic in a resolver into an INTERNAL error and logs its stack.
func RecoverFunc(log *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, p any) error {
		log.ErrorContext(ctx, "panic in resolver",
			slog.String("request_id", reqmeta.From(ctx).RequestID),
			slog.String("panic", fmt.Sprint(p)),
			slog.String("stack", string(debug.Stack())))
		return &domain.Error{Code: domain.CodeInternal, Message: "internal error", Err: fmt.Errorf("panic: %v", p)}
	}
}
