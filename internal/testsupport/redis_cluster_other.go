//go:build !linux

package testsupport

import "syscall"

// dieWithParent: only Linux has a parent-death signal; elsewhere the masters are stopped
// by the tests' cleanups and StopRedisClusters.
func dieWithParent() *syscall.SysProcAttr { return nil }

// processGone is false where it cannot be told cheaply: stale directories stay.
func processGone(int) bool { return false }
