//go:build stress

package kafka_test

const fullWatermillSuite = true
