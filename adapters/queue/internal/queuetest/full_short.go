//go:build !stress

package queuetest

// FullSuite runs Watermill's contract with its full message counts; the stress build
// tag turns it on.
const FullSuite = false
