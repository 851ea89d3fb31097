package redis

import (
	"bufio"
	"context"
	"fmt"
	"strings"
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
func (c *Conn) Persistence(ctx context.Context) (Persistence, error) {
	if c.IsEmbedded() {
		return Persistence{Embedded: true}, nil
	}
	info, err := c.Client.Info(ctx, "persistence").Result()
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
	if cfg, err := c.Client.ConfigGet(ctx, "appendfsync").Result(); err == nil {
		p.AppendFsync = cfg["appendfsync"]
	}
	if cfg, err := c.Client.ConfigGet(ctx, "save").Result(); err == nil {
		if save, ok := cfg["save"]; ok {
			p.Snapshots, p.SnapshotsKnown = strings.TrimSpace(save) != "", true
		}
	}
	return p, nil
}
