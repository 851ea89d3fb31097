//go:build stress

package server_test

import "testing"

// TestFuzzedRequests sends 100,000 mutated requests (issue 11's fuzz run).
func TestFuzzedRequests(t *testing.T) {
	runFuzz(t, 100_000)
}
