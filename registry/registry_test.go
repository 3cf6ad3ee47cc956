package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/toolreg/toolreg/tool"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testTable is a hand-made table of tools that fail in every way, so the
// registry's protections are tested apart from generated code.
func testTable(release <-chan struct{}) *Table {
	entries := []Entry{
		{Name: "boom", Bind: runs(func(ctx context.Context, args string) (string, error) {
			panic("kaboom")
		})},
		{Name: "echo", Bind: runs(func(ctx context.Context, args string) (string, error) {
			if string(args) == "bad" {
				return "", ArgumentError(errors.New(`field "x": expected string`))
			}
			return "echo " + string(args), nil
		})},
		{Name: "fail", Bind: runs(func(ctx context.Context, args string) (string, error) {
			return "", errors.New("disk on fire")
		})},
		{Name: "polite", Bind: runs(func(ctx context.Context, args string) (string, error) {
			<-ctx.Done()
			return "", ctx.Err()
		})},
		{Name: "stubborn", Bind: runs(func(ctx context.Context, args string) (string, error) {
			<-release // ignores its context
			return "too late", nil
		})},
	}
	for i := range entries {
		entries[i].ID = entries[i].Name + "_id"
		entries[i].Timeout = time.Hour
	}
	entries[3].Timeout = 20 * time.Millisecond
	entries[4].Timeout = 20 * time.Millisecond
	return tableOf(entries)
}

// runs is a Bind that accepts any arguments and checks nothing: its Run
// calls f with them. The tools made with it check their arguments, if at
// all, when they run.
func runs(f func(ctx context.Context, args string) (string, error)) func(string) (Run, error) {
	return func(args string) (Run, error) {
		return func(ctx context.Context) (string, error) { return f(ctx, args) }, nil
	}
}

// tableOf completes entries made by hand (a description, parameters, an
// ID when missing) and makes their table.
func tableOf(entries []Entry) *Table {
	specs := make([]openai.Tool, len(entries))
	for i := range entries {
		e := &entries[i]
		if e.ID == "" {
			e.ID = e.Name
		}
		if e.Description == "" {
			e.Description = "The " + e.Name + " tool."
		}
		if e.Parameters == "" {
			e.Parameters = `{"type":"object"}`
		}
		specs[i] = specOf(*e)
	}
	return &Table{Entries: entries, Specs: specs, Index: func(name string) int {
		for i, e := range entries {
			if e.Name == name {
				return i
			}
		}
		return -1
	}}
}

// mustNew is New for tables a test made right.
func mustNew(t testing.TB, tab *Table) *Registry {
	t.Helper()
	r, err := New(tab)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCall(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var logs bytes.Buffer
	reg := mustNew(t, testTable(release)).WithLogger(slog.New(slog.NewTextHandler(&logs, nil)))
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name, tool, args string
		ctx              context.Context
		want             string
		wantErr          error
	}{
		{name: "ok", tool: "echo", args: `{"a":1}`, want: `echo {"a":1}`},
		{name: "empty arguments are an empty object", tool: "echo", args: "  ", want: "echo {}"},
		{name: "bad arguments", tool: "echo", args: "bad", want: `Error: echo: bad arguments: field "x": expected string`, wantErr: ErrArguments},
		{name: "unknown tool", tool: "nope", want: `Error: unknown tool "nope"; available tools: boom, echo, fail, polite, stubborn`, wantErr: ErrUnknownTool},
		{name: "tool error", tool: "fail", want: "Error: fail: disk on fire"},
		{name: "panic", tool: "boom", want: "Error: boom: panic: kaboom", wantErr: ErrPanic},
		{name: "timeout", tool: "polite", want: "Error: polite timed out after 20ms", wantErr: ErrTimeout},
		{name: "timeout of a tool that ignores its context", tool: "stubborn", want: "Error: stubborn timed out after 20ms", wantErr: ErrTimeout},
		{name: "caller cancelled", tool: "polite", ctx: cancelled, want: "Error: polite: call cancelled: context canceled", wantErr: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			res := reg.Call(ctx, tt.tool, tt.args)
			if diff := cmp.Diff(tt.want, res.Text); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if res.Failed() != strings.HasPrefix(tt.want, "Error:") {
				t.Errorf("Failed() = %v, want %v (err %v)", res.Failed(), !res.Failed(), res.Err)
			}
			if tt.wantErr != nil && !errors.Is(res.Err, tt.wantErr) {
				t.Errorf("err = %v, want one wrapping %v", res.Err, tt.wantErr)
			}
		})
	}
	for _, want := range []string{`msg="tool panicked" tool=boom`, "stack=", `msg="tool timed out" tool=stubborn`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q; log:\n%s", want, logs.String())
		}
	}
}

