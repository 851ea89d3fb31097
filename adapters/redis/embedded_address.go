package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// embeddedAddress is what a process running the embedded server publishes so that
// other processes on the host (`dealspot admin`) reach the same server.
type embeddedAddress struct {
	Addr     string `json:"addr"`
	Password string `json:"password"`
	PID      int    `json:"pid"`
}

// Publish writes the embedded server's address and password to path (mode 0600, only
// the owner may read it), replacing an older file; Close removes it again. It does
// nothing for a real Redis server.
func (c *Conn) Publish(path string) error {
	if c.server == nil {
		return nil
	}
	b, err := json.Marshal(embeddedAddress{Addr: c.Addr, Password: c.Client.(*goredis.Client).Options().Password, PID: os.Getpid()})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("publish embedded redis address: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".redis-address-*")
	if err != nil {
		return fmt.Errorf("publish embedded redis address: %w", err)
	}
	// After the rename the temporary name is gone and this removes nothing.
	defer func() { _ = os.Remove(tmp.Name()) }()
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(b)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("publish embedded redis address: %w", err)
	}
	c.published, c.publishedBody = path, b
	return nil
}

// withdraw removes the file Publish wrote, unless another process has replaced it since.
func (c *Conn) withdraw() {
	if c.published == "" {
		return
	}
	if b, err := os.ReadFile(c.published); err == nil && string(b) == string(c.publishedBody) {
		_ = os.Remove(c.published)
	}
	c.published = ""
}

// attachTimeout bounds how long Attach waits for a published server to answer.
const attachTimeout = 2 * time.Second

// Attach connects to the embedded server another process published at path. ok is false
// when no file is there or its server does not answer (the process has ended); err
// reports an unreadable file.
func Attach(ctx context.Context, path string) (_ *Conn, ok bool, _ error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read embedded redis address: %w", err)
	}
	var a embeddedAddress
	if err := json.Unmarshal(b, &a); err != nil || a.Addr == "" {
		return nil, false, fmt.Errorf("read embedded redis address %s: not an address file", path)
	}
	client := goredis.NewClient(&goredis.Options{Addr: a.Addr, Password: a.Password})
	pctx, cancel := context.WithTimeout(ctx, attachTimeout)
	defer cancel()
	if err := client.Ping(pctx).Err(); err != nil {
		_ = client.Close()
		return nil, false, nil
	}
	return &Conn{Client: client, Addr: a.Addr}, true, nil
}
