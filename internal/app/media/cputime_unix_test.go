//go:build unix

package media_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system, every thread.
func processCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
