package entstore

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"entgo.io/ent/dialect"
)

// Source is a parsed database URL.
type Source struct {
	// Dialect is ent's dialect name: dialect.SQLite ("sqlite3") or dialect.Postgres.
	Dialect string
	// Path is the SQLite database file; empty for PostgreSQL and in-memory databases.
	Path string
	// Memory is set for an in-memory SQLite database, which lives as long as the Store.
	Memory bool
	// Params are extra SQLite driver parameters from the URL's query, e.g. more _pragma
	// values; they are added to the ones the store always sets.
	Params url.Values
	// URL is the PostgreSQL connection URL, passed to lib/pq unchanged.
	URL string
}

// ParseURL checks a database URL without opening it. Accepted forms:
//
//	sqlite://data/dealspot.db        file relative to the working directory
//	sqlite:///var/lib/dealspot.db    absolute file
//	sqlite://:memory:  sqlite::memory:   in-memory database (tests)
//	postgres://user:pass@host:5432/db?sslmode=disable   (or postgresql://)
func ParseURL(databaseURL string) (Source, error) {
	raw := strings.TrimSpace(databaseURL)
	if raw == "" {
		return Source{}, errors.New("database url is empty")
	}
	scheme, rest, ok := strings.Cut(raw, ":")
	if !ok || scheme == "" {
		return Source{}, fmt.Errorf("database url %q: want sqlite://<file> or postgres://…", redact(raw))
	}
	switch strings.ToLower(scheme) {
	case "sqlite", "sqlite3":
		return parseSQLite(rest)
	case "postgres", "postgresql":
		u, err := url.Parse(raw)
		if err != nil {
			return Source{}, fmt.Errorf("database url: bad postgres url: %w", errors.Unwrap(err))
		}
		if u.Opaque != "" || !strings.HasPrefix(rest, "//") {
			return Source{}, errors.New("database url: want postgres://[user[:password]@]host[:port]/database")
		}
		return Source{Dialect: dialect.Postgres, URL: raw}, nil
	default:
		return Source{}, fmt.Errorf("database url: unsupported scheme %q (supported: sqlite, postgres)", scheme)
	}
}

// Validate reports whether databaseURL is one ParseURL accepts.
func Validate(databaseURL string) error {
	_, err := ParseURL(databaseURL)
	return err
}

func parseSQLite(rest string) (Source, error) {
	rest = strings.TrimPrefix(rest, "//")
	path, query, _ := strings.Cut(rest, "?")
	params, err := url.ParseQuery(query)
	if err != nil {
		return Source{}, fmt.Errorf("database url: bad sqlite parameters: %w", err)
	}
	src := Source{Dialect: dialect.SQLite, Params: params}
	switch {
	case path == ":memory:":
		src.Memory = true
	case path == "":
		return Source{}, errors.New("database url: sqlite url needs a file path, e.g. sqlite://data/dealspot.db")
	case strings.ContainsAny(path, "#"):
		return Source{}, fmt.Errorf("database url: sqlite path %q must not contain '#'", path)
	default:
		p, err := url.PathUnescape(path)
		if err != nil {
			return Source{}, fmt.Errorf("database url: bad sqlite path %q: %w", path, err)
		}
		src.Path = filepath.Clean(filepath.FromSlash(p))
	}
	return src, nil
}

// redact hides a password that may sit in a URL that failed to parse.
func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		return u.Redacted()
	}
	if at := strings.LastIndex(raw, "@"); at >= 0 {
		return "…" + raw[at:]
	}
	return raw
}
