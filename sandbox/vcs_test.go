package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mkTree makes the directories and files of tree under root: a name
// ending in "/" is a directory, "a -> b" a symbolic link, "name: text" a
// file holding text.
func mkTree(t testing.TB, root string, tree ...string) {
	t.Helper()
	for _, e := range tree {
		var err error
		switch {
		case strings.Contains(e, " -> "):
			name, target, _ := strings.Cut(e, " -> ")
			err = os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
			if err == nil {
				err = os.Symlink(target, filepath.Join(root, name))
			}
		case strings.Contains(e, ": "):
			name, text, _ := strings.Cut(e, ": ")
			err = os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
			if err == nil {
				err = os.WriteFile(filepath.Join(root, name), []byte(text), 0o644)
			}
		default:
			err = os.MkdirAll(filepath.Join(root, e), 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestFindNested(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	mkTree(t, outside, "elsewhere.git/hooks/")
	cases := []struct {
		name string
		tree []string
		want []string // relative to the workspace, sorted
		note string   // in the note, "" for none
	}{
		{"the workspace's own are left to vcsDirs", []string{".git/hooks/", ".hg/", "src/"}, nil, ""},
		{"a repository in a subdirectory", []string{"vendor/lib/.git/hooks/", "vendor/lib/main.go: package lib"}, []string{"vendor/lib/.git"}, ""},
		{"three levels down, and not four", []string{"a/b/c/.git/", "a/b/c/d/.hg/", "x/.svn/"}, []string{"a/b/c/.git", "x/.svn"}, ""},
		{"nothing inside a repository's own directory", []string{"r/.git/modules/m/.git/"}, []string{"r/.git"}, ""},
		{"the git directory a .git file names, relative", []string{".git: gitdir: .bare\n", ".bare/hooks/"}, []string{".bare"}, ""},
		{"a submodule's .git file and the directory it names", []string{".git/modules/m/hooks/", "m/.git: gitdir: ../.git/modules/m"}, []string{".git/modules/m", "m/.git"}, ""},
		{"a worktree's git directory and its common directory", []string{"main/.git/worktrees/w/commondir: ../..\n", "w/.git: gitdir: ../main/.git/worktrees/w"}, []string{"main/.git", "main/.git/worktrees/w", "w/.git"}, ""},
		{"a git directory outside the workspace is not its to protect", []string{".git: gitdir: " + filepath.Join(outside, "elsewhere.git")}, nil, ""},
		{"a .git file of something else", []string{".git: not a gitdir line", "b/.git: gitdir: missing"}, []string{"b/.git"}, ""},
		{"no symbolic link is followed", []string{"link -> " + outside, "inner/.git/", "loop -> ."}, []string{"inner/.git"}, ""},
		// As git reads them.
		{"a .git that is a symbolic link to its git directory", []string{".repo/projects/lib.git/hooks/", "vendor/lib/.git -> ../../.repo/projects/lib.git"}, []string{".repo/projects/lib.git"}, "vendor/lib/.git is a symbolic link"},
		{"a .git link out of the workspace", []string{"x/.git -> " + filepath.Join(outside, "elsewhere.git")}, nil, "x/.git is a symbolic link"},
		{"the top .git a symbolic link to a .git file", []string{".b2/hooks/", "c/gitfile: gitdir: ../.b2\n", ".git -> c/gitfile"}, []string{".b2"}, "/.git is a symbolic link"},
		{"a .git file whose path a NUL ends", []string{".b1/hooks/", "a/.git: gitdir: ../.b1\x00junk\n"}, []string{".b1", "a/.git"}, ""},
		{"a .git file with CRLF", []string{".b3/hooks/", "d/.git: gitdir: ../.b3\r\n"}, []string{".b3", "d/.git"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			mkTree(t, root, c.tree...)
			got := findNested(context.Background(), root)
			if (c.note == "") != (got.note == "") || !strings.Contains(got.note, c.note) {
				t.Errorf("note %q, want one with %q", got.note, c.note)
			}
			real, err := filepath.EvalSymlinks(root)
			if err != nil {
				t.Fatal(err)
			}
			var rel []string
			for _, d := range got.dirs {
				r, err := filepath.Rel(root, d)
				if strings.HasPrefix(r, "..") {
					r, err = filepath.Rel(real, d)
				}
				if err != nil {
					t.Fatal(err)
				}
				rel = append(rel, r)
			}
			slices.Sort(rel)
			if diff := cmp.Diff(c.want, rel); diff != "" {
				t.Errorf("found (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFindNestedBounds: the search stops at nestedMax directories found
// and nestedDirs read, and says so; one fewer of either is no note. Each
// case searches the workspace of the case before it with what it lacks
// added.
func TestFindNestedBounds(t *testing.T) {
	t.Parallel()
	root, made := t.TempDir(), 0
	for _, c := range []struct {
		repos    int
		wantN    int
		wantNote string
	}{
		{nestedMax - 1, nestedMax - 1, ""},
		{nestedMax, nestedMax, fmt.Sprintf("more than %d version-control", nestedMax)},
		{nestedMax + 1, nestedMax, fmt.Sprintf("more than %d version-control", nestedMax)},
	} {
		for ; made < c.repos; made++ {
			mkTree(t, root, fmt.Sprintf("r%03d/.git/", made))
		}
		got := findNested(context.Background(), root)
		if len(got.dirs) != c.wantN || (c.wantNote == "") != (got.note == "") || !strings.Contains(got.note, c.wantNote) {
			t.Errorf("%d repositories: found %d, note %q; want %d, a note with %q", c.repos, len(got.dirs), got.note, c.wantN, c.wantNote)
		}
	}
	// Directories read: the workspace and its subdirectories, nestedDirs
	// in all at most; a repository past the budget is not found.
	root, made = t.TempDir(), 0
	for _, c := range []struct {
		subdirs  int
		wantNote bool
	}{
		{nestedDirs - 1, false},
		{nestedDirs, true},
	} {
		for ; made < c.subdirs; made++ {
			if err := os.Mkdir(filepath.Join(root, fmt.Sprintf("d%05d", made)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if c.wantNote {
			// In the last subdirectory, which the search reads last.
			mkTree(t, root, fmt.Sprintf("d%05d/.git/", made-1))
		}
		got := findNested(context.Background(), root)
		if (got.note != "") != c.wantNote || (c.wantNote && !strings.Contains(got.note, fmt.Sprintf("more than %d directories", nestedDirs))) {
			t.Errorf("%d subdirectories: note %q, want one: %v", c.subdirs, got.note, c.wantNote)
		}
		if len(got.dirs) != 0 {
			t.Errorf("%d subdirectories: found %q past the budget", c.subdirs, got.dirs)
		}
	}
}

// TestStaleBeforeTheSearch: a worker started before the search for
// nested repositories ended has none of them read-only, so it cannot
// serve a tool that writes once the search ended.
func TestStaleBeforeTheSearch(t *testing.T) {
	t.Parallel()
	const git = 1 // vcsDirs[0]
	for _, c := range []struct {
		started, present uint8
		want             bool
	}{
		{git, git, false},
		{git, git | nestedKnown, true},
		{git | nestedKnown, git | nestedKnown, false},
		{nestedKnown, git | nestedKnown, true},
		{0, 0, false},
	} {
		if got := stale(&worker{vcs: c.started}, c.present); got != c.want {
			t.Errorf("started with %08b, present %08b: stale %v, want %v", c.started, c.present, got, c.want)
		}
	}
}

func TestVCSAncestors(t *testing.T) {
	t.Parallel()
	w := t.TempDir()
	real, err := filepath.EvalSymlinks(w)
	if err != nil {
		t.Fatal(err)
	}
	j := func(p ...string) string { return filepath.Join(append([]string{real}, p...)...) }
	// What lies in a protected directory (the top's .git, a nested
	// .git) has its read-only mount: no ancestor there.
	got := vcsAncestors(w, []string{j("a", "b", ".git"), j(".bare"), j("a", "c", ".hg"), j(".git", "modules", "m"), j("x", ".git"), j("x", ".git", "modules", "n"), "/elsewhere/.git", real})
	want := []string{j("a"), j("x"), j("a", "b"), j("a", "c")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("vcsAncestors (-want +got):\n%s", diff)
	}
}

// TestFindNestedStopsWithItsContext: the pool's Close ends the search,
// which it waits for (agent call in /usr waited 50-150 ms for it at
// exit): with its context ended, nothing more is read.
func TestFindNestedStopsWithItsContext(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mkTree(t, root, "a/.git/", "b/c/.git/")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := findNested(ctx, root); len(got.dirs) != 0 || got.note != "" {
		t.Errorf("an ended search found %q, note %q; want nothing", got.dirs, got.note)
	}
	if got := findNested(context.Background(), root); len(got.dirs) != 2 {
		t.Errorf("the control found %q; want a/.git and b/c/.git", got.dirs)
	}
}

// BenchmarkFindNested searches a workspace of 20 packages of 40 files
// and 4 directories each, one of them a repository of its own.
func BenchmarkFindNested(b *testing.B) {
	root := b.TempDir()
	var tree []string
	for i := range 20 {
		for j := range 40 {
			tree = append(tree, fmt.Sprintf("pkg%d/file%d.go: package pkg", i, j))
		}
		for j := range 4 {
			tree = append(tree, fmt.Sprintf("pkg%d/dir%d/", i, j))
		}
	}
	tree = append(tree, "pkg3/.git/")
	mkTree(b, root, tree...)
	want := []string{filepath.Join(root, "pkg3", ".git")}
	if got := findNested(context.Background(), root).dirs; !slices.Equal(got, want) {
		b.Fatalf("findNested: %q, want %q", got, want)
	}
	b.ReportAllocs()
	for b.Loop() {
		findNested(context.Background(), root)
	}
}
