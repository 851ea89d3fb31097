package redis

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	goredis "github.com/redis/go-redis/v9"

	"github.com/dealspot/dealspot/internal/app/regen"
)

// GenerationKey holds the generation marker: a random value set once per life of the
// Redis data. It has no expiry, so volatile-* eviction policies never take it; when it is
// gone, Redis lost its data (or evicted it under allkeys-*), and the derived structures
// are rebuilt.
const GenerationKey = "dealspot:generation"

// GenerationSlotMarkers is how many more marker keys a Redis Cluster holds besides
// GenerationKey, with hash tags spread evenly over the 16,384 slots (one in every 256), so
// that every master serving a run of 256 slots or more holds at least one of them. A master
// that restarts empty loses its markers, which changes the generation: one key on one
// master would only notice that master.
const GenerationSlotMarkers = 64

// clusterSlots is the number of hash slots of a Redis Cluster.
const clusterSlots = 16384

// generationSlotKeys are the cluster's extra marker keys, dealspot:generation:{g<n>},
// the i-th in slots [i·256, (i+1)·256).
var generationSlotKeys = spreadGenerationKeys(GenerationSlotMarkers)

// GenerationMarker reads and sets the generation marker. On a single server it is one key,
// GenerationKey; on a Redis Cluster it is GenerationKey plus GenerationSlotMarkers keys
// spread over the slots, and the generation is a digest of all their values, so losing any
// of them (its master came back empty) is a new generation.
type GenerationMarker struct {
	client goredis.UniversalClient
	keys   []string
}

var _ regen.Marker = (*GenerationMarker)(nil)

// NewGenerationMarker returns the marker on client.
func NewGenerationMarker(client goredis.UniversalClient) *GenerationMarker {
	return &GenerationMarker{client: client, keys: GenerationKeys(client)}
}

// GenerationKeys are the keys of the marker on client: GenerationKey, and on a Redis
// Cluster the keys spread over its slots.
func GenerationKeys(client goredis.UniversalClient) []string {
	if _, cluster := client.(*goredis.ClusterClient); !cluster {
		return []string{GenerationKey}
	}
	return append([]string{GenerationKey}, generationSlotKeys...)
}

// Read implements regen.Marker: one pipelined GET per key (a cluster client sends each
// master its own part); "" when any key is missing.
func (g *GenerationMarker) Read(ctx context.Context) (string, error) {
	values, err := g.read(ctx)
	if err != nil {
		return "", fmt.Errorf("read redis generation: %w", err)
	}
	return generationOf(values), nil
}

// Claim implements regen.Marker with SET NX on every key, then GET: each key keeps the
// first value set on it, so nodes claiming together read the same values.
func (g *GenerationMarker) Claim(ctx context.Context) (string, error) {
	for range 3 {
		cmds, err := g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for _, k := range g.keys {
				p.SetNX(ctx, k, rand.Text(), 0)
			}
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("set redis generation: %w", firstError(cmds, err))
		}
		values, err := g.read(ctx)
		if err != nil {
			return "", fmt.Errorf("set redis generation: %w", err)
		}
		if v := generationOf(values); v != "" {
			return v, nil
		}
		// Gone again between SET NX and GET (another wipe): try again.
	}
	return "", errors.New("set redis generation: the marker keeps disappearing")
}

// read returns the keys' values, "" for a missing key.
func (g *GenerationMarker) read(ctx context.Context) ([]string, error) {
	cmds, err := g.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, k := range g.keys {
			p.Get(ctx, k)
		}
		return nil
	})
	if err != nil && !errors.Is(err, goredis.Nil) {
		return nil, firstError(cmds, err)
	}
	values := make([]string, len(cmds))
	for i, c := range cmds {
		v, err := c.(*goredis.StringCmd).Result()
		switch {
		case errors.Is(err, goredis.Nil):
		case err != nil:
			return nil, err
		default:
			values[i] = v
		}
	}
	return values, nil
}

// generationOf is the generation the values make: the value itself for one key, a digest
// of them all for several, "" when any is missing.
func generationOf(values []string) string {
	for _, v := range values {
		if v == "" {
			return ""
		}
	}
	if len(values) == 1 {
		return values[0]
	}
	h := sha256.New()
	for _, v := range values {
		h.Write([]byte(v))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:26]
}

// firstError is the first failed command's error in a pipeline, else err.
func firstError(cmds []goredis.Cmder, err error) error {
	for _, c := range cmds {
		if e := c.Err(); e != nil && !errors.Is(e, goredis.Nil) {
			return e
		}
	}
	return err
}

// spreadGenerationKeys returns n keys dealspot:generation:{g<j>}, the i-th hashing to a
// slot in [i·16384/n, (i+1)·16384/n).
func spreadGenerationKeys(n int) []string {
	keys := make([]string, n)
	found := 0
	for j := 0; found < n; j++ {
		tag := "g" + strconv.Itoa(j)
		i := int(KeySlot(tag)) * n / clusterSlots
		if keys[i] == "" {
			keys[i] = GenerationKey + ":{" + tag + "}"
			found++
		}
	}
	return keys
}

// KeySlot is the Redis Cluster hash slot of key (CRC16-XMODEM of its hash tag, or of the
// whole key without one, mod 16384), as CLUSTER KEYSLOT answers.
func KeySlot(key string) uint16 {
	if s := strings.IndexByte(key, '{'); s >= 0 {
		if e := strings.IndexByte(key[s+1:], '}'); e > 0 {
			key = key[s+1 : s+1+e]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc % clusterSlots
}
