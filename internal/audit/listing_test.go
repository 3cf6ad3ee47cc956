package audit

import (
	"context"
	"go/build"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeriveMatchesGoList derives the listing of every configuration
// AnalyzeAll considers from the first one's and compares each with the go
// command's own listing of it: the same files, imports of the standard
// library and build tags. The programs: this repository's toolbox (a file
// per platform) and testdata/configs (files for cgo, and a build tag).
//
// With -short, every configuration is still derived, but only some are
// compared with a listing of the go command (shortSample: each cgo
// setting, each system, the build tag), a go command each; without
// -short, as CI runs it, every derived configuration is.
func TestDeriveMatchesGoList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	platforms := []Platform{{"darwin", "amd64"}, {"darwin", "arm64"}, {"linux", "amd64"}, {"linux", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"}}
	for _, dir := range []string{filepath.Join("..", "..", "toolbox"), filepath.Join("testdata", "configs")} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			cands := candidates(platforms)
			cands = append(cands, Config{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Cgo: true, Tags: []string{"audittag"}})
			base, err := listConfig(ctx, dir, cands[0])
			if err != nil {
				t.Fatal(err)
			}
			d := newDeriver(base)
			if !d.ok {
				t.Fatalf("the deriver does not reproduce the go command's listing of %s", cands[0])
			}
			var wg sync.WaitGroup
			derived := 0
			for _, c := range cands[1:] {
				l, ok := d.derive(c)
				if !ok {
					t.Logf("%s: not derived", c)
					continue
				}
				derived++
				if testing.Short() && !shortSample(c) {
					continue
				}
				wg.Go(func() {
					real, err := listConfig(ctx, dir, c)
					if err != nil {
						t.Errorf("%s: %v", c, err)
						return
					}
					if len(real.errs) > 0 {
						t.Errorf("%s: derived, but the go command's listing has errors: %v", c, real.errs)
						return
					}
					if diff := cmp.Diff(summarize(real), summarize(l)); diff != "" {
						t.Errorf("%s: the derived listing differs from the go command's (-go list +derived):\n%s", c, diff)
					}
				})
			}
			wg.Wait()
			if derived < len(cands)/2 {
				t.Errorf("only %d of %d configurations derived", derived, len(cands)-1)
			}
		})
	}
}

// shortSample reports whether TestDeriveMatchesGoList compares c with the
// go command's listing under -short: the host's configurations and the
// build tag's, windows/arm64 with cgo and without, and darwin/amd64
// without cgo.
func shortSample(c Config) bool {
	switch {
	case c.isHost(), c.GOOS == "windows" && c.GOARCH == "arm64":
		return true
	}
	return c.GOOS == "darwin" && c.GOARCH == "amd64" && !c.Cgo
}

// summarize is what a listing says that the audit uses.
func summarize(l *listing) map[string]string {
	out := map[string]string{
		"key": l.key, "std": strings.Join(l.std, " "), "tags": strings.Join(l.tags, " "),
		"cgo": map[bool]string{true: "cgo"}[l.cgo],
	}
	for _, p := range l.pkgs {
		out[p.ImportPath] = strings.Join(withoutC(p.Imports), " ")
	}
	return out
}

// TestUncertainTag checks the tags the deriver leaves to the go command.
func TestUncertainTag(t *testing.T) {
	newest := releaseMinor()
	for tag, want := range map[string]bool{
		"linux": false, "cgo": false, "audittag": false, "go1.21": false,
		"amd64.v3": true, "arm64.v8.1": true, "goexperiment.jsonv2": true,
		"go1.999": true, "go1.x": true,
	} {
		if got := uncertainTag(tag); got != want {
			t.Errorf("uncertainTag(%q) = %v, want %v", tag, got, want)
		}
	}
	tags := build.Default.ReleaseTags
	if newest < 26 || !uncertainTag(tags[len(tags)-1]) {
		t.Errorf("the newest release tag, %s (%d), is not uncertain", tags[len(tags)-1], newest)
	}
}
