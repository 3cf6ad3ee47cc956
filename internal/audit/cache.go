package audit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// The standard-library summary of a release or platform other than
// stdsummary.txt's is built on the machine (about a minute), then kept in
// the user's cache directory, so that it is built once per Go
// installation and not at every go generate:
//
//	$TOOLREG_CACHE, or os.UserCacheDir()/toolreg, /audit/std-<key>.txt
//
// (TOOLREG_CACHE=off keeps nothing). The key is a SHA-256 of everything
// the summary is a function of: the audit itself (its classification
// tables and the summary that ships, which changes with the analysis),
// the Go release, GOROOT and its VERSION file (for a toolchain built from
// source, which has none, the size and time of every file of
// $GOROOT/src), the platform, and the environment variables that choose
// the standard library's files (CGO_ENABLED, GOEXPERIMENT, GOFLAGS,
// GOAMD64, GOARM64).
//
// A cached summary hides capabilities if it is wrong, so it is used only
// when every check holds, and built again otherwise: the file is a
// regular file owned by the user, writable by no one else (on Unix); its
// first line names the key, its second the SHA-256 of the rest, which
// must match (a file cut short or changed is refused); the rest parses
// and is for this release and platform; and it classifies, as every
// summary does, a few functions whose capabilities are certain (os.Setenv
// reaches env, (*os/exec.Cmd).Start exec, and so on). A file is written
// to a temporary name in the same directory and renamed, so a reader
// never sees half of one. Like the go command's build cache, the
// directory must be as trusted as the user's own files: whoever can write
// there can replace the summary with one that passes these checks. Files
// unused for five days are removed (trim.go).

// summaryFormat is the version of the cache's file format.
const summaryFormat = "toolreg std summary 7" // 2: methods keyed by one spelling of their signature (writeTypeKey); 3: the methods of named basic types (os.DirFS); 4: the stores of init functions (os.Args); 5: a capability rule of a package is added to what its functions reach, not put in its place (net/http.Dir.Open); 6: the types of the variables the keeps name (%vartype: log.std, which the types the audit loads need not declare); 7: %vartype spelled by typeKey (aliases followed, byte as uint8)

// sentinels are functions every summary classifies so: a summary that
// does not is refused.
var sentinels = map[string]tool.Capability{
	"(*os/exec.Cmd).Start": tool.Exec,
	"os.StartProcess":      tool.Exec,
	"net.Dial":             tool.Network,
	"os.WriteFile":         tool.WriteFiles,
	"os.ReadFile":          tool.ReadFiles,
	"os.Getenv":            tool.Env,
	"os.Setenv":            tool.Env,
}

// summaryCache keeps built summaries in dir ("" keeps nothing).
type summaryCache struct {
	dir   string
	key   string
	build func(context.Context) (string, error)
}

// defaultCache is the user's cache of summaries for this release and
// platform.
func defaultCache() *summaryCache {
	return &summaryCache{dir: cacheDir(), key: summaryKey(), build: BuildStdSummary}
}

// cacheDir is the directory of the cache, or "" for none.
func cacheDir() string {
	dir := os.Getenv("TOOLREG_CACHE")
	switch dir {
	case "off":
		return ""
	case "":
		user, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(user, "toolreg")
	}
	return filepath.Join(dir, "audit")
}

