// Package followstest holds the contract suites of the follows package's ports (the
// follows, their Redis mirror, the feed inboxes and the fan-out queue), run on every
// adapter, and an in-memory fake of each that passes its suite. MemFollows also serves
// the people package's side of social.Follows and passes socialtest.PeopleFollowsContract.
package followstest
