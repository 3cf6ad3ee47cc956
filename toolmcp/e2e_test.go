package toolmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolreg/toolreg/internal/testbox"
)

// e2eDir holds the TypeScript end-to-end test; its node_modules comes from
// `npm ci --prefix toolmcp/testdata/e2e`.
const e2eDir = "testdata/e2e"

// e2eReport is what e2e.mjs prints.
type e2eReport struct {
	Tools []struct {
		Name        string
		Description string
		InputSchema any
	}
	Good struct {
		IsError           bool
		Text              string
		StructuredContent any
	}
	Bad struct {
		IsError bool
		Text    string
	}
	Prompts []struct {
		Name, Description string
	}
	Prompt struct {
		Name, Description, Role, Text string
	}
	UnknownPrompt string
}

// TestTypeScriptClient serves the test toolbox (internal/testbox) to the official
// TypeScript SDK client, over stdio (the test binary is the server) and
// over stateless streamable HTTP.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the end-to-end test with node runs without -short")
	}
	// Without Node or the SDK the test skips, naming the command to run;
	// CI installs both, and there a missing one is a failure, so the test
	// cannot quietly stop running.
	missing := t.Skipf
	if os.Getenv("CI") != "" {
		missing = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node (20 or later) is needed for the end-to-end test with the TypeScript SDK (%v); install it, then run `npm ci --prefix toolmcp/testdata/e2e` from the repository root", err)
		return
	}
	if _, err := os.Stat(filepath.Join(e2eDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		missing("the TypeScript SDK is not installed for the end-to-end test: run `npm ci --prefix toolmcp/testdata/e2e` from the repository root (%v)", err)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := NewServer(testbox.Toolbox(), e2eServerOptions())
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(HTTPHandler(srv, nil))
	defer hs.Close()

	for _, tt := range []struct {
		name string
		args []string
	}{
		{"stdio", []string{"stdio", exe}},
		{"http", []string{"http", hs.URL + "/mcp"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, append([]string{"e2e.mjs"}, tt.args...)...)
			cmd.Dir = e2eDir
			cmd.Env = append(os.Environ(), serverEnv+"=toolbox")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("node e2e.mjs %s: %v\nstderr:\n%s", tt.name, err, stderr.String())
			}
			var rep e2eReport
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatalf("report %q: %v", stdout.String(), err)
			}
			checkReport(t, &rep)
		})
	}
}

func checkReport(t *testing.T, rep *e2eReport) {
	t.Helper()
	entries := testbox.Toolbox().Tools()
	if len(rep.Tools) != len(entries) {
		t.Errorf("the client listed %d tools, want %d", len(rep.Tools), len(entries))
	}
	listed := map[string]int{}
	for i, tl := range rep.Tools {
		listed[tl.Name] = i
	}
	for _, e := range entries {
		i, ok := listed[e.Name]
		if !ok {
			t.Errorf("%s not listed", e.Name)
			continue
		}
		if rep.Tools[i].Description != e.Description {
			t.Errorf("%s: description %q", e.Name, rep.Tools[i].Description)
		}
		if diff := cmp.Diff(unmarshal(t, e.Parameters), rep.Tools[i].InputSchema); diff != "" {
			t.Errorf("%s: inputSchema differs from Entry.Parameters (-want +got):\n%s", e.Name, diff)
		}
	}
	want := map[string]any{"words": 6.0, "characters": 33.0}
	if rep.Good.IsError {
		t.Errorf("count failed: %s", rep.Good.Text)
	}
	if diff := cmp.Diff(any(want), rep.Good.StructuredContent); diff != "" {
		t.Errorf("count structuredContent (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(any(want), unmarshal(t, rep.Good.Text)); diff != "" {
		t.Errorf("count text (-want +got):\n%s", diff)
	}
	if !rep.Bad.IsError {
		t.Errorf("bad arguments did not give isError: %q", rep.Bad.Text)
	}
	var prompts []string
	for _, p := range rep.Prompts {
		prompts = append(prompts, p.Name+": "+p.Description)
	}
	var wantPrompts []string
	for _, k := range testSkills().List() {
		wantPrompts = append(wantPrompts, k.Name+": "+k.Description)
	}
	if diff := cmp.Diff(wantPrompts, prompts); diff != "" {
		t.Errorf("prompts/list (-want +got):\n%s", diff)
	}
	k, _ := testSkills().Get(rep.Prompt.Name)
	wantPrompt := struct{ Name, Description, Role, Text string }{k.Name, k.Description, "user", k.Body}
	if diff := cmp.Diff(wantPrompt, rep.Prompt); diff != "" {
		t.Errorf("prompts/get (-want +got):\n%s", diff)
	}
	if !strings.Contains(rep.UnknownPrompt, "no-such-skill") {
		t.Errorf("prompts/get of an unknown prompt: %q, want an error naming it", rep.UnknownPrompt)
	}
}
