//go:build !stress

package amqp_test

// fullWatermillSuite runs Watermill's contract with its full message counts; the
// stress build tag turns it on.
const fullWatermillSuite = false