// summaryKey is the SHA-256 of what the summary of this release and
// platform is a function of.
func summaryKey() string {
	h := sha256.New()
	fmt.Fprintln(h, summaryFormat)
	// The audit: its tables and the summary that ships.
	fmt.Fprintln(h, pkgRules, asmPkgRules, asmPrefixRules, funcRules, reflectCallers, reflectCalls,
		templateDataArg, openFlagArg, sourceArg, rawSyscallFuncs, sysRules, ioctlSafe, writeFlags)
	fmt.Fprintf(h, "%x\n", sha256.Sum256([]byte(stdSummaryText)))
	// The standard library.
	goroot := build.Default.GOROOT
	fmt.Fprintln(h, runtime.Version(), runtime.GOOS, runtime.GOARCH, goroot)
	if v, err := os.ReadFile(filepath.Join(goroot, "VERSION")); err == nil {
		h.Write(v)
	} else {
		// A toolchain built from source: its files are its version.
		filepath.WalkDir(filepath.Join(goroot, "src"), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if info, err := d.Info(); err == nil {
				fmt.Fprintln(h, path, info.Size(), info.ModTime().UnixNano())
			}
			return nil
		})
	}
	for _, v := range []string{"CGO_ENABLED", "GOEXPERIMENT", "GOFLAGS", "GOAMD64", "GOARM64"} {
		fmt.Fprintf(h, "%s=%q\n", v, os.Getenv(v))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// get returns the summary: the cached one if it passes every check, or
// one built now, which it caches.
func (c *summaryCache) get(ctx context.Context) (*summary, error) {
	if c.dir != "" {
		if s, err := c.read(); err == nil {
			return s, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			slog.Debug("audit: the cached standard-library summary is not used; building it again", "err", err)
		}
	}
	text, err := c.build(ctx)
	if err != nil {
		return nil, err
	}
	s, err := parseSummary(text)
	if err != nil {
		return nil, err
	}
	if c.dir != "" && s.sane() == nil {
		if err := c.write(text); err != nil {
			slog.Debug("audit: the standard-library summary is not cached", "err", err)
		}
		trim(c.dir)
	}
	return s, nil
}

// path is the file of the cache's summary.
func (c *summaryCache) path() string {
	return filepath.Join(c.dir, "std-"+c.key+".txt")
}

// read returns the cached summary, or why it is not used.
func (c *summaryCache) read() (*summary, error) {
	body, err := readSealed(c.path(), summaryFormat+" "+c.key)
	if err != nil {
		return nil, err
	}
	s, err := parseSummary(string(body))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.path(), err)
	}
	if s.header != platform() {
		return nil, fmt.Errorf("%s: a summary of %s, not %s", c.path(), s.header, platform())
	}
	if err := s.sane(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.path(), err)
	}
	return s, nil
}

// write caches text, atomically.
func (c *summaryCache) write(text string) error {
	return writeSealed(c.dir, c.path(), summaryFormat+" "+c.key, []byte(text))
}

// readSealed returns the body of file, a file of the cache that
// writeSealed wrote with head, or why it is not used: it is not a regular
// file of the user's that no one else can write (trusted), its first line
// is not head, or its second is not the SHA-256 of the rest, the body.
func readSealed(file, head string) ([]byte, error) {
	return readSealedMax(file, head, maxSealed)
}

// maxSealed bounds a file of the cache readSealed reads (a summary is
// about 640 KB, a package's types less): a link to a file of /proc,
// regular and the user's, could give gigabytes.
const maxSealed = 64 << 20

// readSealedMax is readSealed for a file of at most max bytes.
func readSealedMax(file, head string, max int64) ([]byte, error) {
	f, err := openRead(file) // a fifo planted there does not block
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil {
		if terr := trusted(info); terr != nil {
			err = fmt.Errorf("%s: %w", file, terr)
		}
	}
	var buf []byte
	if err == nil {
		buf, err = readAtMost(f, info.Size(), max)
	}
	if err == nil && int64(len(buf)) > max {
		err = fmt.Errorf("%s is larger than %d bytes, more than a file of the cache", file, max)
	}
	// Closed before markUsed: on Windows a file open for reading cannot
	// have its times set.
	f.Close()
	if err != nil {
		return nil, err
	}
	first, rest, _ := bytes.Cut(buf, []byte("\n"))
	sum, body, _ := bytes.Cut(rest, []byte("\n"))
	if string(first) != head {
		return nil, fmt.Errorf("%s: its first line is not %q", file, head)
	}
	if want := fmt.Sprintf("sha256 %x", sha256.Sum256(body)); string(sum) != want {
		return nil, fmt.Errorf("%s: its contents do not match their checksum", file)
	}
	markUsed(file, info, time.Now())
	return body, nil
}

// writeSealed writes file, in dir, with head and body as readSealed
// reads them: to a temporary name in dir, renamed, so that a reader never
// sees half of one.
func writeSealed(dir, file, head string, body []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, filepath.Base(file)+tempPattern)
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, nothing
	_, err = fmt.Fprintf(f, "%s\nsha256 %x\n", head, sha256.Sum256(body))
	if err == nil {
		_, err = f.Write(body)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), file)
}

// sane checks the sentinels.
func (s *summary) sane() error {
	var bad []string
	for key, want := range sentinels {
		if got, _ := s.caps(key); got&want != want {
			bad = append(bad, fmt.Sprintf("%s reaches %s, not %s", key, got, want))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("not a summary of the standard library: %s", strings.Join(bad, "; "))
	}
	return nil
}
