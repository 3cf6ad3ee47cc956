//go:build unix

package audit

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRegular checks what ReadRegular and readAsm read: regular files,
// through symbolic links too, and neither a device nor a fifo, which they
// must not open (opening a fifo waits for a writer).
func TestRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file.go")
	if err := os.WriteFile(file, []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{"link.go": file, "device.go": os.DevNull, "fifolink.go": fifo, "dangling.go": filepath.Join(dir, "none.go")}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]bool{
		"file.go": true, "link.go": true,
		"fifo.go": false, "device.go": false, "fifolink.go": false, "dangling.go": false, "none.go": false,
	} {
		path := filepath.Join(dir, name)
		if err := RegularFile(path); (err == nil) != want {
			t.Errorf("RegularFile(%s) = %v, want a regular file: %v", name, err, want)
		}
		for _, read := range []func(string) ([]byte, error){ReadRegular, readAsm} {
			src, err := read(path)
			if (err == nil) != want || want && string(src) != "package p\n" {
				t.Errorf("read %s: %q, %v; want a regular file: %v", name, src, err, want)
			}
		}
	}
}

// TestReadRegularBound checks readRegular's bound at, below and past it,
// and on a file of /proc that says it is regular and empty but gives
// more (a symbolic link to /proc/self/pagemap, gigabytes, ran the audit
// out of memory; /proc/self/smaps stands in for it, which reads
// without alignment).
func TestReadRegularBound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for n, want := range map[int]bool{9: true, 10: true, 11: false} {
		file := filepath.Join(dir, fmt.Sprint(n))
		if err := os.WriteFile(file, bytes.Repeat([]byte("x"), n), 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := readRegular(file, 10)
		if (err == nil) != want || want && len(src) != n {
			t.Errorf("%d bytes under a bound of 10: %d bytes read, error %v; want it read: %v", n, len(src), err, want)
		}
	}
	const smaps = "/proc/self/smaps"
	if fi, err := os.Stat(smaps); err != nil || !fi.Mode().IsRegular() {
		t.Skipf("no %s that says it is a regular file", smaps)
	}
	link := filepath.Join(dir, "smaps.go")
	if err := os.Symlink(smaps, link); err != nil {
		t.Fatal(err)
	}
	if src, err := readRegular(link, 4096); err == nil || !strings.Contains(err.Error(), "larger than 4096 bytes") {
		t.Errorf("a link to %s: %d bytes read, error %v; want one saying it is larger than 4096 bytes", smaps, len(src), err)
	}
}

// TestReadAtMostError checks that a read that fails is an error, not the
// bytes read before or after it: a directory, which opens but does not
// read, and /proc/self/pagemap, which reads only in multiples of 8
// bytes. With a size of 7 its first 8 bytes are read and the rest, read
// as io.ReadAll reads, fails; with a size of 8 the first read, of 9
// bytes, fails, and the reads of the rest would not. And an integer of
// /proc/sys, which says it is empty and reads whole only in its first
// read, reads as os.ReadFile reads it.
func TestReadAtMostError(t *testing.T) {
	t.Parallel()
	f, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int64{0, 4096} {
		if got, err := readAtMost(f, size, maxSource); err == nil {
			t.Errorf("a directory read with a size of %d: %d bytes and no error", size, len(got))
		}
	}
	const pagemap = "/proc/self/pagemap"
	g, err := os.Open(pagemap)
	if err != nil {
		t.Skipf("no %s: %v", pagemap, err)
	}
	defer g.Close()
	for _, c := range []struct{ size, limit int64 }{{7, 1 << 20}, {8, 4095}} {
		if _, err := g.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if got, err := readAtMost(g, c.size, c.limit); err == nil {
			t.Errorf("%s read with a size of %d to a bound of %d: %d bytes and no error", pagemap, c.size, c.limit, len(got))
		}
	}
	const pidMax = "/proc/sys/kernel/pid_max"
	want, err := os.ReadFile(pidMax)
	if err != nil {
		t.Skipf("no %s: %v", pidMax, err)
	}
	h, err := os.Open(pidMax)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if got, err := readAtMost(h, 0, 64); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: %q (%v), want %q as os.ReadFile reads it", pidMax, got, err, want)
	}
}
