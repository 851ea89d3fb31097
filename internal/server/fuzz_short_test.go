//go:build !stress

package server_test

import "testing"

// TestFuzzedRequests is the short, deterministic fuzz run of the default tests; the
// stress build runs 100,000 requests.
func TestFuzzedRequests(t *testing.T) {
	runFuzz(t, 1500)
}
