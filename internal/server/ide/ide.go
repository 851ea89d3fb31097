// Package ide serves the GraphQL IDE (GraphiQL) with its assets embedded in the binary,
// so that it works offline. See README.md for the vendored packages and their licences.
package ide

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"io/fs"
	"net/http"

	"github.com/99designs/gqlgen/graphql/playground"
)

//go:embed assets/*.js assets/*.css
var assets embed.FS

// AssetPrefix is the path the assets are served under.
const AssetPrefix = "/ide/"

// Page returns the IDE page for the GraphQL endpoint; it loads its assets from
// AssetPrefix only.
func Page(title, endpoint string) http.Handler {
	return playground.Handler(title, endpoint,
		playground.WithGraphiqlVersion(
			AssetPrefix+"graphiql.min.js", AssetPrefix+"graphiql.min.css",
			integrity("graphiql.min.js"), integrity("graphiql.min.css")),
		playground.WithGraphiqlReactVersion(
			AssetPrefix+"react.production.min.js", AssetPrefix+"react-dom.production.min.js",
			integrity("react.production.min.js"), integrity("react-dom.production.min.js")),
		playground.WithGraphiqlEnablePluginExplorer(false),
	)
}

// Assets serves the embedded files under AssetPrefix.
func Assets() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree always has assets/
	}
	files := http.StripPrefix(AssetPrefix, http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The files change only with the binary.
		w.Header().Set("Cache-Control", "public, max-age=86400")
		files.ServeHTTP(w, r)
	})
}

// integrity is the subresource-integrity value of an embedded file.
func integrity(name string) string {
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		panic(err) // names are the embedded files'
	}
	sum := sha256.Sum256(b)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
