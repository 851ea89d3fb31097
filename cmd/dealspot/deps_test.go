package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The server binary carries no test-only code: every package it links is compiled on a
// first `go run`, so test helpers and fakes would only make that slower.
func TestServerBinaryLeavesTestOnlyPackagesOut(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	testOnly := []string{
		"/internal/testsupport",
		"github.com/twmb/franz-go", // kfake, the in-process Kafka of the tests
		"github.com/stretchr/testify",
		"github.com/ThreeDotsLabs/watermill/pubsub/tests",
		"net/http/httptest",
		"testing",
	}
	for _, p := range strings.Fields(string(out)) {
		for _, bad := range testOnly {
			if p == bad || strings.HasPrefix(p, bad+"/") || strings.HasSuffix(p, bad) {
				t.Errorf("the server links %s, which only tests need", p)
			}
		}
	}
}
