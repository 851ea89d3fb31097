//go:build !unix

package media_test

import "time"

// processCPU is not measured here: cpu-s/op reads 0.
func processCPU() time.Duration { return 0 }