func TestSelect(t *testing.T) {
	reg := mustNew(t, testTable(nil))
	tests := []struct {
		keep, drop []string
		want       []string
		wantErr    string
	}{
		{want: []string{"boom", "echo", "fail", "polite", "stubborn"}},
		{keep: []string{"echo_id", "fail_id"}, want: []string{"echo", "fail"}},
		{drop: []string{"boom_id", "stubborn_id"}, want: []string{"echo", "fail", "polite"}},
		{keep: []string{"echo_id", "fail_id"}, drop: []string{"fail_id"}, want: []string{"echo"}},
		{keep: []string{"echo"}, wantErr: `unknown tool id "echo"; known: boom_id, echo_id, fail_id, polite_id, stubborn_id`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.keep, tt.drop), func(t *testing.T) {
			sel, err := reg.Select(tt.keep, tt.drop)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, sel.Names()); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			var specNames, toolNames []string
			for _, s := range sel.Specs() {
				specNames = append(specNames, s.Function.Name)
			}
			for _, e := range sel.Tools() {
				toolNames = append(toolNames, e.Name)
			}
			if diff := cmp.Diff(tt.want, specNames); diff != "" {
				t.Errorf("spec names (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, toolNames); diff != "" {
				t.Errorf("tool names (-want +got):\n%s", diff)
			}
			for _, e := range reg.Tools() {
				_, ok := sel.Lookup(e.Name)
				if want := contains(tt.want, e.Name); ok != want {
					t.Errorf("Lookup(%q) found %v, want %v", e.Name, ok, want)
				}
			}
			if res := sel.Call(context.Background(), "boom", "{}"); !contains(tt.want, "boom") && !errors.Is(res.Err, ErrUnknownTool) {
				t.Errorf("calling a tool left out: %q, want unknown tool", res.Text)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// guardedTable has a tool that changes things, one that reads, and one
// with a long answer.
func guardedTable() *Table {
	entries := []Entry{
		{Name: "long", Bind: runs(func(ctx context.Context, args string) (string, error) {
			return strings.Repeat("ab", 100) + "é" + strings.Repeat("x", 300), nil
		})},
		{Name: "read", Capabilities: tool.ReadFiles, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return "read", nil
		})},
		{Name: "rm", Capabilities: tool.WriteFiles, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return "removed", nil
		})},
		{Name: "sh", Reaches: tool.Exec, Bind: runs(func(ctx context.Context, args string) (string, error) {
			return "ran", nil
		})},
	}
	for i := range entries {
		entries[i].Timeout = time.Minute
	}
	return tableOf(entries)
}

func TestConfirm(t *testing.T) {
	var asked []string
	reg := mustNew(t, guardedTable()).WithConfirm(func(ctx context.Context, e Entry, args string) error {
		asked = append(asked, e.Name+" "+args)
		if e.Name == "sh" {
			return errors.New("the user said no")
		}
		return nil
	})
	got := map[string]string{}
	for _, name := range []string{"read", "rm", "sh"} {
		got[name] = reg.Call(context.Background(), name, `{"x":1}`).Text
	}
	want := map[string]string{"read": "read", "rm": "removed", "sh": "Error: sh: not run: the user said no"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`rm {"x":1}`, `sh {"x":1}`}, asked); diff != "" {
		t.Errorf("confirmations asked (-want +got):\n%s", diff)
	}
	if res := reg.Call(context.Background(), "sh", "{}"); !errors.Is(res.Err, ErrRefused) {
		t.Errorf("err = %v, want ErrRefused", res.Err)
	}
}

