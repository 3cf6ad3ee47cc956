package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// TestHiddenState: the agent's own state (the OAuth tokens of its MCP
// servers, its kept conversations) is no tool's to read, though a tool
// that reads files reads anywhere else: a worker covers it with an empty
// file system. Where no mount namespace can, a tool that reads files has
// that gap named, and Require refuses it.
func TestHiddenState(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	state := filepath.Join(d.other, "state")
	token := filepath.Join(state, "oauth", "server.json")
	beside := filepath.Join(d.other, "notes.txt")
	if err := os.MkdirAll(filepath.Dir(token), 0o700); err != nil {
		t.Fatal(err)
	}
	for f, text := range map[string]string{token: `{"refresh_token":"rt-secret"}`, beside: "notes"} {
		if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Named through a symbolic link, and twice.
	link := filepath.Join(d.other, "state-link")
	if err := os.Symlink(state, link); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, d, func(c *Config) { c.Hide = []string{link, state, filepath.Join(d.other, "absent")} })
	for _, caps := range []tool.Capability{tool.ReadFiles, tool.ReadFiles | tool.WriteFiles | tool.Exec} {
		got, err := call(t, p, "read", caps, probeArgs{Path: token})
		wantErrno(t, caps.String()+": the agent's state", err, "ENOENT")
		if err == nil {
			t.Errorf("%s read the hidden %s: %q", caps, token, got)
		}
		// The positive control: the file beside it.
		if got, err := call(t, p, "read", caps, probeArgs{Path: beside}); err != nil || got != "notes" {
			t.Errorf("%s reading %s beside the state: %q, %v", caps, beside, got, err)
		}
	}
	const gap = "the agent's own state can be read ("
	enf, err := p.Enforcement(context.Background(), "x", tool.ReadFiles)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range enf.Missing {
		if strings.HasPrefix(m, gap) {
			t.Errorf("enforcement with the state hidden names it as a gap: %q", m)
		}
	}

	// A directory that holds the workspace is not covered: the workers
	// work there.
	inside := filepath.Join(d.work, "f")
	if err := os.WriteFile(inside, []byte("in the workspace"), 0o600); err != nil {
		t.Fatal(err)
	}
	p = newPool(t, d, func(c *Config) { c.Hide, c.Spares = []string{filepath.Dir(d.work)}, 0 })
	if got, err := call(t, p, "read", tool.ReadFiles, probeArgs{Path: inside}); err != nil || got != "in the workspace" {
		t.Errorf("a hidden directory holding the workspace: reading %s: %q, %v", inside, got, err)
	}

	// Without namespaces, the gap is named for a tool that reads files
	// only, and refused under Require.
	p = newPool(t, d, func(c *Config) { c.Hide, c.NoNamespaces, c.Spares = []string{state}, true, 0 })
	for _, tc := range []struct {
		caps tool.Capability
		want bool
	}{{tool.ReadFiles, true}, {tool.Network, false}} {
		enf, err := p.Enforcement(context.Background(), "x", tc.caps)
		if err != nil {
			t.Fatal(err)
		}
		named := false
		for _, m := range enf.Missing {
			named = named || strings.HasPrefix(m, gap+state+")")
		}
		if named != tc.want {
			t.Errorf("without namespaces, %s: the gap named %t, want %t: %q", tc.caps, named, tc.want, enf.Missing)
		}
	}
	p = newPool(t, d, func(c *Config) { c.Hide, c.NoNamespaces, c.Require, c.Spares = []string{state}, true, true, 0 })
	_, err = p.Enforcement(context.Background(), "x", tool.ReadFiles)
	wantKind(t, "the state readable, required", err, registry.KindRefused, gap)
}
