package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealspot/dealspot/internal/config"
)

func TestWebsocketDefaultsAndOverrides(t *testing.T) {
	t.Parallel()
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := config.Websocket{SessionCheckInterval: time.Second, MaxPerUser: 10, MaxPerIP: 50, MaxTotal: 10_000,
		MaxOperationsPerSocket: 50, MaxOperationsPerUser: 100, InitTimeout: 3 * time.Second}
	if c.Websocket != want {
		t.Fatalf("websocket defaults %+v, want the documented %+v", c.Websocket, want)
	}
	c, err = config.Load(env(map[string]string{"WS_MAX_OPERATIONS_PER_SOCKET": "7", "WS_MAX_OPERATIONS_PER_USER": "0", "WS_INIT_TIMEOUT": "500ms"}))
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Websocket; w.MaxOperationsPerSocket != 7 || w.MaxOperationsPerUser != 0 || w.InitTimeout != 500*time.Millisecond {
		t.Fatalf("overrides not applied: %+v", w)
	}
	for name, value := range map[string]string{"WS_MAX_OPERATIONS_PER_SOCKET": "-1", "WS_MAX_OPERATIONS_PER_USER": "many", "WS_INIT_TIMEOUT": "0"} {
		if _, err := config.Load(env(map[string]string{name: value})); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: %v, want an error naming it", name, value, err)
		}
	}
}
