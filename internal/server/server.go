// Package server is Dealspot's HTTP edge: routes, middleware (request id, client IP,
// body limit, access log, panic recovery, metrics), health and readiness.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dealspot/dealspot/internal/domain"
	"github.com/dealspot/dealspot/internal/reqmeta"
	"github.com/dealspot/dealspot/internal/server/ide"
)

// Check reports whether one dependency is reachable.
type Check func(ctx context.Context) error

// Warning returns a note for operators about a risk that does not make the server
// unready (e.g. a Redis without persistence); "" when there is none.
type Warning func(ctx context.Context) string

// Options configure the HTTP handler.
type Options struct {
	Log *slog.Logger
	// GraphQL serves /graphql; nil serves only the operational routes (a worker).
	GraphQL http.Handler
	// PaymentNotify serves POST /payments/notify, the payment provider's callbacks (nil:
	// not served).
	PaymentNotify http.Handler
	// Media serves GET /media/{name}, the uploaded images (nil: not served).
	Media http.Handler
	// DemoImages serves the demo data's pictures under each of DemoImagePrefixes (nil:
	// not served).
	DemoImages        http.Handler
	DemoImagePrefixes []string
	// App serves the web app at AppPath when set, and Favicon the site's icon at
	// FaviconPath.
	App     http.Handler
	Favicon http.Handler
	Metrics *Metrics
	// Ready names the checks /readyz runs.
	Ready map[string]Check
	// Warnings names notes /readyz adds under "warnings" without changing its status.
	Warnings map[string]Warning
	// IDE serves the GraphQL IDE at /.
	IDE bool
	// MaxBodyBytes bounds request bodies; MaxUploadBodyBytes, when larger, bounds
	// multipart/form-data bodies (file uploads) instead.
	MaxBodyBytes       int64
	MaxUploadBodyBytes int64
	// MaxURLBytes bounds the request target (path and query string), which carries the
	// whole document of a GraphQL GET.
	MaxURLBytes int64
	// TrustedProxies are the networks of the reverse proxies in front of the server: a
	// request from one of them has its client IP taken from X-Forwarded-For (see
	// clientIP). Empty: the header is ignored.
	TrustedProxies []netip.Prefix
	// MetricsElsewhere leaves /metrics out: it is served on its own address by
	// NewMetricsHandler.
	MetricsElsewhere bool
}

// AppPath is where the web app is served.
const AppPath = "/app/"

// PaymentNotifyPath is where the payment provider posts its notifications.
const PaymentNotifyPath = "/payments/notify"

// FaviconPath is where browsers look for a site's icon.
const FaviconPath = "/favicon.ico"

// MediaPath is the prefix of the uploaded images' paths.
const MediaPath = "/media/"

// NewHandler returns Dealspot's HTTP handler.
func NewHandler(o Options) http.Handler {
	mux := http.NewServeMux()
	if o.GraphQL != nil {
		mux.Handle("/graphql", o.GraphQL)
	}
	if o.PaymentNotify != nil {
		mux.Handle("POST "+PaymentNotifyPath, o.PaymentNotify)
	}
	if o.Media != nil {
		mux.Handle("GET "+MediaPath, o.Media)
	}
	if o.DemoImages != nil {
		for _, prefix := range o.DemoImagePrefixes {
			mux.Handle("GET "+prefix, o.DemoImages)
		}
	}
	if o.App != nil {
		mux.Handle("GET "+AppPath, o.App)
		mux.Handle("GET /app", http.RedirectHandler(AppPath, http.StatusMovedPermanently))
	}
	if o.Favicon != nil {
		mux.Handle("GET "+FaviconPath, o.Favicon)
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", readyHandler(o.Ready, o.Warnings))
	if !o.MetricsElsewhere {
		mux.Handle("GET /metrics", metricsHandler(o.Metrics))
	}
	if o.IDE && o.GraphQL != nil {
		mux.Handle("GET /{$}", ide.Page("Dealspot GraphQL", "/graphql"))
		mux.Handle("GET "+ide.AssetPrefix, ide.Assets())
	}
	return middleware(o, mux)
}

// NewMetricsHandler serves only GET /metrics, for a listener of its own (METRICS_ADDR).
func NewMetricsHandler(m *Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metricsHandler(m))
	return mux
}

