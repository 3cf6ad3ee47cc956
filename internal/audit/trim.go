package audit

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The cache is trimmed as the go command trims its build cache. Its files
// are made for a Go release, a platform and the audit's own version: a
// new toolchain or a new toolreg makes new keys, and the old files are
// never read again. So each file the cache answers with has its time of
// modification set to the time of that use (at most once an hour, so that
// reading costs no write), and a write to the cache removes the files
// unused for trimAge, at most once a day (trimInterval; the time of the
// last trim is kept in trim.txt). Only the cache's own files are removed:
// regular files named as std-*.txt, types-*.bin or their temporary files.
const (
	usedInterval = time.Hour
	trimAge      = 5 * 24 * time.Hour
	trimInterval = 24 * time.Hour
	trimFile     = "trim.txt"
)

// markUsed sets the modification time of file, whose information is
// info, to now, unless it was set within usedInterval. A cache that
// cannot be written is still read: the error is not one.
func markUsed(file string, info fs.FileInfo, now time.Time) {
	if now.Sub(info.ModTime()) > usedInterval {
		_ = os.Chtimes(file, now, now)
	}
}

// trimCache removes the cache's files in dir whose time of modification
// is more than trimAge before now, unless dir's trim.txt says it did so
// less than trimInterval before now. It returns the first error that kept
// it from reading dir or removing a file; the files after it are still
// trimmed.
func trimCache(dir string, now time.Time) error {
	mark := filepath.Join(dir, trimFile)
	if b, err := os.ReadFile(mark); err == nil {
		if sec, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			if since := now.Sub(time.Unix(sec, 0)); since >= 0 && since < trimInterval {
				return nil
			}
		}
	}
	// The mark first: processes that write at once do not all trim.
	if err := os.WriteFile(mark, fmt.Appendf(nil, "%d\n", now.Unix()), 0o600); err != nil {
		return fmt.Errorf("trim the cache: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("trim the cache: %w", err)
	}
	var first error
	for _, e := range entries {
		if !e.Type().IsRegular() || !cacheFileName(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) <= trimAge {
			continue // gone since, or in use
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !os.IsNotExist(err) && first == nil {
			first = fmt.Errorf("trim the cache: %w", err)
		}
	}
	return first
}

// cacheFileName reports whether name is one the cache writes: a summary
// (std-KEY.txt), a package's types (types-KEY.bin), or the temporary file
// of either (NAME.RANDOM.tmp, writeSealed), KEY a SHA-256 in hexadecimal.
func cacheFileName(name string) bool {
	if b, ok := strings.CutSuffix(name, ".tmp"); ok {
		i := strings.LastIndexByte(b, '.')
		if i < 0 {
			return false
		}
		name = b[:i]
	}
	for _, f := range [...]struct{ prefix, suffix string }{{"std-", ".txt"}, {"types-", ".bin"}} {
		if key, ok := strings.CutPrefix(name, f.prefix); ok {
			key, ok = strings.CutSuffix(key, f.suffix)
			return ok && len(key) == 2*sha256.Size && strings.Trim(key, "0123456789abcdef") == ""
		}
	}
	return false
}
