package audit

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The cache is trimmed much as the go command trims its build cache,
// though only after it is written (the go command trims after any use).
// Its files are made for a Go release, a platform and the audit's own
// version: a new toolchain or a new toolreg makes new keys, and the old
// files are never read again. So each file the cache answers with has its
// time of modification set to the time of that use (at most once an hour,
// so that most reads cost no write), and after the cache is written (a
// summary built, types made from source) the files unused for trimAge are
// removed, at most once a day (trimInterval; the time of the last trim is
// kept in trim.txt). A file's time lags its last use by up to
// usedInterval, so a file is removed once its time is more than trimAge
// and usedInterval old. Only the cache's own files are removed: regular
// files named as std-KEY.txt, types-KEY.bin or the temporary file of
// either or of trim.txt.
const (
	usedInterval = time.Hour
	trimAge      = 5 * 24 * time.Hour
	trimInterval = 24 * time.Hour
	trimFile     = "trim.txt"
	// tempPattern is what os.CreateTemp adds to a file's name for the
	// temporary file it is written to, then renamed from.
	tempPattern = ".*.tmp"
)

// markUsed sets the modification time of file, whose information is
// info, to now, unless it is within usedInterval of now (a time in the
// future, from a clock set back, is set too). A cache that cannot be
// written is still read: the error is not one.
func markUsed(file string, info fs.FileInfo, now time.Time) {
	if d := now.Sub(info.ModTime()); d > usedInterval || d < -usedInterval {
		_ = os.Chtimes(file, now, now)
	}
}

// trim trims the cache in dir now, and logs why it could not.
func trim(dir string) {
	if err := trimCache(dir, time.Now()); err != nil {
		slog.Debug("audit: the cache is not trimmed", "dir", dir, "err", err)
	}
}

// trimCache removes the cache's files in dir whose time of modification
// is more than trimAge and usedInterval before now, unless dir's trim.txt
// says it did so less than trimInterval before now. The mark is written
// first, to a new file renamed to trim.txt, so that processes at once do
// not all trim and a link named trim.txt is replaced, not followed; where
// it cannot be written, the files are removed all the same. It returns
// the first error that kept it from marking, reading dir or removing a
// file; the files after one it could not remove are still removed.
func trimCache(dir string, now time.Time) error {
	mark := filepath.Join(dir, trimFile)
	// Read as the audit reads a source file: a regular file, never a
	// device or a fifo, and no more than its start.
	if b, _, err := readStart(mark, 64); err == nil {
		if sec, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			if since := now.Sub(time.Unix(sec, 0)); since >= 0 && since < trimInterval {
				return nil
			}
		}
	}
	// A mark that cannot be written (a full disk) does not stop the trim.
	var first error
	if err := writeMark(dir, now); err != nil {
		first = fmt.Errorf("trim the cache: mark it: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("trim the cache: %w", err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !cacheFileName(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) <= trimAge+usedInterval {
			continue // gone since, or in use
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !os.IsNotExist(err) && first == nil {
			first = fmt.Errorf("trim the cache: %w", err)
		}
	}
	return first
}

// writeMark writes now's time to dir's trim.txt: to a new file, renamed.
func writeMark(dir string, now time.Time) error {
	f, err := os.CreateTemp(dir, trimFile+tempPattern)
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, nothing
	_, err = fmt.Fprintf(f, "%d\n", now.Unix())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), filepath.Join(dir, trimFile))
}

// cacheFileName reports whether name is one the cache writes and a trim
// may remove: a summary (std-KEY.txt), a package's types (types-KEY.bin),
// KEY a SHA-256 in hexadecimal, or the temporary file (tempPattern) of
// either or of trim.txt.
func cacheFileName(name string) bool {
	if b, ok := strings.CutSuffix(name, ".tmp"); ok {
		i := strings.LastIndexByte(b, '.')
		if i < 0 {
			return false
		}
		if name = b[:i]; name == trimFile {
			return true
		}
	}
	for _, f := range [...]struct{ prefix, suffix string }{{"std-", ".txt"}, {"types-", ".bin"}} {
		if key, ok := strings.CutPrefix(name, f.prefix); ok {
			key, ok = strings.CutSuffix(key, f.suffix)
			return ok && len(key) == 2*sha256.Size && strings.Trim(key, "0123456789abcdef") == ""
		}
	}
	return false
}
