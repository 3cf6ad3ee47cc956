package audit

import (
	"context"
	"go/build"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// hostListings lists the packages of testdata/probes and testdata/honest
// as built for the host with one go command, where each audit of them
// would ask for its own (a go command is most of a small audit's time),
// and returns the listing of each as listConfig makes it, by its
// absolute directory; it also asks, with one go command, for the export
// data of the standard library's packages they import. A package whose listing cannot be made that way (one
// with cgo's files, which need -compiled) is left out, and listed by its
// audit as usual.
var hostListings = sync.OnceValues(func() (map[string]*listing, error) {
	var dirs []string
	for _, parent := range []string{"probes", "honest"} {
		entries, err := os.ReadDir(filepath.Join("testdata", parent))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() {
				dirs = append(dirs, "./"+filepath.ToSlash(filepath.Join("testdata", parent, e.Name())))
			}
		}
	}
	c := Config{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Cgo: build.Default.CgoEnabled}
	args := append(append([]string{"-deps", "-json=" + listFields + ",Deps"}, c.flags()...), dirs...)
	pkgs, err := goList(context.Background(), ".", c.env(), args...)
	if err != nil {
		return nil, err
	}
	all, err := splitListing(c, pkgs)
	if err != nil {
		return nil, err
	}
	// The types of their standard-library packages, made with one go
	// command too, which the audits then find in sourceTypes (or, with
	// cgo's files, in goExports).
	std, goroot := map[string]bool{}, ""
	for _, l := range all {
		for _, path := range l.std {
			std[path] = true
		}
		goroot = l.goroot
	}
	origin, err := stdOriginOf()
	if err != nil {
		return nil, err
	}
	if _, _, err := stdExports(context.Background(), ".", goroot, c.env(), nil, sortedKeys(std), nil, origin); err != nil {
		return nil, err
	}
	return all, nil
})

// splitListing returns the listing of each package of pkgs that no
// other imports (a root of the go command's listing of several
// packages), by its directory: its dependencies in the go command's
// order, itself last.
func splitListing(c Config, pkgs []*listedPackage) (map[string]*listing, error) {
	imported := map[string]bool{}
	for _, p := range pkgs {
		for _, d := range p.Deps {
			imported[d] = true
		}
	}
	out := map[string]*listing{}
	for _, root := range pkgs {
		if imported[root.ImportPath] || root.Standard {
			continue
		}
		var mine []*listedPackage
		for _, p := range pkgs {
			if p == root || slices.Contains(root.Deps, p.ImportPath) {
				mine = append(mine, p)
			}
		}
		if slices.ContainsFunc(mine, generatesGo) {
			continue
		}
		l, err := newListing(c, mine)
		if err != nil {
			return nil, err
		}
		out[root.Dir] = l
	}
	return out, nil
}

// TestSplitListing checks that the listing of a probe split from the
// listing of them all is the listing of its own go command.
func TestSplitListing(t *testing.T) {
	all, err := hostListings()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"appendkeep", "httpdir"} {
		dir, err := filepath.Abs(filepath.Join("testdata", "probes", name))
		if err != nil {
			t.Fatal(err)
		}
		split := all[dir]
		if split == nil {
			t.Fatalf("%s: no listing of its own in the split", name)
		}
		own, err := listConfig(t.Context(), dir, split.config)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(own, split, cmp.AllowUnexported(listing{}), cmpopts.EquateEmpty(), cmpopts.IgnoreFields(listedPackage{}, "Deps"), cmpopts.IgnoreFields(listing{}, "stdPkgs")); diff != "" {
			t.Errorf("%s: split listing differs from its own (-own +split):\n%s", name, diff)
		}
		// The standard library's packages, each after its imports in
		// both, in orders of their own.
		byPath := cmpopts.SortSlices(func(a, b *listedPackage) bool { return a.ImportPath < b.ImportPath })
		if diff := cmp.Diff(own.stdPkgs, split.stdPkgs, byPath, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(listedPackage{}, "Deps")); diff != "" {
			t.Errorf("%s: the standard library of the split listing differs from its own (-own +split):\n%s", name, diff)
		}
		if len(own.stdPkgs) == 0 {
			t.Errorf("%s: its own listing keeps no package of the standard library", name)
		}
	}
}
