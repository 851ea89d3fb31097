//go:build stress

package memory_test

const fullWatermillSuite = true
