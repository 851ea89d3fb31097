package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/config"
)

func TestAPQTTL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, value string
		want        time.Duration
		fails       bool
	}{
		{"default", "", 24 * time.Hour, false},
		{"set", "1h", time.Hour, false},
		{"node-local only", "0", 0, false},
		{"negative", "-1h", 0, true},
		{"not a duration", "soon", 0, true},
	} {
		vars := map[string]string{}
		if c.value != "" {
			vars["APQ_TTL"] = c.value
		}
		got, err := config.Load(env(vars))
		switch {
		case c.fails && err == nil:
			t.Errorf("%s: APQ_TTL=%q accepted", c.name, c.value)
		case !c.fails && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.fails && got.GraphQL.APQTTL != c.want:
			t.Errorf("%s: APQ_TTL=%q read as %v, want %v", c.name, c.value, got.GraphQL.APQTTL, c.want)
		}
	}
}

func TestAPQLimits(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	g := c.GraphQL
	if g.APQMaxDocumentBytes != 16<<10 || g.APQRegistrationsPerClient != (config.Rate{Max: 60, Window: 10 * time.Minute}) ||
		g.APQMaxBytes != 8<<20 || len(g.AllowedOrigins) != 0 {
		t.Errorf("defaults: %d bytes per document, %+v per client, %d bytes in all, origins %v",
			g.APQMaxDocumentBytes, g.APQRegistrationsPerClient, g.APQMaxBytes, g.AllowedOrigins)
	}
	c, err = config.Load(env(map[string]string{
		"APQ_MAX_DOCUMENT_BYTES": "4096", "APQ_REGISTRATIONS_PER_CLIENT": "10/1m", "APQ_MAX_BYTES": "1048576",
		"GRAPHQL_ALLOWED_ORIGINS": "https://App.Example.com, http://localhost:5173/",
	}))
	if err != nil {
		t.Fatal(err)
	}
	g = c.GraphQL
	if g.APQMaxDocumentBytes != 4096 || g.APQRegistrationsPerClient != (config.Rate{Max: 10, Window: time.Minute}) ||
		g.APQMaxBytes != 1<<20 || strings.Join(g.AllowedOrigins, " ") != "https://app.example.com http://localhost:5173" {
		t.Errorf("set: %d bytes per document, %+v per client, %d bytes in all, origins %v",
			g.APQMaxDocumentBytes, g.APQRegistrationsPerClient, g.APQMaxBytes, g.AllowedOrigins)
	}
	if c, err = config.Load(env(map[string]string{"APQ_REGISTRATIONS_PER_CLIENT": "off"})); err != nil || c.GraphQL.APQRegistrationsPerClient.Max != 0 {
		t.Errorf("APQ_REGISTRATIONS_PER_CLIENT=off: %+v %v", c.GraphQL.APQRegistrationsPerClient, err)
	}
	for name, value := range map[string]string{
		"APQ_MAX_DOCUMENT_BYTES":       "0",
		"APQ_REGISTRATIONS_PER_CLIENT": "many",
		"APQ_MAX_BYTES":                "-1",
		"GRAPHQL_ALLOWED_ORIGINS":      "app.example.com",
	} {
		if _, err := config.Load(env(map[string]string{name: value})); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%q: %v, want an error naming it", name, value, err)
		}
	}
	for _, bad := range []string{"ftp://x.example", "https://x.example/path", "https://x.example?q=1", "*"} {
		if _, err := config.Load(env(map[string]string{"GRAPHQL_ALLOWED_ORIGINS": bad})); err == nil {
			t.Errorf("GRAPHQL_ALLOWED_ORIGINS=%q accepted", bad)
		}
	}
}
