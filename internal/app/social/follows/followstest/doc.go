// Package followstest holds the contract suites of the follows package's ports (the
// follows, their Redis mirror, the feed inboxes, the fan-out queue and the blogs feeds
// read), run on every adapter, and an in-memory fake of each that passes its suite (the
// blogs' is socialtest.MemBlogs; follows.Users is people.Users cut down, held by
// socialtest.PeopleUsersContract). MemFollows also serves the people package's side of
// social.Follows and passes socialtest.PeopleFollowsContract.
package followstest
