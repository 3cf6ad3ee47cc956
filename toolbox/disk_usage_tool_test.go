package toolbox

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiskUsageArithmetic(t *testing.T) {
	const gb = 1_000_000_000
	tests := []struct {
		name  string
		args  DiskUsageArgs
		stats diskStats
		want  DiskUsageResult
	}{
		{
			name:  "default mount point",
			stats: diskStats{Total: 100 * gb, Free: 40 * gb, Avail: 40 * gb},
			want:  DiskUsageResult{MountPoint: "/", TotalGB: 100, UsedGB: 60, FreeGB: 40, UsedPercent: 60},
		},
		{
			name:  "reserved blocks count as neither used nor free",
			args:  DiskUsageArgs{MountPoint: "/data"},
			stats: diskStats{Total: 100 * gb, Free: 50 * gb, Avail: 45 * gb},
			want:  DiskUsageResult{MountPoint: "/data", TotalGB: 100, UsedGB: 50, FreeGB: 45, UsedPercent: 52.6},
		},
		{
			name:  "rounding to one decimal",
			args:  DiskUsageArgs{MountPoint: "/home/"},
			stats: diskStats{Total: 499_963_174_912, Free: 123_456_789_012, Avail: 100_000_000_000},
			want:  DiskUsageResult{MountPoint: "/home", TotalGB: 500, UsedGB: 376.5, FreeGB: 100, UsedPercent: 79},
		},
		{
			name:  "empty filesystem",
			args:  DiskUsageArgs{MountPoint: " /mnt "},
			stats: diskStats{Total: 64_000_000, Free: 64_000_000, Avail: 64_000_000},
			want:  DiskUsageResult{MountPoint: "/mnt", TotalGB: 0.1, UsedGB: 0, FreeGB: 0.1, UsedPercent: 0},
		},
		{
			name:  "full filesystem",
			args:  DiskUsageArgs{MountPoint: "/full"},
			stats: diskStats{Total: 10 * gb, Free: gb / 2, Avail: 0},
			want:  DiskUsageResult{MountPoint: "/full", TotalGB: 10, UsedGB: 9.5, FreeGB: 0, UsedPercent: 100},
		},
		{
			name:  "pseudo filesystem without blocks",
			args:  DiskUsageArgs{MountPoint: "/proc"},
			stats: diskStats{},
			want:  DiskUsageResult{MountPoint: "/proc"},
		},
		{
			name:  "inconsistent counts do not underflow",
			args:  DiskUsageArgs{MountPoint: "/odd"},
			stats: diskStats{Total: gb, Free: 2 * gb, Avail: 3 * gb},
			want:  DiskUsageResult{MountPoint: "/odd", TotalGB: 1, UsedGB: 0, FreeGB: 1, UsedPercent: 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked string
			d := DiskUsage{statfs: func(p string) (diskStats, error) {
				asked = p
				return tt.stats, nil
			}}
			got, err := d.Execute(context.Background(), tt.args)
			if err != nil {
				t.Fatalf("Execute(%+v) error: %v", tt.args, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Execute(%+v) (-want +got):\n%s", tt.args, diff)
			}
			if asked != tt.want.MountPoint {
				t.Errorf("statfs asked about %q, want %q", asked, tt.want.MountPoint)
			}
		})
	}
}

func TestDiskUsageErrors(t *testing.T) {
	tests := []struct {
		name     string
		path     string
		statErr  error
		contains []string
		is       error
	}{
		{"relative path", "data", nil, []string{`"data"`, "absolute", "/"}, nil},
		{"windows path", `C:\`, nil, []string{`"C:\\"`, "absolute"}, nil},
		{"missing", "/nope", syscall.ENOENT, []string{`"/nope"`, "does not exist"}, fs.ErrNotExist},
		{"through a file", "/etc/passwd/x", syscall.ENOTDIR, []string{`"/etc/passwd/x"`, "not a directory"}, syscall.ENOTDIR},
		{"permission", "/root/secret", syscall.EACCES, []string{`"/root/secret"`, "permission denied"}, fs.ErrPermission},
		{"other", "/weird", syscall.EIO, []string{`"/weird"`, "cannot inspect"}, syscall.EIO},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := DiskUsage{statfs: func(string) (diskStats, error) {
				if tt.statErr == nil {
					t.Error("statfs called for an invalid path")
				}
				return diskStats{}, tt.statErr
			}}
			got, err := d.Execute(context.Background(), DiskUsageArgs{MountPoint: tt.path})
			if err == nil {
				t.Fatalf("Execute(%q) = %+v, want an error", tt.path, got)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
		})
	}
}

// TestDiskUsageReal asks the operating system about real directories.
func TestDiskUsageReal(t *testing.T) {
	if _, err := diskStatfs("/"); err != nil {
		t.Skipf("statfs is not available here: %v", err)
	}
	dir := t.TempDir()
	for _, p := range []string{"", "/", dir} {
		got, err := DiskUsage{}.Execute(context.Background(), DiskUsageArgs{MountPoint: p})
		if err != nil {
			t.Fatalf("Execute(%q) error: %v", p, err)
		}
		want := p
		if want == "" {
			want = "/"
		}
		if got.MountPoint != want {
			t.Errorf("Execute(%q).MountPoint = %q, want %q", p, got.MountPoint, want)
		}
		// Each value is rounded on its own, so allow for that.
		if got.TotalGB < 0 || got.UsedGB < 0 || got.FreeGB < 0 || got.UsedGB+got.FreeGB > got.TotalGB+0.2 {
			t.Errorf("Execute(%q) = %+v: sizes are inconsistent", p, got)
		}
		if got.UsedPercent < 0 || got.UsedPercent > 100 {
			t.Errorf("Execute(%q).UsedPercent = %v, want 0..100", p, got.UsedPercent)
		}
	}

	missing := filepath.Join(dir, "does-not-exist")
	_, err := DiskUsage{}.Execute(context.Background(), DiskUsageArgs{MountPoint: missing})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Execute(%q) error = %v, want one saying it does not exist", missing, err)
	}

	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = DiskUsage{}.Execute(context.Background(), DiskUsageArgs{MountPoint: filepath.Join(file, "below")})
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Execute below a file: error = %v, want one saying not a directory", err)
	}
}
