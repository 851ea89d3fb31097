package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/maypok86/otter/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"golang.org/x/sync/singleflight"

	"github.com/dealspot/dealspot/internal/reqmeta"
)

// The response cache: whole answers to public queries, replayed byte for byte.
//
// It sits between guardRequests and Authentication (NewHandler), so the origin check,
// the preflight rule and the server's URL and body limits run before every hit. It only
// takes GET and application/json POST requests that carry no Authorization header (the
// only credential Authentication reads), and stores an answer only when the operation
// that ran was a query, selected none of volatileFields, answered status 200 without
// errors, and is at most MaxEntryBytes. The key is the method, the Accept header (it
// picks the content type) and the raw query string or body: everything the answer
// depends on in an anonymous request (dev mode, introspection and suggestions are the
// process's own settings).
//
// Freshness: an answer lives for TTL. Any mutation this node runs drops every answer
// before the mutation's own answer is written, and so does every read-cache invalidation
// that reaches this node (Drop), so a write is seen at once on the node that made it, and
// elsewhere as soon as its invalidation arrives; writes that send no invalidation (likes,
// comments, stock taken by claims on other nodes) show within TTL.

// ResponseCacheOptions bound the response cache.
type ResponseCacheOptions struct {
	// TTL is how long an answer is replayed; 0 turns the cache off.
	TTL time.Duration
	// MaxBytes bounds the answers (and their keys) held; the least useful go first.
	MaxBytes int64
	// MaxEntryBytes bounds one answer; larger ones are not kept.
	MaxEntryBytes int
	// MaxKeyBytes bounds the query string or body a request may have to be cached.
	MaxKeyBytes int
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// CountView counts an anonymous view of a shop (shopID > 0) or of a note (shopID 0)
	// by clientIP: a replayed shop or blog answer counts the visit the query counts.
	CountView func(ctx context.Context, clientIP string, shopID int64)
	// Metrics observes hits, misses and evictions; nil observes nothing.
	Metrics ResponseCacheMetrics
}

// ResponseCacheMetrics observes the response cache; safe for concurrent use and quick.
type ResponseCacheMetrics interface {
	// Hit counts a request answered from the cache.
	Hit()
	// Miss counts a cacheable request that ran the operation.
	Miss()
	// Evict counts an answer dropped to stay within MaxBytes.
	Evict()
}

// DefaultResponseCacheMaxKeyBytes is MaxKeyBytes when unset.
const DefaultResponseCacheMaxKeyBytes = 16 << 10

// volatileFields are the fields (Type.field) whose value depends on the caller or on the
// moment: a document selecting any of them is never cached. Fields under @auth are
// volatile too (they depend on the caller).
var volatileFields = map[string]bool{
	"Query.me":              true,
	"Blog.likedByMe":        true,
	"User.isFollowedByMe":   true,
	"Shop.favoritedByMe":    true,
	"Voucher.favoritedByMe": true,
	"Voucher.remindedByMe":  true,
	"Voucher.reminderCount": true, // for the shop's MERCHANT and ADMINs only
	"Voucher.stock":         true, // a sale's stock moves with every claim on any node
	"Voucher.warmup":        true, // for ADMINs only, and moves when the sale is loaded
	"SaleStats.remaining":   true,
	"SaleStats.at":          true,
	"SaleStats.pending":     true,
	"Query.isFollowing":     true,
	"Query.uniqueVisitors":  true,
}

// ResponseCache holds whole answers to public queries. Use NewResponseCache; a nil
// *ResponseCache caches nothing.
type ResponseCache struct {
	o        ResponseCacheOptions
	entries  *otter.Cache[string, *cachedAnswer]
	verdicts *otter.Cache[string, bool] // key → whether its document may be cached
	gen      atomic.Uint64
	flights  singleflight.Group
}

type cachedAnswer struct {
	gen         uint64
	expires     time.Time
	contentType string
	body        []byte
	// views are the visits the query counted: a shop id, or 0 for a note.
	views []int64
}

