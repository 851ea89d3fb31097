package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/go-viper/mapstructure/v2"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/reqmeta"
)

// APQOptions bound automatic persisted queries. A document is registered only once it
// parsed and validated, never over GET, and only within these bounds; a document that is
// not registered still runs (its client keeps sending the text).
type APQOptions struct {
	// MaxDocumentBytes: a longer document is not registered (0: any length).
	MaxDocumentBytes int
	// RegistrationsPerClient bounds the registrations from one client address per
	// RegistrationWindow on this node (0: no limit).
	RegistrationsPerClient int
	RegistrationWindow     time.Duration
	// MaxBytes bounds the text this node keeps (0: QueryCacheSize documents, any size).
	MaxBytes int64
	// Now is the registration limit's clock (nil: time.Now).
	Now func() time.Time
}

// persistedQueries is the cache of automatic persisted queries: this node's LRU in front
// of a cache every node shares (nil: the LRU alone). A query found in the shared cache is
// kept locally too. The shared cache failing — even panicking — is a miss: the client is
// asked for the query's text (PERSISTED_QUERY_NOT_FOUND), never answered an error.
type persistedQueries struct {
	local  *persistedQueryLRU
	shared graphql.Cache[string]
	log    *slog.Logger
}

var _ graphql.Cache[string] = (*persistedQueries)(nil)

func newPersistedQueries(size int, maxBytes int64, shared graphql.Cache[string], log *slog.Logger) *persistedQueries {
	return &persistedQueries{local: newPersistedQueryLRU(size, maxBytes), shared: shared, log: log}
}

// Get implements graphql.Cache.
func (c *persistedQueries) Get(ctx context.Context, hash string) (string, bool) {
	if q, ok := c.local.Get(ctx, hash); ok {
		return q, true
	}
	if c.shared == nil {
		return "", false
	}
	q, ok := c.sharedGet(ctx, hash)
	if ok && sha256Hex(q) == hash {
		c.local.Add(ctx, hash, q)
		return q, true
	}
	return "", false
}

// Add implements graphql.Cache.
func (c *persistedQueries) Add(ctx context.Context, hash, query string) {
	c.local.Add(ctx, hash, query)
	if c.shared == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("persisted query cache panicked storing a query", slog.Any("panic", r))
		}
	}()
	c.shared.Add(ctx, hash, query)
}

func (c *persistedQueries) sharedGet(ctx context.Context, hash string) (q string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("persisted query cache panicked reading a query", slog.Any("panic", r))
			q, ok = "", false
		}
	}()
	return c.shared.Get(ctx, hash)
}

// persistedQueryLookup is the first half of automatic persisted queries (the protocol of
// Apollo's persisted-query link, as gqlgen's extension.AutomaticPersistedQuery): a hash
// alone is replaced by its registered text; a text sent with its hash is checked against
// it and staged for registration. It stores nothing itself: gqlgen's own extension
// stores the text before it is parsed, which let anyone fill the cache with documents
// the server then refuses. persistedQueryRegistration stores a staged text once the
// operation is known to be valid.
type persistedQueryLookup struct {
	cache *persistedQueries
}

// stagedQuery is a document sent with its hash, waiting to be registered.
type stagedQuery struct{ hash, query string }

const stagedQueryStat = "dealspot.apq.staged"

var _ interface {
	graphql.OperationParameterMutator
	graphql.HandlerExtension
} = persistedQueryLookup{}

func (persistedQueryLookup) ExtensionName() string                   { return "PersistedQueryLookup" }
func (persistedQueryLookup) Validate(graphql.ExecutableSchema) error { return nil }

func (p persistedQueryLookup) MutateOperationParameters(ctx context.Context, raw *graphql.RawParams) *gqlerror.Error {
	if raw.Extensions["persistedQuery"] == nil {
		return nil
	}
	var ext struct {
		Sha256  string `mapstructure:"sha256Hash"`
		Version int64  `mapstructure:"version"`
	}
	if err := mapstructure.Decode(raw.Extensions["persistedQuery"], &ext); err != nil {
		return badRequest("invalid APQ extension data")
	}
	if ext.Version != 1 {
		return badRequest("unsupported APQ version")
	}
	if raw.Query == "" {
		q, ok := p.cache.Get(ctx, ext.Sha256)
		if !ok {
			err := gqlerror.Errorf("PersistedQueryNotFound")
			errcode.Set(err, string(domain.CodePersistedQueryNotFound))
			return err
		}
		raw.Query = q
		return nil
	}
	if sha256Hex(raw.Query) != ext.Sha256 {
		return badRequest("provided APQ hash does not match query")
	}
	graphql.GetOperationContext(ctx).Stats.SetExtension(stagedQueryStat, &stagedQuery{hash: ext.Sha256, query: raw.Query})
	return nil
}

// persistedQueryRegistration registers the document staged by persistedQueryLookup. It
// must be the last operation context mutator: gqlgen calls it only after the document
// parsed and validated and every mutator before it (the limits) accepted the operation.
// It registers nothing from a GET, nothing longer than maxBytes, nothing already known,
// and at most what the client's limit allows.
type persistedQueryRegistration struct {
	cache    *persistedQueries
	maxBytes int
	limit    *registrationLimit
}

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = persistedQueryRegistration{}

func (persistedQueryRegistration) ExtensionName() string                   { return "PersistedQueryRegistration" }
func (persistedQueryRegistration) Validate(graphql.ExecutableSchema) error { return nil }

func (p persistedQueryRegistration) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	staged, _ := oc.Stats.GetExtension(stagedQueryStat).(*stagedQuery)
	if staged == nil || requestKindFrom(ctx) == kindGET {
		return nil
	}
	if p.maxBytes > 0 && len(staged.query) > p.maxBytes {
		return nil
	}
	if _, known := p.cache.local.Get(ctx, staged.hash); known {
		return nil
	}
	if !p.limit.allow(clientAddress(ctx)) {
		return nil
	}
	p.cache.Add(ctx, staged.hash, staged.query)
	return nil
}

// registrationLimit counts registrations per client address in fixed windows. It tracks
// at most maxTrackedClients addresses a window; past them, new addresses are refused
// until the window ends, so that its memory stays bounded too.
type registrationLimit struct {
	max    int
	window time.Duration
	now    func() time.Time

	mu     sync.Mutex
	start  time.Time
	counts map[string]int
}

const maxTrackedClients = 100_000

func newRegistrationLimit(o APQOptions) *registrationLimit {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &registrationLimit{max: o.RegistrationsPerClient, window: o.RegistrationWindow, now: now, counts: map[string]int{}}
}

// allow reports whether client may register one more document, and counts it.
func (l *registrationLimit) allow(client string) bool {
	if l.max <= 0 || l.window <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := l.now(); !now.Before(l.start.Add(l.window)) {
		l.start, l.counts = now, map[string]int{}
	}
	n, seen := l.counts[client]
	if n >= l.max || (!seen && len(l.counts) >= maxTrackedClients) {
		return false
	}
	l.counts[client] = n + 1
	return true
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func badRequest(message string) *gqlerror.Error {
	err := gqlerror.Errorf("%s", message)
	errcode.Set(err, CodeBadRequest)
	return err
}

// clientAddress is who the registration limit counts: the client address the HTTP edge
// found (TRUSTED_PROXIES and X-Forwarded-For), an IPv6 client by its /64 as the login
// limits count it (one subscriber usually holds a whole /64).
func clientAddress(ctx context.Context) string {
	return auth.ClientKey(reqmeta.From(ctx).ClientIP)
}
