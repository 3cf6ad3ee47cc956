package agentcli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolreg/toolreg"
	"github.com/toolreg/toolreg/internal/buildcache"
	"github.com/toolreg/toolreg/skill"
)

// TestMCPSkills serves the compiled-in skills with agent mcp over stdio to
// the SDK's client: one prompt per skill, whose prompts/get is the skill's
// body; use_skill is among the tools.
func TestMCPSkills(t *testing.T) {
	skills := toolreg.Skills().List()
	if len(skills) == 0 {
		t.Fatal("no skills are compiled in")
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &cli{tools: testTools, stdin: inR, stdout: outW, stderr: io.Discard, getenv: func(string) string { return "" }}
	exit := make(chan int, 1)
	go func() {
		code := c.run(context.Background(), []string{"mcp", "-isolate", "none"})
		outW.Close()
		exit <- code
	}()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatalf("ListPrompts: %v", err)
	}
	var got, want []string
	for _, p := range list.Prompts {
		got = append(got, p.Name+": "+p.Description)
	}
	for _, k := range skills {
		want = append(want, k.Name+": "+k.Description)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prompts/list (-want +got):\n%s", diff)
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: skills[0].Name})
	if err != nil {
		t.Fatalf("GetPrompt: %v", err)
	}
	if text, ok := res.Messages[0].Content.(*mcp.TextContent); !ok || text.Text != skills[0].Body || res.Messages[0].Role != "user" {
		t.Errorf("prompts/get %s = %+v, want the skill's body as a user message", skills[0].Name, res.Messages[0])
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	found := false
	for _, tl := range tools.Tools {
		found = found || tl.Name == skill.ToolName
	}
	if !found {
		t.Errorf("use_skill is not among the tools served")
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if code := <-exit; code != 0 {
		t.Errorf("agent mcp exited %d", code)
	}
}

// TestSkillsCompiledIn builds the agent from a copy of the module, removes
// the copy's skills folder, and runs agent skills and agent call use_skill:
// the skills are compiled in, so both still answer, from the directory
// where the folder was.
func TestSkillsCompiledIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the agent from a copy of the module")
	}
	// The build is the go command's work: the other tests run meanwhile.
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// A directory that is the same each run, and go test's own -race:
	// the build finds in the cache what go test and the last run compiled.
	src, trimpath := buildcache.Dir(t, "agentcli TestSkillsCompiledIn "+root)
	copyModule(t, root, src)
	exe := filepath.Join(dir, "agent")
	args := append([]string{"build", "-buildvcs=false", "-o", exe}, buildcache.Flags()...)
	if trimpath {
		args = append(args, "-trimpath")
	}
	build := exec.Command(goTool, append(args, "./cmd/agent")...)
	build.Dir = src
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := os.RemoveAll(filepath.Join(src, "skills")); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("agent %q: %v\n%s", args, err, stderr.String())
		}
		return stdout.String()
	}
	var listed []skillJSON
	if err := json.Unmarshal([]byte(run("skills", "-json")), &listed); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, k := range listed {
		got = append(got, k.Name+" "+strings.Join(k.Files, ","))
	}
	for _, k := range toolreg.Skills().List() {
		want = append(want, k.Name+" "+strings.Join(k.FileNames(), ","))
	}
	if len(want) == 0 {
		t.Fatal("no skills are compiled in")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("agent skills -json after the folder was removed (-want +got):\n%s", diff)
	}
	k := toolreg.Skills().List()[0]
	body := run("call", "use_skill", `{"name":"`+k.Name+`"}`)
	if !strings.HasPrefix(body, k.Body) {
		t.Errorf("use_skill %s after the folder was removed = %q, want the body %q first", k.Name, body, k.Body)
	}
	if files := k.FileNames(); len(files) > 0 {
		text := run("call", "-isolate", "none", "use_skill", `{"name":"`+k.Name+`","file":"`+files[0]+`"}`)
		if text != k.Files[files[0]]+"\n" && text != k.Files[files[0]] {
			t.Errorf("use_skill %s file %s after the folder was removed = %q, want %q", k.Name, files[0], text, k.Files[files[0]])
		}
	}
}

// copyModule copies the regular files of the module at root to dst,
// leaving out .git and node_modules; what .gitignore keeps out of git, a
// binary built at the root say, is copied too.
func copyModule(t *testing.T, root, dst string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy the module: %v", err)
	}
}
