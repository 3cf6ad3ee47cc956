//go:build unix && !aix

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
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
// whose pool has not taken it yet. The name is not the one pools used
// before they locked their directories (toolreg-workers-*), so that a
// pool of an earlier version, which holds no lock, never looks stale.
const (
	tempPrefix = "toolreg-pool-"
	newPrefix  = ".toolreg-pool-new-"
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
		// A name of its own, not derived from the hidden one, which
		// whoever watches dir sees and could take first; never in
		// place of what is there.
		for try := 0; err == nil; try++ {
			path = filepath.Join(dir, tempPrefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
			err = renameNoReplace(d, path)
			if err == nil {
				return path, f, nil
			}
			if errors.Is(err, fs.ErrExist) && try < 100 {
				err = nil
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
// this process's effective user and writable by no one else, and
// unlocked (see makeTempParent). It removes nothing where a directory of
// this user's that is not a pool's could be given such a name by someone
// else: in a dir not this user's or root's, or that others may write and
// is not sticky (a directory renamed in place keeps its permissions;
// moved from elsewhere, it must be writable to its mover). Nor where a
// lock is not seen by every machine that may use dir (a network file
// system's: local is localLocks but in tests). It stops once ctx is
// done, leaving the rest for the next sweep, and returns the paths it
// removed.
func sweepStale(ctx context.Context, dir string, log *slog.Logger, local func(dir string) bool) []string {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || (int(sys.Uid) != os.Geteuid() && sys.Uid != 0) ||
		(st.Mode().Perm()&0o022 != 0 && st.Mode()&fs.ModeSticky == 0) {
		log.Debug("sandbox: not removing stale temp directories from a directory others may rename in", "dir", dir)
		return nil
	}
	if !local(dir) {
		log.Debug("sandbox: not removing stale temp directories from a file system whose locks other machines may not see", "dir", dir)
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
		switch err := removeIfStale(ctx, path); {
		case err == nil:
			removed = append(removed, path)
			log.Info("sandbox: removed the workers' temp directory of a pool that ended without closing", "dir", path)
		case errors.Is(err, errNotStale), ctx.Err() != nil:
		default:
			log.Warn("sandbox: removing the workers' temp directory of a pool that ended without closing", "dir", path, "error", err)
		}
	}
	return removed
}

// errNotStale is removeIfStale's answer for a directory it leaves alone.
var errNotStale = errors.New("not a stale directory")

// removeIfStale removes path, holding its lock meanwhile, when it is a
// directory of this process's effective user, writable by no one else,
// that no pool holds locked.
func removeIfStale(ctx context.Context, path string) error {
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
	if !ok || int(sys.Uid) != os.Geteuid() || st.Mode().Perm()&0o022 != 0 {
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
	return removeTreeCtx(ctx, path)
}
