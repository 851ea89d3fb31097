package redis

import (
	"context"
	"sync"

	goredis "github.com/redis/go-redis/v9"
)

// scanKeys calls fn with every key that matches pattern, count keys per SCAN call. On a
// cluster a SCAN walks one node only, so each master is scanned; fn is called by one
// goroutine at a time all the same. fn's error stops the scan and is returned.
func scanKeys(ctx context.Context, client goredis.UniversalClient, pattern string, count int64, fn func(key string) error) error {
	scan := func(ctx context.Context, c goredis.Cmdable, fn func(key string) error) error {
		iter := c.Scan(ctx, 0, pattern, count).Iterator()
		for iter.Next(ctx) {
			if err := fn(iter.Val()); err != nil {
				return err
			}
		}
		return iter.Err()
	}
	cc, ok := client.(*goredis.ClusterClient)
	if !ok {
		return scan(ctx, client, fn)
	}
	var mu sync.Mutex
	return cc.ForEachMaster(ctx, func(ctx context.Context, master *goredis.Client) error {
		return scan(ctx, master, func(key string) error {
			mu.Lock()
			defer mu.Unlock()
			return fn(key)
		})
	})
}
