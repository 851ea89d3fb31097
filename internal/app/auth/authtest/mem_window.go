package authtest

import (
	"slices"
	"strconv"
	"time"
)

// memWindow is a sliding window of named events, kept as the Redis adapters keep theirs
// (a sorted set scored by the event's time in milliseconds): what MemRateLimiter counts,
// and MemCodeStore counts guesses with.
type memWindow struct {
	events []memEvent // by time, oldest first
}

type memEvent struct {
	at int64 // milliseconds
	id string
}

// allow records event id at now if fewer than limit events are in the window; an event
// exactly one window old has left it. Otherwise it returns how long until one would fit.
func (w *memWindow) allow(now time.Time, window time.Duration, limit int, id string) (bool, time.Duration) {
	at := now.UnixMilli()
	w.events = slices.DeleteFunc(w.events, func(e memEvent) bool { return e.at <= at-window.Milliseconds() })
	n := len(w.events)
	if n < limit {
		i, _ := slices.BinarySearchFunc(w.events, at, func(e memEvent, at int64) int { return int(e.at - at) })
		for i < n && w.events[i].at == at {
			i++
		}
		w.events = slices.Insert(w.events, i, memEvent{at: at, id: id})
		return true, 0
	}
	// The next event fits once enough of the oldest ones have left the window.
	wait := w.events[n-limit].at + window.Milliseconds() - at
	return false, time.Duration(max(wait, 1)) * time.Millisecond
}

// remove forgets event id; an unknown id is no error.
func (w *memWindow) remove(id string) {
	w.events = slices.DeleteFunc(w.events, func(e memEvent) bool { return e.id == id })
}

// memEventIDs names the events of one fake.
type memEventIDs struct{ n int64 }

func (s *memEventIDs) next() string {
	s.n++
	return "e" + strconv.FormatInt(s.n, 10)
}
