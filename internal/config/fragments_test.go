package config_test

import (
	"strings"
	"testing"

	"github.com/dealspot/dealspot/internal/config"
)

func TestFragmentLimits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                 string
		vars                 map[string]string
		fragments, spreadTok int
		fails                string
	}{
		{"defaults", nil, 100, 100_000, ""},
		{"set", map[string]string{"GRAPHQL_MAX_FRAGMENTS": "20", "GRAPHQL_MAX_SPREAD_TOKENS": "5000"}, 20, 5000, ""},
		{"no fragments", map[string]string{"GRAPHQL_MAX_FRAGMENTS": "0"}, 0, 0, "GRAPHQL_MAX_FRAGMENTS"},
		{"not a number", map[string]string{"GRAPHQL_MAX_SPREAD_TOKENS": "lots"}, 0, 0, "GRAPHQL_MAX_SPREAD_TOKENS"},
	} {
		got, err := config.Load(env(c.vars))
		switch {
		case c.fails != "":
			if err == nil || !strings.Contains(err.Error(), c.fails) {
				t.Errorf("%s: err = %v, want one naming %s", c.name, err, c.fails)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case got.GraphQL.MaxFragments != c.fragments || got.GraphQL.MaxSpreadTokens != c.spreadTok:
			t.Errorf("%s: read %d fragments and %d spread tokens, want %d and %d", c.name,
				got.GraphQL.MaxFragments, got.GraphQL.MaxSpreadTokens, c.fragments, c.spreadTok)
		}
	}
}
