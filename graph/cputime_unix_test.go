//go:build unix

package graph_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used, user and system: on a shared machine
// it tells a benchmark's own work from the time it waited for a core.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
