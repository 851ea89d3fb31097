// Package likestest holds the contract suites of the likes package's ports (the like
// store and the like cache), run on every adapter, and an in-memory fake of each that
// passes its suite.
package likestest
