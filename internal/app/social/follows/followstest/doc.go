// Package followstest holds the contract suites of the follows package's ports (the
// follows, their Redis mirror, the feed inboxes and the fan-out queue), run on every
// adapter, and an in-memory fake of each that passes its suite.
package followstest