// NewResponseCache returns the cache o describes, or nil when o.TTL is 0.
func NewResponseCache(o ResponseCacheOptions) (*ResponseCache, error) {
	if o.TTL <= 0 {
		return nil, nil
	}
	if o.MaxBytes <= 0 || o.MaxEntryBytes <= 0 {
		return nil, errors.New("response cache: MaxBytes and MaxEntryBytes must be positive")
	}
	if o.MaxKeyBytes <= 0 {
		o.MaxKeyBytes = DefaultResponseCacheMaxKeyBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	c := &ResponseCache{o: o}
	var err error
	c.entries, err = otter.New(&otter.Options[string, *cachedAnswer]{
		MaximumWeight: uint64(o.MaxBytes),
		Weigher: func(k string, v *cachedAnswer) uint32 {
			return uint32(min(len(k)+len(v.body)+len(v.contentType)+8*len(v.views)+96, 1<<31))
		},
		ExpiryCalculator: otter.ExpiryWriting[string, *cachedAnswer](o.TTL),
		OnDeletion: func(e otter.DeletionEvent[string, *cachedAnswer]) {
			if e.Cause == otter.CauseOverflow && o.Metrics != nil {
				o.Metrics.Evict()
			}
		},
	})
	if err != nil {
		return nil, err
	}
	c.verdicts, err = otter.New(&otter.Options[string, bool]{MaximumSize: 10_000})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Drop forgets every answer held (a write may have changed any of them); reads that
// are running now do not store theirs.
func (c *ResponseCache) Drop() {
	if c == nil {
		return
	}
	c.gen.Add(1)
	c.entries.InvalidateAll()
}

// Middleware answers repeated public queries from the cache and hands everything else
// to next.
func (c *ResponseCache) Middleware(next http.Handler) http.Handler {
	if c == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.Header.Get("Upgrade") != "" {
			next.ServeHTTP(w, r)
			return
		}
		key, body, ok := c.key(r)
		if body != nil {
			r.Body = body
		}
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		gen := c.gen.Load()
		if e, found := c.entries.GetIfPresent(key); found && e.gen == gen && c.o.Now().Before(e.expires) {
			c.hit(w, r, e)
			return
		}
		query, known := c.verdicts.GetIfPresent(key)
		share := true
		if !known {
			var sure bool
			query, sure = isQueryDocument(r, key)
			if sure {
				c.verdicts.Set(key, query)
			} else {
				// A persisted query's hash alone: only running it tells whether it is a
				// query, so requests of this key do not share a run until one has.
				share = false
			}
		}
		if !query {
			next.ServeHTTP(w, r)
			return
		}
		c.miss(w, r, next, key, gen, share)
	})
}

// hit answers r from the cache.
func (c *ResponseCache) hit(w http.ResponseWriter, r *http.Request, e *cachedAnswer) {
	if c.o.Metrics != nil {
		c.o.Metrics.Hit()
	}
	c.replay(w, r, e)
}

// replay writes e as the answer to r and counts the visits it stands for.
func (c *ResponseCache) replay(w http.ResponseWriter, r *http.Request, e *cachedAnswer) {
	c.countViews(r.Context(), e.views)
	w.Header().Set("Content-Type", e.contentType)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(e.body)
}

func (c *ResponseCache) countViews(ctx context.Context, views []int64) {
	if c.o.CountView == nil || len(views) == 0 {
		return
	}
	ip := reqmeta.From(ctx).ClientIP
	for _, shopID := range views {
		c.o.CountView(ctx, ip, shopID)
	}
}

// flightResult is what one execution of a key gives every request waiting for it.
type flightResult struct {
	answer    *cachedAnswer // nil: not cacheable
	recording *answerRecorder
}

