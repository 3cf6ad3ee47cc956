//go:build !linux && !darwin

package toolbox

import (
	"errors"
	"runtime"
)

// diskStatfs is not implemented on this operating system.
func diskStatfs(string) (diskStats, error) {
	return diskStats{}, errors.New("disk usage is not supported on " + runtime.GOOS + "; it works on linux and darwin")
}
