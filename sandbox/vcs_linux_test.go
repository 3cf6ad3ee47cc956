//go:build linux

package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// TestNestedSearchedOnlyForWriters: the search for nested repositories
// reads up to nestedDirs directories, 4-6 ms of the processor in this
// project's repository, and ran as each pool was made; only workers of
// tools that write files need what it finds. It still does by default;
// with NoWriters, a pool whose calls are of tools that do not write
// never searches, the first worker of a tool that writes is started
// once the search has ended, with what it found
// (TestNestedVersionControlReadOnly checks the mounts), and a pool
// closed before any search refuses such a tool at once.
func TestNestedSearchedOnlyForWriters(t *testing.T) {
	t.Parallel()
	d := newDirs(t)
	if err := os.MkdirAll(filepath.Join(d.work, "sub", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	// By default the search starts as the pool is made.
	eager := newPool(t, d, nil)
	select {
	case <-eager.nestedDone:
	case <-time.After(10 * time.Second):
		t.Fatal("a pool without NoWriters did not search as it was made")
	}

	p := newPool(t, d, func(c *Config) { c.NoWriters = true })
	ctx := context.Background()
	for _, caps := range []tool.Capability{0, tool.ReadFiles, tool.Network | tool.Exec | tool.Unsafe} {
		if got, err := p.Call(ctx, "echo", caps, []byte("hi")); err != nil || got != "hi" {
			t.Fatalf("echo with %s: %q, %v", caps, got, err)
		}
	}
	p.mu.Lock()
	asked := p.nestedAsked
	p.mu.Unlock()
	if asked {
		t.Error("a pool whose tools do not write asked for the search for nested repositories")
	}
	select {
	case <-p.nestedDone:
		t.Error("a pool whose tools do not write searched for nested repositories")
	default:
	}

	// The search is held until the test lets it go: no worker of a tool
	// that writes is ready meanwhile.
	release := make(chan struct{})
	p.mu.Lock()
	p.search = func(ctx context.Context, dir string) nestedScan {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return findNested(ctx, dir)
	}
	p.mu.Unlock()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	warmed := make(chan error, 1)
	go func() { warmed <- p.Warm(wctx, "echo", tool.WriteFiles) }()
	for asked := false; !asked; {
		p.mu.Lock()
		asked = p.nestedAsked
		p.mu.Unlock()
		if !asked && wctx.Err() != nil {
			t.Fatal("a tool that writes did not ask for the search")
		}
		time.Sleep(time.Millisecond)
	}
	// Time for a wrong answer to come: not a bound on a speed.
	time.Sleep(50 * time.Millisecond)
	select {
	case err := <-warmed:
		t.Fatalf("a worker of a tool that writes was ready (%v) while the search was held", err)
	default:
	}
	close(release)
	if err := <-warmed; err != nil {
		t.Fatal(err)
	}
	work, err := filepath.EvalSymlinks(d.work)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{filepath.Join(work, "sub", ".git")}, p.nested.dirs); diff != "" {
		t.Errorf("the nested repositories found (-want +got):\n%s", diff)
	}
	p.mu.Lock()
	var vcs []uint8
	for w := range p.live {
		if w.key.caps&tool.WriteFiles != 0 {
			vcs = append(vcs, w.vcs)
		}
	}
	p.mu.Unlock()
	if len(vcs) != 1 || vcs[0]&nestedKnown == 0 {
		t.Errorf("the workers of the tool that writes were started knowing the nested repositories: %08b; want one, with nestedKnown", vcs)
	}

	closed := newPool(t, newDirs(t), func(c *Config) { c.NoWriters = true })
	closed.Close()
	_, err = closed.Call(wctx, "echo", tool.WriteFiles, []byte("hi"))
	wantKind(t, "a tool that writes, the pool closed", err, registry.KindNotStarted, "closed")
}

// TestNestedReadOnlyWithNoWriters: with NoWriters, the workers of a tool
// that writes still find every nested repository read-only, whichever
// way the first is started: the spare, ready before any search, is not
// given it (stale), and Call, Warm, Enforcement and Prestart wait for
// the search. A hook planted in a nested repository is refused (EROFS);
// the workspace itself stays writable.
func TestNestedReadOnlyWithNoWriters(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	needNamespaces(t)
	ctx := context.Background()
	for _, first := range []string{"call", "warm", "enforcement", "prestart"} {
		t.Run(first, func(t *testing.T) {
			t.Parallel()
			d := newDirs(t)
			if err := os.MkdirAll(filepath.Join(d.work, "vendor", "lib", ".git", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			p := newPool(t, d, func(c *Config) { c.NoWriters, c.Spares = true, 1 })
			s := waitSpare(t, p) // started before any search
			const id, caps = "hx_write", tool.WriteFiles | tool.Unsafe
			var err error
			switch first {
			case "warm":
				err = p.Warm(ctx, id, caps)
			case "enforcement":
				_, err = p.Enforcement(ctx, id, caps)
			case "prestart":
				err = p.Prestart(ctx, id, caps)
			}
			if err != nil {
				t.Fatalf("%s: %v", first, err)
			}
			hook := filepath.Join(d.work, "vendor", "lib", ".git", "hooks", "pre-commit")
			_, err = call(t, p, id, caps, hostileArgs{Path: hook, Value: "#!/bin/sh\necho planted\n"})
			wantErrno(t, "a hook in a nested repository", err, "EROFS")
			if got, err := call(t, p, id, caps, hostileArgs{Path: filepath.Join(d.work, "main.go"), Value: "package main\n"}); err != nil || got != "written" {
				t.Errorf("a file in the workspace: %q, %v; want written", got, err)
			}
			p.mu.Lock()
			for w := range p.live {
				if w == s && w.key.id == id {
					t.Errorf("the spare started before the search serves %s", id)
				}
			}
			p.mu.Unlock()
		})
	}
}
