//go:build unix

package audit

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRegular checks what readSource reads: regular files, through
// symbolic links too, and neither a device nor a fifo, which it must not
// open (opening a fifo waits for a writer).
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
		if err := regular(path); (err == nil) != want {
			t.Errorf("regular(%s) = %v, want a regular file: %v", name, err, want)
		}
		src, err := readSource(path)
		if (err == nil) != want || want && string(src) != "package p\n" {
			t.Errorf("readSource(%s) = %q, %v; want a regular file: %v", name, src, err, want)
		}
	}
}
