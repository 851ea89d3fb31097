package graph

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// WebsocketOptions bound the websocket connections of one node.
type WebsocketOptions struct {
	// SessionCheckInterval is how often an open connection's session is checked again
	// (the same coalesced check as an HTTP request); a connection whose session ended is
	// closed. Every operation on a connection is checked as well.
	SessionCheckInterval time.Duration
	// MaxPerUser, MaxPerIP and MaxTotal bound this node's open connections per user, per
	// client IP and in total (0: unlimited). Connections count per IP and in total from
	// their upgrade, and one over is refused with HTTP 429 before it is upgraded; per
	// user from connection_init, and one over is closed with 4429 and a reason.
	MaxPerUser int
	MaxPerIP   int
	MaxTotal   int
	// MaxOperationsPerSocket and MaxOperationsPerUser bound the operations (mostly
	// subscriptions) running at once on one connection and on all of a user's
	// connections on this node (0: unlimited); one over is refused with an `error`
	// message coded RATE_LIMITED, and the connection stays open.
	MaxOperationsPerSocket int
	MaxOperationsPerUser   int
	// InitTimeout is how long a connection may wait before its connection_init (0: 3s).
	InitTimeout time.Duration
	// Now is the clock token expiry is measured with; nil means time.Now.
	Now func() time.Time
}

// Websocket close codes: 4401 Unauthorized (graphql-transport-ws) for an ended session or
// an expired token, 4403 Forbidden (graphql-transport-ws) for a blocked account or a
// refused connection_init, 1013 Try Again Later for a connection_init not served now.
const (
	closeUnauthorized = 4401
	closeForbidden    = 4403
	closeTryAgain     = 1013
)

// websocketSessions ties every websocket connection to the session it was opened with:
// each operation re-checks the session, a watcher checks it periodically and at token
// expiry, and the connection is closed (4401/4403), its subscriptions stopped, when the
// session ends. Its Middleware, which every HTTP request passes, is in handler.go.
type websocketSessions struct {
	auth   *auth.Authenticate
	inner  transport.WebsocketImplementation
	o      WebsocketOptions
	limits *socketLimits
}

func newWebsocketSessions(a *auth.Authenticate, o WebsocketOptions) *websocketSessions {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SessionCheckInterval <= 0 {
		o.SessionCheckInterval = time.Second
	}
	if o.InitTimeout <= 0 {
		o.InitTimeout = DefaultWebsocketInitTimeout
	}
	return &websocketSessions{auth: a, inner: transport.CoderWebsocketImplementation{}, o: o,
		limits: newSocketLimits(o)}
}

// DefaultWebsocketInitTimeout is how long a connection may wait before its
// connection_init unless configured.
const DefaultWebsocketInitTimeout = 3 * time.Second

// socket is one websocket connection as the session checks see it.
type socket struct {
	sessions *websocketSessions
	conn     transport.WebsocketConn
	header   string // the Authorization value of connection_init
	cancel   context.CancelFunc
	once     sync.Once
	ended    chan struct{}
	ops      int // operations running on it, guarded by sessions.limits.mu
}

type socketKey struct{}

func socketFrom(ctx context.Context) *socket {
	s, _ := ctx.Value(socketKey{}).(*socket)
	return s
}

// end closes the connection with code and reason and stops its operations.
func (s *socket) end(code int, reason string) {
	s.once.Do(func() {
		close(s.ended)
		if s.conn != nil {
			_ = s.conn.WriteClose(code, reason)
		}
		if s.cancel != nil {
			s.cancel()
		}
	})
}

// Accept implements transport.WebsocketImplementation: it records the connection so
// that the server can close it with a code of its own.
func (w *websocketSessions) Accept(rw http.ResponseWriter, r *http.Request, o transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	conn, err := w.inner.Accept(rw, r, o)
	if s := socketFrom(r.Context()); s != nil && err == nil {
		s.conn = conn
	}
	return conn, err
}

