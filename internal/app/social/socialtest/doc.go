// Package socialtest holds what the tests of the social packages share: the text that no
// field a user writes may hold, the contract suites of the social ports (run on their
// adapters and on the in-memory fakes here) and those fakes. The fake of people.Follows
// is followstest.MemFollows, which serves both sides of social.Follows as the relational
// store does.
package socialtest
