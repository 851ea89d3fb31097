package redis

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// The Lua-backed stores take "now" from the caller (ARGV) instead of reading the server
// clock, so every time rule is decided on one clock that tests can move, on the embedded
// server and on real Redis alike. Key expiries only collect garbage.

// millis converts d to whole milliseconds, rounding up so short durations are not lost.
func millis(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}

// eventID returns a random member name for one event in a sliding-window ZSET.
func eventID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