// errWebsocketAuth is sent to websocket clients whose connection_init carries no valid
// token.
var errWebsocketAuth = errors.New("connection_init needs a payload {\"Authorization\": \"Bearer <access token>\"} with a valid token")

// Init authenticates a connection from its connection_init payload. A connection
// without a token is anonymous: it may run the public subscriptions (saleProgress), and
// the others answer UNAUTHENTICATED; a connection with a token that is not valid is
// refused (4403). The context it returns ends when the session does.
func (w *websocketSessions) Init(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	// graphql-transport-ws closes unauthorised connections with 4403 Forbidden.
	refused := transport.AppendCloseReason(transport.WithWebsocketCloseCode(ctx, closeForbidden), "Forbidden")
	header := payload.Authorization()
	if header == "" {
		header = payload.GetString("authorization")
	}
	if header == "" {
		if socketFrom(ctx) == nil { // not reached through Middleware (handler.go): no limits, refuse
			return transport.WithWebsocketCloseCode(ctx, closeTryAgain), nil, errors.New("websocket connections are not available")
		}
		return ctx, nil, nil // anonymous: limited per address (the upgrade) and per socket
	}
	c, err := authenticate(ctx, w.auth, header)
	if err != nil {
		return transport.WithWebsocketCloseCode(ctx, closeTryAgain), nil, errors.New("authentication is unavailable, try again")
	}
	if c.err != nil {
		return refused, nil, errWebsocketAuth
	}
	s := socketFrom(ctx)
	if s == nil { // not reached through Middleware (handler.go): no watching possible, refuse
		return transport.WithWebsocketCloseCode(ctx, closeTryAgain), nil, errors.New("websocket connections are not available")
	}
	release, refusal := w.limits.user(c.principal.UserID)
	if refusal != "" {
		return transport.AppendCloseReason(transport.WithWebsocketCloseCode(ctx, closeTooMany), refusal), nil, errors.New(refusal)
	}
	ctx, s.cancel = context.WithCancel(ctx)
	s.header = header
	go func() {
		defer release() // the connection's slot is free once it has closed
		w.watch(ctx, s, c.principal)
	}()
	return withCaller(ctx, c), nil, nil
}

// Closed implements transport.WebsocketCloseFunc: it stops the connection's watcher.
func (w *websocketSessions) Closed(ctx context.Context, _ int) {
	if s := socketFrom(ctx); s != nil && s.cancel != nil {
		s.cancel()
	}
}

// watch checks s's session every SessionCheckInterval and when its token expires, and
// closes the connection once the session has ended.
func (w *websocketSessions) watch(ctx context.Context, s *socket, p auth.Principal) {
	tick := time.NewTicker(w.o.SessionCheckInterval)
	defer tick.Stop()
	var expired <-chan time.Time
	if !p.ExpiresAt.IsZero() {
		t := time.NewTimer(p.ExpiresAt.Sub(w.o.Now()))
		defer t.Stop()
		expired = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-expired:
			s.end(closeUnauthorized, "access token expired")
			return
		case <-tick.C:
			if !p.ExpiresAt.IsZero() && !w.o.Now().Before(p.ExpiresAt) {
				s.end(closeUnauthorized, "access token expired")
				return
			}
			if _, err := w.check(ctx, s); err != nil {
				return
			}
		}
	}
}

// check re-runs the session check of s. A refused session closes the connection and
// returns the refusal; a failing session store does not (the next check tries again)
// and returns a nil error with the principal unknown.
func (w *websocketSessions) check(ctx context.Context, s *socket) (*auth.Principal, error) {
	p, err := w.auth.Handle(ctx, s.header)
	switch {
	case err == nil:
		return &p, nil
	case domain.ErrorCode(err) != domain.CodeUnauthenticated:
		return nil, nil
	case errors.Is(err, auth.ErrBlocked):
		s.end(closeForbidden, "account blocked")
	default:
		s.end(closeUnauthorized, "session ended")
	}
	return nil, err
}

