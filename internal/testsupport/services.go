// Package testsupport gives tests isolated access to the real services they need.
// A service's address comes from the environment; when it is unset the test skips with a
// one-line reason, except under CI=true, where a missing service fails the test.
package testsupport

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	_ "github.com/lib/pq" // PostgreSQL driver for creating scratch databases
	goredis "github.com/redis/go-redis/v9"
)

// Environment variables naming the services tests may use.
const (
	EnvPostgres = "TEST_DATABASE_URL"
	EnvRedis    = "TEST_REDIS_URL"
	EnvAMQP     = "TEST_AMQP_URL"
)

// Require returns the value of env, or skips (fails under CI=true) when it is unset.
func Require(t testing.TB, env string) string {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set, but CI=true requires the service", env)
		}
		t.Skipf("%s not set; skipping test that needs the real service", env)
	}
	return v
}

// RandomSuffix returns n random hex characters.
func RandomSuffix(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:n]
}

// PostgresURL creates a fresh database on the server named by TEST_DATABASE_URL, drops it
// when the test ends, and returns its URL.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := Require(t, EnvPostgres)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvPostgres, err)
	}
	admin, err := sql.Open("postgres", base)
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	name := "dealspot_test_" + RandomSuffix(12)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("postgres", base)
		if err != nil {
			return
		}
		defer db.Close()
		_, _ = db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
	})
	u.Path = "/" + name
	return u.String()
}

// RedisURL reserves one logical database (1–15) on the server named by TEST_REDIS_URL for
// the test, empties it, and returns its URL. The reservation is a lock key in DB 0 with an
// expiry, so parallel test binaries never share a database and a crashed run frees its
// database after a while.
func RedisURL(t testing.TB) string {
	t.Helper()
	base := Require(t, EnvRedis)
	opts, err := goredis.ParseURL(base)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvRedis, err)
	}
	opts.DB = 0
	ctl := goredis.NewClient(opts)
	defer ctl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	token := RandomSuffix(16)
	for {
		for db := 1; db <= 15; db++ {
			lock := "dealspot:test:dblock:" + strconv.Itoa(db)
			ok, err := ctl.SetNX(ctx, lock, token, 10*time.Minute).Result()
			if err != nil {
				t.Fatalf("reserve redis db: %v", err)
			}
			if !ok {
				continue
			}
			opts.DB = db
			c := goredis.NewClient(opts)
			err = c.FlushDB(ctx).Err()
			_ = c.Close()
			if err != nil {
				t.Fatalf("flush redis db %d: %v", db, err)
			}
			t.Cleanup(func() {
				c := goredis.NewClient(opts)
				_ = c.FlushDB(context.Background()).Err()
				_ = c.Close()
				o := *opts
				o.DB = 0
				ctl := goredis.NewClient(&o)
				defer ctl.Close()
				if v, _ := ctl.Get(context.Background(), lock).Result(); v == token {
					ctl.Del(context.Background(), lock)
				}
			})
			u, _ := url.Parse(base)
			u.Path = "/" + strconv.Itoa(db)
			return u.String()
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no free redis test database after waiting: %v", fmt.Errorf("all 15 reserved"))
		case <-time.After(200 * time.Millisecond):
		}
	}
}
