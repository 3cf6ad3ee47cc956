package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Beside the workspace's own version-control directories (vcsDirs), a
// worker makes read-only those a hook could be planted in elsewhere in
// the workspace: the git directory a .git file names (a worktree, a
// submodule, a bare repository beside its files) and the repositories
// of its subdirectories (vendored, or a workspace that holds several).
// The pool looks for them once (findNested), when it is made or, where
// none of its tools writes files (Config.NoWriters), when one that does
// first asks for a worker, since a search at each worker's start would
// cost more than the start.

// The bounds of the search: directories nestedDepth levels below the
// workspace at most, nestedDirs of them read at most, nestedMax found at
// most. What lies past them is named in the search's note.
const (
	nestedDepth = 3
	nestedDirs  = 4096
	nestedMax   = 64
)

// nestedScan is what findNested found.
type nestedScan struct {
	dirs []string // absolute, inside the workspace, without duplicates
	// note says what the search left out or cannot protect, for the
	// log; "" when it covered the workspace to nestedDepth and every
	// directory found can be made read-only.
	note string
}

// findNested returns the version-control directories inside workDir
// that a worker makes read-only beside vcsDirs: those of the
// repositories below its top, nestedDepth levels deep at most, and the
// git directories that .git files name, when inside workDir. It follows
// no symbolic link and reads no directory it finds unreadable. It stops
// when ctx ends (the pool closed: nobody needs what it found).
func findNested(ctx context.Context, workDir string) nestedScan {
	// The paths found are those git uses, symbolic links resolved.
	if r, err := filepath.EvalSymlinks(workDir); err == nil {
		workDir = r
	}
	var s nestedScan
	seen := map[string]bool{}
	add := func(p string) {
		if len(s.dirs) >= nestedMax || seen[p] {
			return
		}
		seen[p] = true
		s.dirs = append(s.dirs, p)
	}
	var linked []string
	read, full := 0, false
	type dir struct {
		path  string
		depth int
	}
	queue := []dir{{workDir, 0}}
	for len(queue) > 0 && !full && ctx.Err() == nil {
		d := queue[0]
		queue = queue[1:]
		if read == nestedDirs {
			full = true
			break
		}
		read++
		entries, err := os.ReadDir(d.path)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !isVCSDir(e.Name()) {
				if e.IsDir() && d.depth < nestedDepth {
					queue = append(queue, dir{filepath.Join(d.path, e.Name()), d.depth + 1})
				}
				continue
			}
			// The path is made for these only: a workspace's files are
			// most of what is read, and a path for each was most of
			// what the search allocated.
			p := filepath.Join(d.path, e.Name())
			if d.depth > 0 && (e.IsDir() || e.Type().IsRegular()) {
				add(p)
			}
			if e.Type()&fs.ModeSymlink != 0 {
				// Git follows the link (the layout of Google's
				// repo tool: .git -> ../../.repo/projects/x.git):
				// to a directory, or to a .git file. The link
				// itself cannot be mounted over: a tool that
				// writes may replace it with a directory of its
				// own, which the note says.
				linked = append(linked, p)
				if r, ok := inside(workDir, p); ok {
					add(r)
				} else if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && e.Name() == ".git" {
					for _, g := range gitDirsOf(workDir, p) {
						add(g)
					}
				}
			}
			if e.Name() == ".git" && e.Type().IsRegular() {
				for _, g := range gitDirsOf(workDir, p) {
					add(g)
				}
			}
		}
	}
	var notes []string
	switch {
	case full:
		notes = append(notes, fmt.Sprintf("the workspace holds more than %d directories in its top %d levels; version-control directories past them stay writable for tools with write_files", nestedDirs, nestedDepth))
	case len(s.dirs) >= nestedMax:
		notes = append(notes, fmt.Sprintf("the workspace holds more than %d version-control directories; those past them stay writable for tools with write_files", nestedMax))
	}
	if len(linked) > 0 {
		notes = append(notes, fmt.Sprintf("%s is a symbolic link, which a tool with write_files can replace with a git directory of its own", strings.Join(linked, ", ")))
	}
	s.note = strings.Join(notes, "; ")
	return s
}