// miss runs the query once for every request of key arriving while it runs (with
// share; without, for r alone), stores a cacheable answer, and answers r.
func (c *ResponseCache) miss(w http.ResponseWriter, r *http.Request, next http.Handler, key string, gen uint64, share bool) {
	if c.o.Metrics != nil {
		c.o.Metrics.Miss()
	}
	var mine *answerRecorder
	run := func() (any, error) {
		mine = newAnswerRecorder()
		note := &responseNote{}
		next.ServeHTTP(mine, r.WithContext(context.WithValue(r.Context(), responseNoteKey{}, note)))
		res := flightResult{recording: mine}
		res.answer = c.store(key, gen, mine, note)
		return res, nil
	}
	if !share {
		_, _ = run()
		mine.writeTo(w)
		return
	}
	v, _, shared := c.flights.Do(strconv.FormatUint(gen, 10)+"\x00"+key, run)
	res := v.(flightResult)
	if mine != nil {
		// This request ran the operation (its visits counted as it ran).
		mine.writeTo(w)
		return
	}
	if !shared || res.answer == nil {
		// Not cacheable (an error, a document selecting volatile fields): this request
		// runs on its own, as it would have without the cache.
		next.ServeHTTP(w, r)
		return
	}
	c.replay(w, r, res.answer)
}

// store keeps the recorded answer when it may be replayed, and returns it (nil when not).
func (c *ResponseCache) store(key string, gen uint64, rec *answerRecorder, note *responseNote) *cachedAnswer {
	note.mu.Lock()
	defer note.mu.Unlock()
	if !note.ran || note.op != ast.Query || note.volatile {
		if note.ran && (note.op != ast.Query || note.volatile) {
			c.verdicts.Set(key, false)
		}
		return nil
	}
	c.verdicts.Set(key, true)
	if note.errs > 0 || rec.status != http.StatusOK || rec.body.Len() > c.o.MaxEntryBytes {
		return nil
	}
	e := &cachedAnswer{
		gen:         gen,
		expires:     c.o.Now().Add(c.o.TTL),
		contentType: rec.header.Get("Content-Type"),
		body:        bytes.Clone(rec.body.Bytes()),
		views:       note.views,
	}
	if c.gen.Load() == gen {
		c.entries.Set(key, e)
	}
	return e
}

// key returns the cache key of r, and r's body to read again when key read it; ok is
// false for requests the cache does not take.
func (c *ResponseCache) key(r *http.Request) (key string, body io.ReadCloser, ok bool) {
	accept := r.Header.Get("Accept")
	if len(accept) > 256 {
		return "", nil, false
	}
	switch r.Method {
	case http.MethodGet:
		if len(r.URL.RawQuery) > c.o.MaxKeyBytes {
			return "", nil, false
		}
		return "G" + accept + "\x00" + r.URL.RawQuery, nil, true
	case http.MethodPost:
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "application/json" || r.Body == nil || r.ContentLength > int64(c.o.MaxKeyBytes) {
			return "", nil, false
		}
		b, err := io.ReadAll(io.LimitReader(r.Body, int64(c.o.MaxKeyBytes)+1))
		rest := readAgain{Reader: io.MultiReader(bytes.NewReader(b), errorAfter(r.Body, err)), c: r.Body}
		if err != nil || len(b) > c.o.MaxKeyBytes {
			return "", rest, false
		}
		return "P" + accept + "\x00" + string(b), rest, true
	}
	return "", nil, false
}

type readAgain struct {
	io.Reader
	c io.Closer
}

func (r readAgain) Close() error { return r.c.Close() }

