package localcache_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/dealspot/dealspot/adapters/localcache"
)

func newCache(t *testing.T, max int) *localcache.Cache {
	t.Helper()
	c, err := localcache.New(max)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func TestCacheStoresTypedValues(t *testing.T) {
	t.Parallel()
	type row struct{ Name string }
	c := newCache(t, 100)
	c.Set("shop:1", row{"Tea"}, time.Minute)
	v, ok := c.Get("shop:1")
	if !ok || v.(row).Name != "Tea" {
		t.Fatalf("Get = %v, %v", v, ok)
	}
	if _, ok := c.Get("shop:2"); ok {
		t.Error("Get of an absent key hit")
	}
	c.Delete("shop:1")
	if _, ok := c.Get("shop:1"); ok {
		t.Error("Get after Delete hit")
	}
}

func TestCacheEntriesExpireByTheirOwnTTL(t *testing.T) {
	t.Parallel()
	c := newCache(t, 100)
	c.Set("short", 1, 50*time.Millisecond)
	c.Set("long", 2, time.Minute)
	c.Set("none", 3, 0)
	if _, ok := c.Get("none"); ok {
		t.Error("an entry with no TTL was stored")
	}
	time.Sleep(100 * time.Millisecond)
	if _, ok := c.Get("short"); ok {
		t.Error("short entry outlived its TTL")
	}
	if _, ok := c.Get("long"); !ok {
		t.Error("long entry expired early")
	}
	// Rewriting an entry restarts its TTL.
	c.Set("long", 4, 50*time.Millisecond)
	time.Sleep(100 * time.Millisecond)
	if _, ok := c.Get("long"); ok {
		t.Error("rewritten entry kept its old TTL")
	}
}

func TestCacheIsBounded(t *testing.T) {
	t.Parallel()
	c := newCache(t, 100)
	for i := range 2000 {
		c.Set(strconv.Itoa(i), i, time.Minute)
	}
	deadline := time.Now().Add(time.Second)
	for c.Len() > 100 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := c.Len(); n > 100 {
		t.Errorf("Len = %d, want at most 100", n)
	}
}

func TestCacheClear(t *testing.T) {
	t.Parallel()
	c := newCache(t, 100)
	for i := range 10 {
		c.Set(strconv.Itoa(i), i, time.Minute)
	}
	c.Clear()
	for i := range 10 {
		if _, ok := c.Get(strconv.Itoa(i)); ok {
			t.Fatalf("entry %d survived Clear", i)
		}
	}
}

func TestNewRefusesNoCapacity(t *testing.T) {
	t.Parallel()
	if _, err := localcache.New(0); err == nil {
		t.Error("New(0) succeeded")
	}
}
