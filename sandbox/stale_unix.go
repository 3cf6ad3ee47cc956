//go:build unix

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// A pool's directory for its workers' temp directories (tempPrefix*) is
// locked, with flock on the directory itself, for as long as the pool
// lives. The kernel drops the lock with the last descriptor of it, so
// when the process ends without Close (SIGKILL, a crash, the OOM killer)
// the directory is left unlocked, and a later pool that finds it so
// removes it (sweepStale): what that pool's tools wrote there is not left
// in the temp directory for good.
//
// The directory is made under a name no sweep reads (newPrefix*), locked,
// and only then renamed: a sweep can never take the lock of a directory
// whose pool has not taken it yet.
const (
	tempPrefix = "toolreg-workers-"
	newPrefix  = ".toolreg-workers-new-"
)

// makeTempParent makes and locks the pool's directory for its workers'
// temp directories in dir. Closing lock, once the directory is removed,
// lets it go.
func makeTempParent(dir string) (path string, lock io.Closer, err error) {
	d, err := os.MkdirTemp(dir, newPrefix)
	if err != nil {
		return "", nil, err
	}
	f, err := os.Open(d)
	if err == nil {
		err = flock(f, unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			path = filepath.Join(dir, tempPrefix+strings.TrimPrefix(filepath.Base(d), newPrefix))
			if err = os.Rename(d, path); err == nil {
				return path, f, nil
			}
		}
		f.Close()
	}
	_ = os.Remove(d)
	return "", nil, err
}

// flock calls flock(2) on f, again when a signal interrupts it.
func flock(f *os.File, how int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = unix.Flock(int(fd), how)
			if ferr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	if ferr != nil {
		return fmt.Errorf("flock %s: %w", f.Name(), ferr)
	}
	return nil
}

// sweepStale removes the directories of dir that pools ended without
// Close left: named tempPrefix*, directories (not links to one), owned by
// this process's effective user, and unlocked (see makeTempParent). It
// reads nothing in a directory others may rename entries of (writable by
// others and not sticky): there the name it checked need not be the one
// it removes. It stops between directories once ctx is done, and returns
// the paths it removed.
func sweepStale(ctx context.Context, dir string, log *slog.Logger) []string {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil
	}
	if st.Mode().Perm()&0o002 != 0 && st.Mode()&fs.ModeSticky == 0 {
		log.Debug("sandbox: not removing stale temp directories from a directory anyone may rename in", "dir", dir)
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if ctx.Err() != nil {
			break
		}
		if !strings.HasPrefix(e.Name(), tempPrefix) || !e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		switch err := removeIfStale(path); {
		case err == nil:
			removed = append(removed, path)
			log.Info("sandbox: removed the workers' temp directory of a pool that ended without closing", "dir", path)
		case errors.Is(err, errNotStale):
		default:
			log.Warn("sandbox: removing the workers' temp directory of a pool that ended without closing", "dir", path, "error", err)
		}
	}
	return removed
}

// errNotStale is removeIfStale's answer for a directory it leaves alone.
var errNotStale = errors.New("not a stale directory")

// removeIfStale removes path, holding its lock meanwhile, when it is a
// directory of this process's effective user that no pool holds locked.
func removeIfStale(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return errNotStale // gone, a link, or not ours to read
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return errNotStale
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || int(sys.Uid) != os.Geteuid() {
		return errNotStale
	}
	if err := flock(f, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return errNotStale // a live pool's, or another sweep's
	}
	// The name may have been renamed away, by this user alone, since it
	// was opened: remove it only if it still names what is locked.
	now, err := os.Lstat(path)
	if err != nil || !os.SameFile(st, now) {
		return errNotStale
	}
	return removeTree(path)
}
