package graph

import (
	"container/list"
	"context"
	"sync"
)

// persistedQueryLRU keeps persisted queries by hash, at most maxEntries of them and at
// most maxBytes of hash and text in all (0: no byte bound); the least recently used go
// first. A document larger than the whole budget is not kept.
type persistedQueryLRU struct {
	mu         sync.Mutex
	maxEntries int
	maxBytes   int64
	bytes      int64
	order      *list.List // front: most recently used; values are *lruEntry
	byHash     map[string]*list.Element
}

type lruEntry struct{ hash, query string }

func (e *lruEntry) size() int64 { return int64(len(e.hash) + len(e.query)) }

func newPersistedQueryLRU(maxEntries int, maxBytes int64) *persistedQueryLRU {
	return &persistedQueryLRU{maxEntries: max(maxEntries, 1), maxBytes: maxBytes, order: list.New(), byHash: map[string]*list.Element{}}
}

// Get returns the query kept under hash.
func (c *persistedQueryLRU) Get(_ context.Context, hash string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byHash[hash]
	if !ok {
		return "", false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry).query, true
}

// Add keeps query under hash, dropping the least recently used past the bounds.
func (c *persistedQueryLRU) Add(_ context.Context, hash, query string) {
	e := &lruEntry{hash: hash, query: query}
	if c.maxBytes > 0 && e.size() > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byHash[hash]; ok {
		c.bytes -= el.Value.(*lruEntry).size()
		el.Value = e
		c.order.MoveToFront(el)
	} else {
		c.byHash[hash] = c.order.PushFront(e)
	}
	c.bytes += e.size()
	for c.order.Len() > c.maxEntries || (c.maxBytes > 0 && c.bytes > c.maxBytes) {
		old := c.order.Back()
		oe := old.Value.(*lruEntry)
		c.order.Remove(old)
		delete(c.byHash, oe.hash)
		c.bytes -= oe.size()
	}
}

// Len is the number of documents kept.
func (c *persistedQueryLRU) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// Bytes is the size of the hashes and texts kept.
func (c *persistedQueryLRU) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
