//go:build stress

package queue_test

const fullWatermillSuite = true
