package toolbox

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiskUsageOfHalfFull computes the answer for a filesystem whose used
// space equals its available space (50%, not 0), and for one with more
// available than used (25%).
func TestDiskUsageOfHalfFull(t *testing.T) {
	const gb = 1_000_000_000
	for _, tc := range []struct {
		st   diskStats
		want DiskUsageResult
	}{
		{diskStats{Total: 10 * gb, Free: 5 * gb, Avail: 5 * gb}, DiskUsageResult{MountPoint: "/m", TotalGB: 10, UsedGB: 5, FreeGB: 5, UsedPercent: 50}},
		{diskStats{Total: 8 * gb, Free: 6 * gb, Avail: 6 * gb}, DiskUsageResult{MountPoint: "/m", TotalGB: 8, UsedGB: 2, FreeGB: 6, UsedPercent: 25}},
	} {
		if diff := cmp.Diff(tc.want, diskUsageOf("/m", tc.st)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.st, diff)
		}
	}
}
