package service_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Without JWT_SECRET, dev mode signs with a random secret made once and kept in the data
// directory: no published secret signs tokens the server accepts, and tokens survive a
// restart.
func TestDevModeSecretIsRandomAndKept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"DEALSPOT_DATA_DIR": dir}
	srv, svc := startService(t, env)
	if svc.Config.JWTSecret != "" {
		t.Fatalf("a default JWT secret is configured: %q", svc.Config.JWTSecret)
	}
	path := filepath.Join(dir, "jwt-secret")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no secret kept in the data directory: %v", err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("secret file mode %v, want 0600", info.Mode().Perm())
	}
	secret, _ := os.ReadFile(path)
	if len(secret) < 32 {
		t.Fatalf("kept secret has %d bytes", len(secret))
	}
	c := client(srv)
	s := login(t, c, "13300001119")

	// A token signed with the once-published development secret is refused.
	forged, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "dealspot", "sub": s.User.ID, "role": "ADMIN", "sid": "x",
		"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString([]byte("dealspot-development-secret-change-me-in-production"))
	_, resp := me(t, c, forged)
	wantCode(t, "token signed with the old published secret", resp, "UNAUTHENTICATED")

	// A restart on the same data directory keeps the secret.
	startService(t, env)
	if again, _ := os.ReadFile(path); string(again) != string(secret) {
		t.Fatal("the kept secret changed at a restart")
	}
}