func TestWithoutCapabilities(t *testing.T) {
	reg := mustNew(t, guardedTable())
	if diff := cmp.Diff([]string{"long", "read"}, reg.WithoutCapabilities(tool.Exec|tool.WriteFiles).Names()); diff != "" {
		t.Errorf("without exec and write_files (-want +got):\n%s", diff)
	}
	sel, err := reg.Select(nil, []string{"long"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"rm", "sh"}, sel.WithoutCapabilities(tool.ReadFiles).Names()); diff != "" {
		t.Errorf("selection without read_files (-want +got):\n%s", diff)
	}
}

func TestLimits(t *testing.T) {
	// The "long" result is 502 bytes with an é at bytes 200 and 201: the
	// result limit leaves room for 201 bytes, so the cut falls inside the
	// é and moves back to byte 200.
	note := len("\n[truncated: showing %d of 502 bytes; %d bytes cut. Ask for less, or for the part you need.]") + 20
	reg := mustNew(t, guardedTable()).WithLimits(Limits{MaxArgs: 10, MaxResult: 201 + note})
	res := reg.Call(context.Background(), "read", `{"x":"12345"}`)
	if want := "Error: read: bad arguments: 13 bytes, more than the limit of 10; send less"; res.Text != want || !errors.Is(res.Err, ErrArguments) {
		t.Errorf("oversized arguments: %q (%v), want %q", res.Text, res.Err, want)
	}
	res = reg.Call(context.Background(), "long", "{}")
	want := strings.Repeat("ab", 100) + "\n[truncated: showing 200 of 502 bytes; 302 bytes cut. Ask for less, or for the part you need.]"
	if res.Failed() || res.Text != want {
		t.Errorf("long result: %q (%d bytes), want %q", res.Text, len(res.Text), want)
	}
	if !utf8.ValidString(res.Text) {
		t.Errorf("cut result is not valid UTF-8: %q", res.Text)
	}
}

// TestArgumentError checks that a failure is marked as one of the
// arguments and that no failure stays none, as generated Binds
// rely on.
func TestArgumentError(t *testing.T) {
	if err := ArgumentError(nil); err != nil {
		t.Errorf("ArgumentError(nil) = %v, want nil", err)
	}
	cause := errors.New("bad")
	var e *Error
	if err := ArgumentError(cause); !errors.As(err, &e) || e.Kind != KindArguments || !errors.Is(err, cause) {
		t.Errorf("ArgumentError(cause) = %#v", err)
	}
}

// TestErrorTextShapes checks the message and the text of an Error of every
// shape, written without fmt: the tool's name quoted by Go's rules for an
// unknown tool, the cause after the phrase of its kind.
func TestErrorTextShapes(t *testing.T) {
	cause := errors.New("the cause")
	for _, c := range []struct {
		err  *Error
		want string
	}{
		{&Error{Tool: "bad\"name\xff", Kind: KindUnknownTool, Err: cause}, `unknown tool "bad\"name\xff"; the cause`},
		{&Error{Tool: "x", Kind: KindUnknownTool}, `unknown tool "x"`},
		{&Error{Kind: KindUnknownTool}, `unknown tool ""`},
		{&Error{Tool: "slow", Kind: KindTimeout, Err: cause}, "slow timed out the cause"},
		{&Error{Tool: "slow", Kind: KindTimeout}, "slow timed out"},
		{&Error{Tool: "w", Kind: KindArguments, Err: cause}, "w: bad arguments: the cause"},
		{&Error{Tool: "w", Kind: KindTool, Err: cause}, "w: the cause"},
		{&Error{Tool: "w", Kind: KindTool}, "w"},
		{&Error{Tool: "w", Kind: KindNotStarted}, "w: not run: no process could be started to run it"},
		{&Error{Kind: KindArguments, Err: cause}, "the cause"},
		{&Error{Kind: KindArguments}, "bad arguments"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
		if got := Text(c.err); got != "Error: "+c.want {
			t.Errorf("Text = %q, want %q", got, "Error: "+c.want)
		}
	}
	if got := Text(cause); got != "Error: the cause" {
		t.Errorf("Text of a plain error = %q", got)
	}
}
