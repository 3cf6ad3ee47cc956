package agentcli

import (
	"context"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// TestNoToolbox checks that an agent given no Toolbox function says so,
// where it would need its tools, instead of panicking.
func TestNoToolbox(t *testing.T) {
	if _, err := compiledIn(CompiledTools{}); err == nil || !strings.Contains(err.Error(), "no Toolbox function") {
		t.Errorf("compiledIn without a Toolbox: %v, want an error naming it", err)
	}
	var stderr strings.Builder
	c := &cli{stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }}
	if code := c.run(context.Background(), []string{"tools"}); code == 0 || !strings.Contains(stderr.String(), "no Toolbox function") {
		t.Errorf("agent tools without a Toolbox: exit %d, stderr %q; want a failure naming it", code, stderr.String())
	}
}

// TestToolSecrets checks that the tools' secret variables are redacted
// with the agent's own, and that a variable no one names is not.
func TestToolSecrets(t *testing.T) {
	env := map[string]string{"LLM_API_KEY": "llm-secret", "MY_KEY": "my-secret", "MY_URL": "http://example.test"}
	getenv := func(k string) string { return env[k] }
	got := secrets(getenv, CompiledTools{Secrets: []string{"MY_KEY"}})
	if diff := cmp.Diff([]string{"llm-secret", "my-secret"}, got); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
	if got := redactor(getenv, CompiledTools{Secrets: []string{"MY_KEY"}}, nil)("key my-secret, llm llm-secret, url http://example.test"); strings.Contains(got, "secret") || !strings.Contains(got, "http://example.test") {
		t.Errorf("redacted: %q, want both secrets gone and the URL kept", got)
	}
}
