package redis

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"sync"

	goredis "github.com/redis/go-redis/v9"
)

// Persistence is what a Redis server keeps on disk.
type Persistence struct {
	// Embedded is the in-process server, which keeps nothing on disk (development).
	Embedded bool
	// AOF is whether the append-only file is on (appendonly yes).
	AOF bool
	// AppendFsync is the AOF's fsync policy (always, everysec, no); "" when unknown.
	AppendFsync string
	// Snapshots is whether RDB save points are configured; SnapshotsKnown is false when
	// the server refused CONFIG GET (managed services often rename it).
	Snapshots      bool
	SnapshotsKnown bool
}

// Persistence reads the server's persistence settings: INFO persistence for the AOF,
// CONFIG GET for the fsync policy and the RDB save points where the server allows it.
// On a cluster every master is read and the weakest answer is reported: AOF only when
// all have it, and the fsync policy or save points only when all agree.
func (c *Conn) Persistence(ctx context.Context) (Persistence, error) {
	if c.IsEmbedded() {
		return Persistence{Embedded: true}, nil
	}
	cc, ok := c.Client.(*goredis.ClusterClient)
	if !ok {
		return serverPersistence(ctx, c.Client)
	}
	var (
		mu    sync.Mutex
		nodes []Persistence
	)
	err := cc.ForEachMaster(ctx, func(ctx context.Context, m *goredis.Client) error {
		p, err := serverPersistence(ctx, m)
		mu.Lock()
		nodes = append(nodes, p)
		mu.Unlock()
		return err
	})
	if err != nil || len(nodes) == 0 {
		return Persistence{}, err
	}
	all := nodes[0]
	for _, p := range nodes[1:] {
		all.AOF = all.AOF && p.AOF
		if p.AppendFsync != all.AppendFsync {
			all.AppendFsync = ""
		}
		if p.SnapshotsKnown != all.SnapshotsKnown || p.Snapshots != all.Snapshots {
			all.Snapshots, all.SnapshotsKnown = false, false
		}
	}
	return all, nil
}

func serverPersistence(ctx context.Context, client goredis.UniversalClient) (Persistence, error) {
	info, err := client.Info(ctx, "persistence").Result()
	if err != nil {
		return Persistence{}, fmt.Errorf("read redis persistence: %w", err)
	}
	var p Persistence
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		if k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":"); ok && k == "aof_enabled" {
			p.AOF = v == "1"
		}
	}
	if cfg, err := client.ConfigGet(ctx, "appendfsync").Result(); err == nil {
		p.AppendFsync = cfg["appendfsync"]
	}
	if cfg, err := client.ConfigGet(ctx, "save").Result(); err == nil {
		if save, ok := cfg["save"]; ok {
			p.Snapshots, p.SnapshotsKnown = strings.TrimSpace(save) != "", true
		}
	}
	return p, nil
}
