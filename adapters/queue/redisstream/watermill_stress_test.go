//go:build stress

package redisstream_test

const fullWatermillSuite = true
