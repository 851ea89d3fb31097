package service

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/dealspot/dealspot/internal/config"
)

// jwtSecretFile is where dev mode keeps the secret it generated, under the data directory.
const jwtSecretFile = "jwt-secret"

// jwtSecret returns the configured JWT secret or, in dev mode without one, a random
// secret generated at the first start and kept in the data directory (mode 0600), so that
// no published secret ever signs tokens and tokens survive restarts.
func jwtSecret(cfg config.Config) ([]byte, error) {
	if cfg.JWTSecret != "" {
		return []byte(cfg.JWTSecret), nil
	}
	if !cfg.Dev {
		return nil, errors.New("JWT_SECRET: required outside dev mode")
	}
	path := filepath.Join(cfg.DataDir, jwtSecretFile)
	secret, err := os.ReadFile(path)
	if err == nil && len(secret) >= 32 {
		return secret, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read the dev-mode JWT secret: %w", err)
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("keep the dev-mode JWT secret: %w", err)
	}
	b := make([]byte, 48)
	_, _ = rand.Read(b)
	secret = []byte(base64.RawURLEncoding.EncodeToString(b))
	// O_EXCL: when two processes start at once, one writes and both read its secret.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return readKeptSecret(path)
	}
	if err != nil {
		return nil, fmt.Errorf("keep the dev-mode JWT secret: %w", err)
	}
	_, err = f.Write(secret)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return nil, fmt.Errorf("keep the dev-mode JWT secret: %w", err)
	}
	return secret, nil
}

func readKeptSecret(path string) ([]byte, error) {
	secret, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the dev-mode JWT secret: %w", err)
	}
	if len(secret) < 32 {
		return nil, fmt.Errorf("dev-mode JWT secret %s is shorter than 32 bytes; delete it to make a new one", path)
	}
	return secret, nil
}