// errorAfter is the rest of body, or err again when reading it failed.
func errorAfter(body io.Reader, err error) io.Reader {
	if err != nil {
		return errReader{err}
	}
	return body
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// isQueryDocument reports whether the request holding key sends a query (parsed, not
// validated: the operation that runs decides whether its answer is kept). A request
// without a document (a persisted query's hash alone) may be one: query is true and
// sure false.
func isQueryDocument(r *http.Request, key string) (query, sure bool) {
	var doc, name string
	_, payload, _ := cutByte(key)
	if r.Method == http.MethodGet {
		q, err := url.ParseQuery(payload)
		if err != nil {
			return false, true
		}
		doc, name = q.Get("query"), q.Get("operationName")
	} else {
		var p struct {
			Query         string `json:"query"`
			OperationName string `json:"operationName"`
		}
		if json.Unmarshal([]byte(payload), &p) != nil {
			return false, true
		}
		doc, name = p.Query, p.OperationName
	}
	if doc == "" {
		return true, false
	}
	d, err := parser.ParseQuery(&ast.Source{Input: doc})
	if err != nil {
		return false, true
	}
	var op *ast.OperationDefinition
	switch {
	case name != "":
		op = d.Operations.ForName(name)
	case len(d.Operations) == 1:
		op = d.Operations[0]
	}
	return op != nil && op.Operation == ast.Query, true
}

func cutByte(key string) (before, after string, ok bool) {
	for i := 0; i < len(key); i++ {
		if key[i] == 0 {
			return key[:i], key[i+1:], true
		}
	}
	return key, "", false
}

// responseNote is what the operation behind a cache miss tells the cache about itself.
type responseNote struct {
	mu       sync.Mutex
	ran      bool
	op       ast.Operation
	volatile bool
	errs     int
	views    []int64
}

type responseNoteKey struct{}

func noteFrom(ctx context.Context) *responseNote {
	n, _ := ctx.Value(responseNoteKey{}).(*responseNote)
	return n
}

// aroundOperations tells the note of a cache miss which operation ran and how it
// ended, and drops the cache after every mutation, before its answer is written.
func (c *ResponseCache) aroundOperations(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc.Operation == nil {
		return next(ctx)
	}
	note := noteFrom(ctx)
	if note != nil {
		note.mu.Lock()
		note.ran, note.op = true, oc.Operation.Operation
		note.volatile = selectsVolatile(oc.Doc, oc.Operation.SelectionSet, map[string]bool{})
		note.mu.Unlock()
	}
	h := next(ctx)
	mutation := oc.Operation.Operation == ast.Mutation
	return func(ctx context.Context) *graphql.Response {
		resp := h(ctx)
		if mutation {
			c.Drop()
		}
		if note != nil {
			note.mu.Lock()
			if resp == nil {
				note.errs++
			} else {
				note.errs += len(resp.Errors)
			}
			note.mu.Unlock()
		}
		return resp
	}
}

// aroundRootFields notes the visits a miss's query counts (shop and blog found), so that
// its replays count them too.
func (c *ResponseCache) aroundRootFields(ctx context.Context, next graphql.RootResolver) graphql.Marshaler {
	note := noteFrom(ctx)
	res := next(ctx)
	if note == nil || res == graphql.Null {
		return res
	}
	fc := graphql.GetRootFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return res
	}
	var shopID int64 = -1
	switch fc.Field.Name {
	case "shop":
		oc := graphql.GetOperationContext(ctx)
		id, _ := fc.Field.ArgumentMap(oc.Variables)["id"].(string)
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			shopID = n
		}
	case "blog":
		shopID = 0
	}
	if shopID >= 0 {
		note.mu.Lock()
		note.views = append(note.views, shopID)
		note.mu.Unlock()
	}
	return res
}

// selectsVolatile reports whether set selects, at any depth, one of volatileFields or
// a field under @auth.
func selectsVolatile(doc *ast.QueryDocument, set ast.SelectionSet, seen map[string]bool) bool {
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if s.Definition != nil && s.ObjectDefinition != nil {
				if volatileFields[s.ObjectDefinition.Name+"."+s.Name] || s.Definition.Directives.ForName("auth") != nil {
					return true
				}
			}
			if selectsVolatile(doc, s.SelectionSet, seen) {
				return true
			}
		case *ast.InlineFragment:
			if selectsVolatile(doc, s.SelectionSet, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			if f := doc.Fragments.ForName(s.Name); f != nil && selectsVolatile(doc, f.SelectionSet, seen) {
				return true
			}
		}
	}
	return false
}

// answerRecorder holds an answer while it is written, to store and share it.
type answerRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newAnswerRecorder() *answerRecorder { return &answerRecorder{header: http.Header{}} }

func (a *answerRecorder) Header() http.Header { return a.header }

func (a *answerRecorder) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
}

func (a *answerRecorder) Write(b []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	return a.body.Write(b)
}

// writeTo writes the recorded answer to w.
func (a *answerRecorder) writeTo(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range a.header {
		h[k] = v
	}
	if a.status == 0 {
		a.status = http.StatusOK
	}
	w.WriteHeader(a.status)
	_, _ = w.Write(a.body.Bytes())
}
