package entstore_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealspot/dealspot/adapters/entstore"
)

func TestParseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url     string
		dialect string
		path    string
		memory  bool
		wantErr string
	}{
		{url: "sqlite://data/dealspot.db", dialect: "sqlite3", path: filepath.FromSlash("data/dealspot.db")},
		{url: "sqlite:///var/lib/dealspot/dealspot.db", dialect: "sqlite3", path: filepath.FromSlash("/var/lib/dealspot/dealspot.db")},
		{url: "sqlite://dealspot.db?_pragma=cache_size(-20000)", dialect: "sqlite3", path: "dealspot.db"},
		{url: "sqlite://:memory:", dialect: "sqlite3", memory: true},
		{url: "sqlite::memory:", dialect: "sqlite3", memory: true},
		{url: "postgres://postgres@127.0.0.1:5432/dealspot?sslmode=disable", dialect: "postgres"},
		{url: "postgresql://u:secret@db.internal/dealspot", dialect: "postgres"},
		{url: "", wantErr: "empty"},
		{url: "garbage", wantErr: "want sqlite://"},
		{url: "mysql://root@localhost/dealspot", wantErr: `unsupported scheme "mysql"`},
		{url: "sqlite://", wantErr: "needs a file path"},
		{url: "postgres:dealspot", wantErr: "want postgres://"},
		{url: "postgres://u:secret@host:port/db", wantErr: "bad postgres url"},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			t.Parallel()
			src, err := entstore.ParseURL(tc.url)
			if verr := entstore.Validate(tc.url); (verr == nil) != (err == nil) {
				t.Fatalf("Validate = %v but ParseURL = %v", verr, err)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Fatalf("error %q shows the password", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if src.Dialect != tc.dialect || src.Path != tc.path || src.Memory != tc.memory {
				t.Fatalf("got %+v", src)
			}
			if tc.dialect == "postgres" && src.URL != tc.url {
				t.Fatalf("postgres url %q, want it unchanged", src.URL)
			}
		})
	}
}
