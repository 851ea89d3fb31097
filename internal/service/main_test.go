package service_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// serverBinDir holds the server binary buildServer compiled, if a test asked for it.
var serverBinDir string

func TestMain(m *testing.M) {
	flag.Parse()
	if d := watchdogAfter(); d > 0 {
		t := time.AfterFunc(d, func() { reportStuckTests(d) })
		defer t.Stop()
	}
	code := m.Run()
	if serverBinDir != "" {
		_ = os.RemoveAll(serverBinDir)
	}
	os.Exit(code)
}

// watchdogAfter is how long the package may run before the watchdog names the tests
// still running: a minute before go test's -timeout, whose own report begins with their
// names but ends with thousands of goroutines, so that the last lines of a CI log name
// the test that hangs and where it waits.
func watchdogAfter() time.Duration {
	f := flag.Lookup("test.timeout")
	if f == nil {
		return 0
	}
	d, err := time.ParseDuration(f.Value.String())
	if err != nil || d <= 2*time.Minute {
		return 0
	}
	return d - time.Minute
}

// reportStuckTests prints every goroutine running one of this package's tests, then
// ends the process without the runtime's dump of all goroutines.
func reportStuckTests(after time.Duration) {
	buf := make([]byte, 64<<20)
	buf = buf[:runtime.Stack(buf, true)]
	// Goroutines with the same stack are printed once, with how many there are.
	seen := map[string]int{}
	var order []string
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if !bytes.Contains(g, []byte("service_test.")) {
			continue
		}
		_, stack, _ := bytes.Cut(g, []byte("\n"))
		if seen[string(stack)] == 0 {
			order = append(order, string(g))
		}
		seen[string(stack)]++
	}
	fmt.Fprintf(os.Stderr, "\nWATCHDOG: internal/service tests still running after %v; the goroutines of its tests and their helpers:\n\n", after)
	for _, g := range order {
		_, stack, _ := strings.Cut(g, "\n")
		fmt.Fprintf(os.Stderr, "(%d like this) %s\n\n", seen[stack], g)
	}
	fmt.Fprintf(os.Stderr, "WATCHDOG: %d kinds of goroutine are above; the process ends now.\n", len(order))
	debug.SetTraceback("none")
	os.Exit(3)
}
