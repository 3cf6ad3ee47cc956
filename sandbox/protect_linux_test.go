package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// TestProtectedConfig: the agent's config and its MCP servers' list, in
// the workspace, stay as they are for a tool that writes files: each
// worker keeps them read-only, and the directories between them and the
// workspace in place. Before, a write_files tool rewrote the command of
// an MCP server the agent starts at its next run, which exec would give.
// Without namespaces, or through a symbolic link in the workspace, the
// gap is named for tools that write, and refused under Require.
func TestProtectedConfig(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	config := filepath.Join(d.work, "project", ".agent", "config.toml")
	servers := filepath.Join(d.work, "servers.json")
	beside := filepath.Join(d.work, "project", ".agent", "notes.txt")
	outside := filepath.Join(d.other, "config.toml")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{config, servers, beside, outside} {
		if err := os.WriteFile(f, []byte("original"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := newPool(t, d, func(c *Config) { c.Protect = []string{config, servers, outside} })
	caps := tool.ReadFiles | tool.WriteFiles | tool.Exec
	type attempt struct {
		What string
		Err  string
	}
	try := func(what, id string, a hostileArgs) attempt {
		_, err := call(t, p, id, caps, a)
		if err == nil {
			return attempt{what, ""}
		}
		m := err.Error()
		return attempt{what, m[strings.LastIndex(m, " ")+1:]} // the errno
	}
	got := []attempt{
		try("rewrite the config", "hx_write", hostileArgs{Path: config, Value: "[mcpServers.x]\ncommand = \"sh\""}),
		try("rewrite the servers' list", "hx_write", hostileArgs{Path: servers, Value: "{}"}),
		try("move the config away", "hx_rename", hostileArgs{Path: config, Value: config + ".old"}),
		try("move its directory", "hx_rename", hostileArgs{Path: filepath.Dir(config), Value: filepath.Dir(config) + ".old"}),
		try("move the directory above", "hx_rename", hostileArgs{Path: filepath.Join(d.work, "project"), Value: filepath.Join(d.work, "moved")}),
		try("remove the servers' list", "unlink", hostileArgs{Path: servers}),
		// The positive control: the file beside the config.
		try("write beside the config", "hx_write", hostileArgs{Path: beside, Value: "changed"}),
	}
	want := []attempt{
		{"rewrite the config", "EROFS"},
		{"rewrite the servers' list", "EROFS"},
		{"move the config away", "EBUSY"},
		{"move its directory", "EBUSY"},
		{"move the directory above", "EBUSY"},
		{"remove the servers' list", "EBUSY"},
		{"write beside the config", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a tool with %s against the protected config (-want +got):\n%s", caps, diff)
	}
	for _, f := range []string{config, servers} {
		if b, err := os.ReadFile(f); err != nil || string(b) != "original" {
			t.Errorf("%s: %q, %v; want it unchanged", f, b, err)
		}
	}

	const gap = "the agent's config in the workspace can be changed"
	gaps := func(p *Pool, caps tool.Capability) []string {
		t.Helper()
		enf, err := p.Enforcement(context.Background(), "x", caps)
		if err != nil {
			t.Fatal(err)
		}
		var named []string
		for _, m := range enf.Missing {
			if strings.HasPrefix(m, gap) {
				named = append(named, m)
			}
		}
		return named
	}
	if g := gaps(p, tool.WriteFiles); len(g) != 0 {
		t.Errorf("with the config kept read-only, the gap is named: %q", g)
	}

	// Through a symbolic link in the workspace, which a tool may
	// replace, or missing, which a tool may make: named for a tool that
	// writes, not for one that reads.
	link := filepath.Join(d.work, "config-link.toml")
	if err := os.Symlink(config, link); err != nil {
		t.Fatal(err)
	}
	absent := filepath.Join(d.work, "absent.toml")
	p = newPool(t, d, func(c *Config) { c.Protect, c.Spares = []string{link, config, absent}, 0 })
	wantGap := []string{gap + " (" + link + ", " + absent + "): a tool that writes files can replace a symbolic link on its path, or make it where it is missing; keep the config outside the workspace"}
	if diff := cmp.Diff(wantGap, gaps(p, tool.WriteFiles)); diff != "" {
		t.Errorf("a config named through a link, and one missing (-want +got):\n%s", diff)
	}
	if g := gaps(p, tool.ReadFiles); len(g) != 0 {
		t.Errorf("a tool that only reads has the gap named: %q", g)
	}

	// Without namespaces: named for a tool that writes, refused under
	// Require.
	p = newPool(t, d, func(c *Config) { c.Protect, c.NoNamespaces, c.Spares = []string{config}, true, 0 })
	wantGap = []string{gap + " (" + config + "): no mount namespace keeps it read-only; keep the config outside the workspace"}
	if diff := cmp.Diff(wantGap, gaps(p, tool.WriteFiles)); diff != "" {
		t.Errorf("without namespaces (-want +got):\n%s", diff)
	}
	if g := gaps(p, tool.ReadFiles|tool.Network); len(g) != 0 {
		t.Errorf("without namespaces, a tool that does not write has the gap named: %q", g)
	}
	p = newPool(t, d, func(c *Config) { c.Protect, c.NoNamespaces, c.Spares, c.Require = []string{config}, true, 0, true })
	_, err := p.Enforcement(context.Background(), "x", tool.WriteFiles)
	wantKind(t, "an unprotected config, required", err, registry.KindRefused, gap)
}

// TestConfigCheck: Config.Check, what agent tools -v shows without
// starting a worker, names what the pool's workers name for the same
// configuration: the kernel's gaps and those of where the agent runs
// (home in the workspace, a config through a link, without namespaces
// the state and the config).
func TestConfigCheck(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	d := newDirs(t)
	config := filepath.Join(d.work, "config.toml")
	if err := os.WriteFile(config, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(d.work, "link.toml")
	if err := os.Symlink(config, link); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(d.other, "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"plain", func(*Config) {}},
		{"home in the workspace", func(c *Config) { c.Home = d.work }},
		{"a config through a link", func(c *Config) { c.Protect = []string{link} }},
		{"without namespaces", func(c *Config) { c.NoNamespaces, c.Hide, c.Protect = true, []string{state}, []string{config} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{Arg: workerArg, WorkDir: d.work, TempDir: d.temp, Environ: []string{}, Home: d.other}
			tc.edit(&c)
			p := newPool(t, d, func(pc *Config) { *pc = c })
			for _, caps := range []tool.Capability{tool.ReadFiles, tool.WriteFiles, tool.ReadFiles | tool.WriteFiles | tool.Exec} {
				enf, err := p.Enforcement(context.Background(), "x", caps)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(enf.Missing, c.Check(caps).Missing); diff != "" {
					t.Errorf("%s: Config.Check against the worker's enforcement (-worker +Check):\n%s", caps, diff)
				}
			}
		})
	}
}