// AroundOperations re-checks the session before every operation on a websocket and
// gives it the caller as the session stands now (its current role).
func (w *websocketSessions) AroundOperations(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	s := socketFrom(ctx)
	if s == nil {
		return next(ctx)
	}
	if s.header == "" { // an anonymous socket: its operations are counted per socket only
		return w.limited(ctx, s, 0, next)
	}
	select {
	case <-s.ended:
		return graphql.OneShot(unauthenticatedResponse("session ended"))
	default:
	}
	p, err := w.check(ctx, s)
	if err != nil {
		msg := "the session has ended"
		var coded *domain.Error
		if errors.As(err, &coded) && coded.Message != "" {
			msg = coded.Message
		}
		return graphql.OneShot(unauthenticatedResponse(msg))
	}
	user := callerFrom(ctx).principal.UserID
	if p != nil {
		ctx = withCaller(ctx, caller{principal: *p})
		user = p.UserID
	}
	return w.limited(ctx, s, user, next)
}

// limited runs an operation of user (0: anonymous) on s within the socket's and the
// user's operation limits, or refuses it with RATE_LIMITED.
func (w *websocketSessions) limited(ctx context.Context, s *socket, user int64, next graphql.OperationHandler) graphql.ResponseHandler {
	release, refusal := w.limits.operation(s, user)
	if refusal != "" {
		// An `error` message ends this operation only (graphql-transport-ws); the
		// socket and its other operations go on.
		transport.AddSubscriptionError(ctx, &gqlerror.Error{Message: refusal,
			Extensions: map[string]any{"code": string(domain.CodeRateLimited)}})
		return func(context.Context) *graphql.Response { return nil }
	}
	// The transport cancels an operation's context when the operation ends, whatever
	// ends it (its last result, the client's complete, the socket closing).
	context.AfterFunc(ctx, release)
	return next(ctx)
}

// currentActor returns who the caller of an operation is at the moment it is called:
// on a websocket the session is checked again (its role may have changed since the
// operation started; a session that ended closes the socket and is refused); elsewhere,
// the caller p the operation started with.
func currentActor(ctx context.Context, p auth.Principal) func(context.Context) (domain.Actor, error) {
	s := socketFrom(ctx)
	if s == nil || s.sessions == nil || s.header == "" {
		return func(context.Context) (domain.Actor, error) { return actor(p), nil }
	}
	last, checked := actor(p), false
	return func(ctx context.Context) (domain.Actor, error) {
		if !checked { // the operation's start was checked already
			checked = true
			return last, nil
		}
		now, err := s.sessions.check(ctx, s)
		switch {
		case err != nil:
			return domain.Actor{}, err
		case now != nil:
			last = actor(*now)
		}
		// nil, nil: the session store cannot answer now; the role last seen stands.
		return last, nil
	}
}

// endForbidden ends the subscription of ctx, whose caller lost the right to it (err
// says why): its websocket is closed with 4403 Forbidden, as graphql-transport-ws
// closes a connection refused its rights. Subscriptions are served on websockets only.
func endForbidden(ctx context.Context, err error) {
	if s := socketFrom(ctx); s != nil {
		reason := "Forbidden"
		var coded *domain.Error
		if errors.As(err, &coded) && coded.Message != "" {
			reason += ": " + coded.Message
		}
		if len(reason) > maxCloseReason {
			reason = reason[:maxCloseReason]
		}
		s.end(closeForbidden, reason)
	}
}

// maxCloseReason bounds a close frame's reason (at most 123 bytes on the wire).
const maxCloseReason = 120

func unauthenticatedResponse(msg string) *graphql.Response {
	return &graphql.Response{Errors: gqlerror.List{{
		Message:    msg,
		Extensions: map[string]any{"code": string(domain.CodeUnauthenticated)},
	}}}
}