func metricsHandler(m *Metrics) http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}

func readyHandler(checks map[string]Check, warnings map[string]Warning) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		status, code := map[string]any{}, http.StatusOK
		for name, check := range checks {
			if err := check(ctx); err != nil {
				status[name], code = "unavailable", http.StatusServiceUnavailable
				continue
			}
			status[name] = "ok"
		}
		notes := map[string]string{}
		for name, warn := range warnings {
			if note := warn(ctx); note != "" {
				notes[name] = note
			}
		}
		if len(notes) > 0 {
			status["warnings"] = notes
		}
		writeJSON(w, code, status)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// statusRecorder remembers the status code written. It keeps http.Hijacker and Flusher
// reachable through Unwrap so websockets keep working.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func middleware(o Options, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 64 {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		meta := reqmeta.Meta{RequestID: id, ClientIP: clientIP(r, o.TrustedProxies)}
		r = r.WithContext(reqmeta.With(r.Context(), meta))
		rec := &statusRecorder{ResponseWriter: w}
		if o.MaxURLBytes > 0 && int64(len(r.RequestURI)) > o.MaxURLBytes {
			// A GraphQL GET carries its document in the query string, which the body limit
			// does not see.
			tooLarge(rec, http.StatusRequestURITooLong, "request URL too long", o.MaxURLBytes)
			o.Metrics.observeHTTP(routeLabel(r.URL.Path), rec.code)
			return
		}
		limit, upload := o.MaxBodyBytes, false
		if o.MaxUploadBodyBytes > limit && isMultipart(r) {
			limit, upload = o.MaxUploadBodyBytes, true
		}
		if limit > 0 && r.ContentLength > limit {
			if upload {
				// The file is too large: the client's input, like an image too large.
				writeJSON(rec, http.StatusRequestEntityTooLarge, map[string]any{"errors": []any{map[string]any{
					"message":    fmt.Sprintf("upload too large: at most %d bytes", limit),
					"extensions": map[string]any{"code": "BAD_USER_INPUT", "maxBytes": limit},
				}}})
				o.Metrics.observeHTTP(routeLabel(r.URL.Path), rec.code)
				return
			}
			tooLarge(rec, http.StatusRequestEntityTooLarge, "request body too large", limit)
			o.Metrics.observeHTTP(routeLabel(r.URL.Path), rec.code)
			return
		}
		if r.Body != nil && limit > 0 {
			// Bodies without a length are cut at the limit while they are read.
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				o.Log.Error("panic serving request", slog.String("request_id", id), slog.Any("panic", p))
				if rec.code == 0 {
					http.Error(rec, `{"errors":[{"message":"internal error","extensions":{"code":"INTERNAL"}}]}`, http.StatusInternalServerError)
				}
			}
			route := routeLabel(r.URL.Path)
			o.Metrics.observeHTTP(route, rec.code)
			if route != "/healthz" && route != "/metrics" {
				o.Log.Debug("http request", slog.String("request_id", id), slog.String("method", r.Method),
					slog.String("path", r.URL.Path), slog.Int("status", rec.code),
					slog.Duration("duration", time.Since(start)), slog.String("client_ip", meta.ClientIP))
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// tooLarge refuses a request over one of the size limits, without echoing any of it.
func tooLarge(w http.ResponseWriter, status int, message string, limit int64) {
	writeJSON(w, status, map[string]any{"errors": []any{map[string]any{
		"message":    message,
		"extensions": map[string]any{"code": domain.CodeRequestTooLarge, "maxBytes": limit},
	}}})
}

func routeLabel(path string) string {
	switch path {
	case "/graphql", "/healthz", "/readyz", "/metrics", "/", PaymentNotifyPath:
		return path
	}
	if strings.HasPrefix(path, ide.AssetPrefix) {
		return ide.AssetPrefix
	}
	if strings.HasPrefix(path, AppPath) {
		return AppPath
	}
	if strings.HasPrefix(path, MediaPath) {
		return MediaPath
	}
	return "other"
}

func newRequestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// isMultipart reports whether r posts multipart/form-data (a GraphQL file upload).
func isMultipart(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "multipart/form-data"
}
