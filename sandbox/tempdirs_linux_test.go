//go:build linux

package sandbox

import (
	"context"
	"strings"
	"testing"

	"github.com/toolreg/toolreg/tool"
)

// TestNoOtherWorkersTempDirs: a worker's temp directory holds what its
// tool wrote there, with the secrets of the tool's environment (a
// token written to a config file for a program it runs). A tool with
// read_files alone read a file another tool (env and write_files) had
// written in its worker's temp directory, outside the workspace, while
// that worker lived. In namespaces each worker covers the others'
// temp directories, wherever they are; without, the gap is named.
func TestNoOtherWorkersTempDirs(t *testing.T) {
	t.Parallel()
	needLandlock(t, 1)
	const secret = "token ghp_r12"
	for _, noNS := range []bool{false, true} {
		if !noNS && !userNamespaces() {
			continue
		}
		p := newPool(t, newDirs(t), func(cfg *Config) { cfg.NoNamespaces = noNS })
		path, err := call(t, p, "r12_tmpsecret", tool.Env|tool.WriteFiles|tool.Unsafe, r9Args{Path: secret})
		if err != nil {
			t.Fatalf("a tool that writes its temp directory: %v", err)
		}
		reader := tool.ReadFiles | tool.Unsafe
		got, err := call(t, p, "read", reader, probeArgs{Path: path})
		if noNS {
			enf, eerr := p.Enforcement(context.Background(), "read", reader)
			if eerr != nil || !strings.Contains(strings.Join(enf.Missing, "\n"), "other workers' temp directories can be read") {
				t.Errorf("without namespaces: %+v, %v; want the other workers' temp directories named among the gaps", enf, eerr)
			}
			continue
		}
		if err == nil || strings.Contains(got, secret) {
			t.Errorf("another worker's temp file read: %q, %v", got, err)
		}
	}
}
