// Package web is the Dealspot web app: its sources are in src/ (Preact, graphql-ws,
// built by Vite with `make web`), and the built files in dist/ are embedded here and
// served at /app/ by the server, so running the server needs no Node.js.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed all:dist
var dist embed.FS

// Prefix is where the app is served.
const Prefix = "/app/"

// csp allows the app's own scripts, styles and API (the GraphQL endpoint over HTTP and
// websocket), images from the site and https, and nothing from any other origin.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; " +
	"font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Handler serves the app under Prefix: hashed assets cached for a year, index.html
// never cached. A path that names a file — under assets/, or whose last part has an
// extension — is 404 when the app has no such file (a browser must not take the page
// for a missing script or image); any other path is a route of the app and gets
// index.html (the app routes itself).
func Handler() http.Handler {
	files, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded at build time; its absence is a build error
	}
	server := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		name := strings.TrimPrefix(path.Clean(r.URL.Path), strings.TrimSuffix(Prefix, "/"))
		name = strings.TrimPrefix(name, "/")
		if name != "" && name != "index.html" {
			if st, err := fs.Stat(files, name); err == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					h.Set("Cache-Control", "public, max-age=31536000, immutable")
				} else {
					h.Set("Cache-Control", "no-cache")
				}
				r2 := r.Clone(r.Context())
				r2.URL.Path = "/" + name
				server.ServeHTTP(w, r2)
				return
			}
			if name == "assets" || strings.HasPrefix(name, "assets/") || path.Ext(name) != "" {
				http.NotFound(w, r)
				return
			}
		}
		h.Set("Cache-Control", "no-cache")
		index, err := fs.ReadFile(files, "index.html")
		if err != nil {
			http.Error(w, "the web app is not built: run make web", http.StatusNotFound)
			return
		}
		h.Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(index)
	})
}
