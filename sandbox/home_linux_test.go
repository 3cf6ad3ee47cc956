package sandbox

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// A workspace that holds the user's home directory lets a tool that
// writes files change what runs at the next login or the agent's next
// start (~/.bashrc, the agent's config and its MCP servers' commands):
// an exec it was not given. No worker restriction prevents that, so the
// tool's enforcement says so, and Require refuses it.
func TestWorkspaceHoldingHome(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	const gap = "holds the home directory"
	d := newDirs(t)
	for _, tc := range []struct {
		name string
		home string
		caps tool.Capability
		want bool // the gap is named
	}{
		{"the workspace is home", d.work, tool.WriteFiles, true},
		{"home is in the workspace", filepath.Join(d.work, "users", "me"), tool.WriteFiles | tool.ReadFiles, true},
		{"home is beside the workspace", d.other, tool.WriteFiles, false},
		{"home holds the workspace", filepath.Dir(d.work), tool.WriteFiles, false},
		{"a tool that only reads", d.work, tool.ReadFiles, false},
		{"HOME from the environment", "", tool.WriteFiles, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPool(t, d, func(c *Config) {
				c.Home, c.Spares = tc.home, 0
				if tc.home == "" {
					c.Environ = []string{"HOME=" + d.work, "HOME=" + d.other}
				}
			})
			enf, err := p.Enforcement(context.Background(), "x", tc.caps)
			if err != nil {
				t.Fatal(err)
			}
			var named []string
			for _, m := range enf.Missing {
				if strings.Contains(m, gap) {
					named = append(named, m)
				}
			}
			var want []string
			if tc.want {
				want = []string{"the workspace " + d.work + " holds the home directory " + d.work + ": a tool that writes files can change what runs at the next login or the agent's next start (~/.bashrc, ~/.config); give the agent a project's directory as its workspace (-workdir)"}
				if tc.home != "" {
					want[0] = strings.Replace(want[0], "directory "+d.work, "directory "+tc.home, 1)
				}
			}
			if diff := cmp.Diff(want, named); diff != "" {
				t.Errorf("the gap named for caps %s (-want +got):\n%s", tc.caps, diff)
			}
		})
	}
	p := newPool(t, d, func(c *Config) { c.Home, c.Spares, c.Require = d.work, 0, true })
	_, err := p.Enforcement(context.Background(), "x", tool.WriteFiles)
	wantKind(t, "a workspace that holds home, required", err, registry.KindRefused, gap)
	if _, err := p.Enforcement(context.Background(), "y", tool.ReadFiles); err != nil {
		t.Errorf("a tool that only reads, required: %v", err)
	}
}
