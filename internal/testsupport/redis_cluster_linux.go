package testsupport

import (
	"errors"
	"syscall"
)

// dieWithParent makes a child process get SIGKILL when the thread that started it ends
// (spawn starts children from a thread that lives as long as the test binary).
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// processGone reports whether no process has the id pid.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
