package agentcli

import (
	"flag"
	"io"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestFlagGroups: every flag of every command is in exactly one group of
// -h, or among the command's own flags, so none is missing from the help.
func TestFlagGroups(t *testing.T) {
	c := &cli{tools: testTools, getenv: func(string) string { return "" }}
	for _, cmd := range append([]string{""}, commands...) {
		fs, _ := c.newFlags(cmd)
		var shown []string
		for _, g := range flagGroups {
			shown = append(shown, g.flags...)
		}
		shown = append(shown, commandFlags[cmd]...)
		var all []string
		fs.VisitAll(func(f *flag.Flag) { all = append(all, f.Name) })
		slices.Sort(all)
		slices.Sort(shown)
		if diff := cmp.Diff(all, shown); diff != "" {
			t.Errorf("agent %s: flags (-defined +shown in -h):\n%s", cmd, diff)
		}
	}
}

func TestParseArgsAnywhere(t *testing.T) {
	for _, tc := range []struct {
		args, pos []string
		v         bool
	}{
		{[]string{"-v", "a", "b"}, []string{"a", "b"}, true},
		{[]string{"a", "-v", "b"}, []string{"a", "b"}, true},
		{[]string{"a", "b", "-v"}, []string{"a", "b"}, true},
		{[]string{"a", "--", "-v", "b"}, []string{"a", "-v", "b"}, false},
		{[]string{"-", "-v"}, []string{"-"}, true},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		v := fs.Bool("v", false, "")
		pos, err := parseArgs(fs, tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.pos, pos); diff != "" || *v != tc.v {
			t.Errorf("parseArgs(%q): -v %v, positionals (-want +got):\n%s", tc.args, *v, diff)
		}
	}
}

func TestSplitCommand(t *testing.T) {
	c := &cli{tools: testTools, getenv: func(string) string { return "" }}
	for _, tc := range []struct {
		args []string
		cmd  string
		rest []string
	}{
		{[]string{"tools"}, "tools", []string{}},
		{[]string{"-v", "tools", "-json"}, "tools", []string{"-v", "-json"}},
		{[]string{"-mcp", "x=cmd", "-tools", "now", "tools"}, "tools", []string{"-mcp", "x=cmd", "-tools", "now"}},
		{[]string{"-http", ":8080", "mcp"}, "mcp", []string{"-http", ":8080"}},
		{[]string{"what", "tools", "exist?"}, "", []string{"what", "tools", "exist?"}},
		{[]string{"--", "help"}, "", []string{"--", "help"}},
		{[]string{"-model", "help", "hi"}, "", []string{"-model", "help", "hi"}},
	} {
		cmd, rest := c.splitCommand(tc.args)
		if cmd != tc.cmd || !cmp.Equal(rest, tc.rest, cmpopts.EquateEmpty()) {
			t.Errorf("splitCommand(%q) = %q %q, want %q %q", tc.args, cmd, rest, tc.cmd, tc.rest)
		}
	}
}

func TestVersionOf(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/toolreg/toolreg", Version: "v0.3.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "4543bf9abc"}, {Key: "vcs.time", Value: "2026-11-30T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	want := "agent v0.3.0 (github.com/toolreg/toolreg), revision 4543bf9abc of 2026-11-30T10:00:00Z, with local changes, go1.26.0"
	if got := versionOf(bi); got != want {
		t.Errorf("versionOf = %q, want %q", got, want)
	}
	bi.Settings, bi.Main.Version = nil, ""
	if got, want := versionOf(bi), "agent (devel) (github.com/toolreg/toolreg), go1.26.0"; got != want {
		t.Errorf("versionOf without VCS = %q, want %q", got, want)
	}
}

func TestGenAIProvider(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"https://api.deepseek.com/v1", "deepseek"},
		{"https://api.moonshot.cn/v1/", "moonshot"},
		{"http://localhost:11434/v1", "ollama"},
		{"https://other.example/v1", "openai"},
		{"", "openai"},
	} {
		if got := genAIProvider(tc.url); got != tc.want {
			t.Errorf("genAIProvider(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}

// TestWorkersFlagOverridesVariable: -workers replaces TOOLREG_WORKERS,
// and a bad variable is an error only when no flag replaces it.
func TestWorkersFlagOverridesVariable(t *testing.T) {
	for _, tc := range []struct {
		env     string
		args    []string
		want    int
		wantErr string // of the variable, kept in workersErr
		parse   bool   // Parse fails
	}{
		{"", nil, 16, "", false},
		{"4", nil, 4, "", false},
		{"x", nil, 16, `TOOLREG_WORKERS: "x" is not a whole number of at least 1`, false},
		{"0", nil, 16, `TOOLREG_WORKERS: "0" is not a whole number of at least 1`, false},
		{"x", []string{"-workers", "3"}, 3, "", false},
		{"4", []string{"-workers", "1"}, 1, "", false},
		{"", []string{"-workers", "0"}, 16, "", true},
	} {
		var s selection
		fs := flag.NewFlagSet("agent", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		s.register(fs, func(k string) string {
			if k == "TOOLREG_WORKERS" {
				return tc.env
			}
			return ""
		})
		err := fs.Parse(tc.args)
		var gotErr string
		if s.workersErr != nil {
			gotErr = s.workersErr.Error()
		}
		if (err != nil) != tc.parse || int(s.workers) != tc.want || gotErr != tc.wantErr {
			t.Errorf("TOOLREG_WORKERS=%q %q: workers %d, variable error %q, parse error %v; want %d, %q, parse error %v",
				tc.env, tc.args, s.workers, gotErr, err, tc.want, tc.wantErr, tc.parse)
		}
	}
}

// TestWorkerMemory: -worker-memory and TOOLREG_WORKER_MEMORY read sizes
// in bytes and binary units, none, and refuse what a worker cannot start
// with, at, below and past the least.
func TestWorkerMemory(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    byteSize
		wantErr bool
	}{
		{"1GiB", 1 << 30, false},
		{"512MiB", 512 << 20, false},
		{"512m", 512 << 20, false},
		{"2 GB", 2 << 30, false},
		{"67108864", 64 << 20, false},
		{"64MiB", 64 << 20, false},
		{"65536K", 64 << 20, false},
		{"67108863", 0, true},
		{"63MiB", 0, true},
		{"none", -1, false},
		{"NONE", -1, false},
		{"0", 0, true},
		{"-1GiB", 0, true},
		{"1.5GiB", 0, true},
		{"GiB", 0, true},
		{"lots", 0, true},
		{"9999999999GiB", 0, true},
	} {
		var n byteSize
		err := n.Set(tc.in)
		if (err != nil) != tc.wantErr || n != tc.want {
			t.Errorf("Set(%q) = %d, %v; want %d, error %v", tc.in, n, err, tc.want, tc.wantErr)
		}
	}
	for n, want := range map[byteSize]string{0: "1GiB", -1: "none", 2 << 30: "2GiB", 96 << 20: "96MiB", 100<<20 + 1: "104857601"} {
		if got := n.String(); got != want {
			t.Errorf("byteSize(%d).String() = %q, want %q", int64(n), got, want)
		}
	}
	// The flag replaces a bad variable; a bad variable alone is an error.
	for _, tc := range []struct {
		env  string
		args []string
		want byteSize
		err  bool
	}{
		{"lots", nil, 0, true},
		{"lots", []string{"-worker-memory", "2GiB"}, 2 << 30, false},
		{"512MiB", nil, 512 << 20, false},
		{"512MiB", []string{"-worker-memory", "none"}, -1, false},
	} {
		var s selection
		fs := flag.NewFlagSet("agent", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		s.register(fs, func(k string) string {
			if k == "TOOLREG_WORKER_MEMORY" {
				return tc.env
			}
			return ""
		})
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if s.memory != tc.want || (s.memoryErr != nil) != tc.err {
			t.Errorf("TOOLREG_WORKER_MEMORY=%q %q: memory %d, error %v; want %d, error %v", tc.env, tc.args, s.memory, s.memoryErr, tc.want, tc.err)
		}
	}
}
