//go:build stress

package service_test

import "time"

// The stress build keeps services away as long as the fault scenarios describe.
func init() { faultOutage = 10 * time.Second }

func init() { serverKills = 5 }
