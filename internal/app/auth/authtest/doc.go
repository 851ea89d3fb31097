// Package authtest holds the contracts of the auth ports: suites every adapter of a port
// runs (and every fake of it, so that fakes cannot drift from the real thing), and the
// in-memory fakes that the use-case tests run on and that pass those suites.
//
// A contract takes a constructor, called once per case, and runs its cases in parallel;
// adapters on a shared server get distinct users, phones and families in every case.
package authtest

import (
	"strconv"
	"sync/atomic"
	"time"
)

// idBase keeps ids apart between runs on one server; idSeq within a run.
var (
	idBase = time.Now().UnixNano() % 1_000_000_000 * 1_000
	idSeq  atomic.Int64
)

// newID returns an id no other case of this run uses.
func newID() int64 { return idBase + idSeq.Add(1) }

// newPhone returns a mobile number no other case of this run uses.
func newPhone() string {
	n := newID() % 100_000_000
	return "139" + strconv.FormatInt(100_000_000+n, 10)[1:]
}
