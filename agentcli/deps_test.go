package agentcli

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestIndependentOfTheTools checks that the agent's code imports no
// toolbox: a tool's edit must not recompile it (see the package doc).
func TestIndependentOfTheTools(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/toolreg/toolreg/registry") {
		t.Fatalf("go list -deps names no registry package; its output:\n%s", out)
	}
	for _, pkg := range []string{
		"github.com/toolreg/toolreg",
		"github.com/toolreg/toolreg/toolbox",
		"github.com/toolreg/toolreg/internal/testbox",
	} {
		if slices.Contains(deps, pkg) {
			t.Errorf("agentcli depends on %s", pkg)
		}
	}
}
