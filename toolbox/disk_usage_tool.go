package toolbox

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// DiskUsage reports how full a mounted filesystem is.
//
// Its zero value asks the operating system.
type DiskUsage struct {
	// statfs reports the filesystem holding a path; nil means the
	// operating system's. Tests set it.
	statfs func(path string) (diskStats, error)
}

// DiskUsageArgs are the arguments the model sends.
type DiskUsageArgs struct {
	// Absolute path of the mount point to inspect, for example / or /data; any path inside a filesystem also works. / when left out.
	MountPoint string `json:"mount_point,omitempty" jsonschema:"maxLength=4096"`
}

// DiskUsageResult is the answer: sizes in GB of 10^9 bytes, rounded to one
// decimal.
type DiskUsageResult struct {
	// MountPoint is the path that was inspected.
	MountPoint string `json:"mount_point"`
	// TotalGB is the size of the filesystem.
	TotalGB float64 `json:"total_gb"`
	// UsedGB is the space in use.
	UsedGB float64 `json:"used_gb"`
	// FreeGB is the space still available to ordinary users.
	FreeGB float64 `json:"free_gb"`
	// UsedPercent is the share of the usable space in use, as df reports
	// it: used / (used + free).
	UsedPercent float64 `json:"used_percent"`
}

// Definition describes the tool.
func (DiskUsage) Definition() tool.Definition {
	return tool.Definition{
		ID:           "disk_usage",
		Description:  "Report total, used and free space of a mounted filesystem in GB (10^9 bytes), and the percent used. Use it for questions like how much disk is left or whether a disk is full; not for the size of one file or directory.",
		Timeout:      5 * time.Second,
		Capabilities: tool.ReadFiles,
	}
}

// Execute reports the filesystem that holds args.MountPoint.
func (d DiskUsage) Execute(ctx context.Context, args DiskUsageArgs) (DiskUsageResult, error) {
	if err := ctx.Err(); err != nil {
		return DiskUsageResult{}, err
	}
	p := strings.TrimSpace(args.MountPoint)
	if p == "" {
		p = "/"
	}
	if !strings.HasPrefix(p, "/") {
		return DiskUsageResult{}, fmt.Errorf("mount point %q is not an absolute path: give one that starts with /, such as / or /home", p)
	}
	p = filepath.Clean(p)
	stat := d.statfs
	if stat == nil {
		stat = diskStatfs
	}
	st, err := stat(p)
	switch {
	case errors.Is(err, syscall.ENOENT):
		return DiskUsageResult{}, fmt.Errorf("mount point %q does not exist: give an existing directory such as / or /home: %w", p, err)
	case errors.Is(err, syscall.ENOTDIR):
		return DiskUsageResult{}, fmt.Errorf("mount point %q goes through something that is not a directory: give an existing directory such as / or /home: %w", p, err)
	case errors.Is(err, syscall.EACCES):
		return DiskUsageResult{}, fmt.Errorf("mount point %q cannot be read (permission denied): try its parent directory or /: %w", p, err)
	case err != nil:
		return DiskUsageResult{}, fmt.Errorf("cannot inspect mount point %q: %w", p, err)
	}
	return diskUsageOf(p, st), nil
}

// diskUsageOf turns the statistics of a filesystem into the tool's answer.
func diskUsageOf(mountPoint string, st diskStats) DiskUsageResult {
	free := min(st.Free, st.Total)
	avail := min(st.Avail, free)
	used := st.Total - free
	var pct float64
	if used+avail > 0 {
		pct = float64(used) / float64(used+avail) * 100
	}
	return DiskUsageResult{
		MountPoint:  mountPoint,
		TotalGB:     diskRound1(float64(st.Total) / 1e9),
		UsedGB:      diskRound1(float64(used) / 1e9),
		FreeGB:      diskRound1(float64(avail) / 1e9),
		UsedPercent: diskRound1(pct),
	}
}

// diskRound1 rounds x to one decimal.
func diskRound1(x float64) float64 {
	return math.Round(x*10) / 10
}
