package config_test

import (
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
