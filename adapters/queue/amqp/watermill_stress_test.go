//go:build stress

package amqp_test

const fullWatermillSuite = true
