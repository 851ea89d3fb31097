// Package authtest holds the contracts of the auth ports: suites every adapter of a port
// runs (and every fake of it, so that fakes cannot drift from the real thing), and the
// in-memory fakes that the use-case tests run on and that pass those suites.
//
// A contract takes a constructor, called once per case, and runs its cases in parallel;
// adapters on a shared server get distinct users, phones and families in every case.
package authtest

import (
	"strconv"

	"github.com/dealspot/dealspot/internal/app/contracttest"
)

// newID returns an id no other case of this run uses.
func newID() int64 { return contracttest.NewID() }

// newPhone returns a mobile number no other case of this run uses.
func newPhone() string {
	n := newID() % 100_000_000
	return "139" + strconv.FormatInt(100_000_000+n, 10)[1:]
}