// isVCSDir reports whether name is one of vcsDirs.
func isVCSDir(name string) bool {
	for _, v := range vcsDirs {
		if name == v {
			return true
		}
	}
	return false
}

// gitDirsOf returns the git directory that the .git file at file names
// ("gitdir: <path>", relative to the file's directory or absolute) and,
// for a worktree's, the common directory its commondir file names: each
// when it exists inside workDir, as the path git will use, symbolic
// links resolved.
func gitDirsOf(workDir, file string) []string {
	gitdir, ok := readPathFile(file, "gitdir: ")
	if !ok {
		return nil
	}
	dirs := []string{gitdir}
	if !filepath.IsAbs(gitdir) {
		// Relative to the file's directory; for a file reached through a
		// symbolic link, to the link's directory or the file's own:
		// both are looked at.
		dirs = []string{filepath.Join(filepath.Dir(file), gitdir)}
		if real, err := filepath.EvalSymlinks(file); err == nil && filepath.Dir(real) != filepath.Dir(file) {
			dirs = append(dirs, filepath.Join(filepath.Dir(real), gitdir))
		}
	}
	var out []string
	for _, g := range dirs {
		for _, d := range []string{g, commonDirOf(g)} {
			if d == "" {
				continue
			}
			if r, ok := inside(workDir, d); ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// commonDirOf returns the directory the commondir file of the git
// directory gitdir names, or "" when it has none.
func commonDirOf(gitdir string) string {
	c, ok := readPathFile(filepath.Join(gitdir, "commondir"), "")
	if !ok {
		return ""
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitdir, c)
	}
	return c
}

// readPathFile returns the first line of the small regular file at
// name after prefix, which it must start with. It opens without
// blocking and reads nothing but a regular file: a tool that writes may
// leave a fifo where the search reads (a .git file names the directory
// of any commondir), and opening one for reading waits for a writer, for
// good; a symbolic link may name a terminal.
func readPathFile(name, prefix string) (string, bool) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	line, err := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", false
	}
	// Git reads the path as a C string: a NUL ends it.
	line, _, _ = strings.Cut(line, "\x00")
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), prefix)
	if !ok || rest == "" {
		return "", false
	}
	return rest, true
}

// inside returns the directory d, symbolic links resolved, when it
// exists inside workDir (itself resolved).
func inside(workDir, d string) (string, bool) {
	root, err := filepath.EvalSymlinks(workDir)
	if err != nil {
		return "", false
	}
	r, err := filepath.EvalSymlinks(d)
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(r); err != nil || !fi.IsDir() {
		return "", false
	}
	rel, err := filepath.Rel(root, r)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return r, true
}

// vcsAncestors returns the directories strictly between workDir and each
// of dirs, each once, shallowest first; dirs outside workDir have none,
// and so does what lies in a protected directory (one of dirs, or of
// vcsDirs at the top): its read-only mount covers it, and a writable
// mount made there first would stay writable inside it (.git/modules of
// a submodule's .git/modules/sub).
func vcsAncestors(workDir string, dirs []string) []string {
	// findNested's paths have their symbolic links resolved.
	if r, err := filepath.EvalSymlinks(workDir); err == nil {
		workDir = r
	}
	isInside := func(d string) bool {
		rel, err := filepath.Rel(workDir, d)
		return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	var protected []string
	for _, d := range dirs {
		if isInside(d) {
			protected = append(protected, d)
		}
	}
	for _, v := range vcsDirs {
		protected = append(protected, filepath.Join(workDir, v))
	}
	within := func(a string) bool {
		for _, p := range protected {
			if a == p || strings.HasPrefix(a, p+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		if !isInside(d) {
			continue
		}
		rel, _ := filepath.Rel(workDir, d)
		parts := strings.Split(rel, string(filepath.Separator))
		for i := 1; i < len(parts); i++ {
			a := filepath.Join(workDir, filepath.Join(parts[:i]...))
			if !seen[a] && !within(a) {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		return strings.Count(a, string(filepath.Separator)) - strings.Count(b, string(filepath.Separator))
	})
	return out
}
