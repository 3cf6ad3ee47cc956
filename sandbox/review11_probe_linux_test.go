//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// review11Probe runs the r11_ probes of an eleventh hostile-author
// review. ok is false for another id.
func review11Probe(ctx context.Context, fullID string, raw []byte) (text string, err error, ok bool) {
	id, a, err, ok := probeOf[r9Args]("r11_", fullID, raw)
	if !ok || err != nil {
		return "", err, ok
	}
	switch id {
	case "r11_inotify":
		// Up to a.N inotify instances, held for the call: the kernel
		// counts them per user, machine-wide (128 by default).
		return holdMany(a.N, "inotify_init1", func() (int, error) { return unix.InotifyInit1(unix.IN_CLOEXEC) })
	case "r11_watch":
		// What an honest tool that reads files does with inotify: an
		// instance, and a watch on a.Path that sees a file made there.
		fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
		if err != nil {
			return "", errnoOp("inotify_init1", err), true
		}
		defer unix.Close(fd)
		if _, err := unix.InotifyAddWatch(fd, a.Path, unix.IN_CREATE); err != nil {
			return "", errnoOp("inotify_add_watch", err), true
		}
		f, err := os.CreateTemp(a.Path, "seen")
		if err != nil {
			return "", err, true
		}
		f.Close()
		os.Remove(f.Name())
		buf := make([]byte, 4096)
		n, err := unix.Read(fd, buf)
		if err != nil || n < unix.SizeofInotifyEvent {
			return "", fmt.Errorf("read %d bytes of events: %v", n, err), true
		}
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[0]))
		if ev.Mask&unix.IN_CREATE == 0 {
			return "", fmt.Errorf("event %#x, want IN_CREATE", ev.Mask), true
		}
		return "seen", nil, true
	}
	return "", fmt.Errorf("no probe %q", id), true
}

// holdMany makes up to n objects with mk, closes them all, and says how
// many it made.
func holdMany(n int, what string, mk func() (int, error)) (string, error, bool) {
	var fds []int
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	for i := range n {
		fd, err := mk()
		if err != nil {
			if i == 0 {
				return "", errnoOp(what, err), true
			}
			return fmt.Sprintf("%d made, then %s", i, errnoName(err)), nil, true
		}
		fds = append(fds, fd)
	}
	return fmt.Sprintf("%d made", n), nil, true
}
