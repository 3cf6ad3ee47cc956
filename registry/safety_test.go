package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestNewValidates checks that New refuses each kind of broken table and
// says what is wrong, naming the entry.
func TestNewValidates(t *testing.T) {
	tests := []struct {
		name    string
		breakIt func(*Table)
		want    string
	}{
		{"bad name", func(t *Table) { t.Entries[0].Name = "bad name!" }, `name "bad name!" does not match`},
		{"bad id", func(t *Table) { t.Entries[0].ID = "" }, `ID "" does not match`},
		{"no description", func(t *Table) { t.Entries[1].Description = " " }, "echo: empty description"},
		{"zero timeout", func(t *Table) { t.Entries[1].Timeout = 0 }, "echo: timeout 0s is not positive"},
		{"negative timeout", func(t *Table) { t.Entries[1].Timeout = -time.Second }, "echo: timeout -1s is not positive"},
		{"parameters not an object", func(t *Table) { t.Entries[1].Parameters = `[]` }, "echo: parameters are not a JSON object"},
		{"parameters not JSON", func(t *Table) { t.Entries[1].Parameters = `{` }, "echo: parameters are not a JSON object"},
		{"parameters of another type", func(t *Table) { t.Entries[1].Parameters = `{"type":"array"}` }, `echo: parameters have type array, want "object"`},
		{"parameters without a type", func(t *Table) { t.Entries[1].Parameters = `{"properties":{"a":{"type":"object"}}}` }, `echo: parameters have type <nil>, want "object"`},
		{"parameters with trailing data", func(t *Table) { t.Entries[1].Parameters = `{"type":"object"} {}` }, "echo: parameters are not a JSON object"},
		{"parameters with a bad member", func(t *Table) { t.Entries[1].Parameters = `{"type":"object","x":[1,}` }, "echo: parameters are not a JSON object"},
		{"parameters whose last type wins", func(t *Table) { t.Entries[1].Parameters = `{"type":"object","type":["object","null"]}` }, `echo: parameters have type [object null], want "object"`},
		{"no Bind", func(t *Table) { t.Entries[1].Bind = nil }, "echo: no Bind function"},
		{"name twice", func(t *Table) { t.Entries[2].Name = "echo"; t.Specs[2].Function.Name = "echo" }, `tool name "echo" is used twice`},
		{"spec names another tool", func(t *Table) { t.Specs[1].Function.Name = "fail" }, "entry 1 (echo): its spec does not name it"},
		{"spec without a function", func(t *Table) { t.Specs[1].Function = nil }, "entry 1 (echo): its spec does not name it"},
		{"index finds the wrong entry", func(t *Table) { t.Index = func(string) int { return 0 } }, "entry 1 (echo): Index finds it at 0"},
		{"no index", func(t *Table) { t.Index = nil }, "no Index function"},
		{"specs missing", func(t *Table) { t.Specs = t.Specs[:2] }, "5 entries and 2 specs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := testTable(nil)
			tt.breakIt(tab)
			_, err := New(tab)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New: err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := New(nil); err == nil {
		t.Error("New(nil) succeeded")
	}
	if _, err := New(testTable(nil)); err != nil {
		t.Errorf("New of a good table: %v", err)
	}
}

// TestNewChecked checks what New leaves out for a table whose schemas
// were checked where it was made (Checked, as toolgen sets it): the
// schemas, and nothing else.
func TestNewChecked(t *testing.T) {
	badSchema := testTable(nil)
	badSchema.Entries[1].Parameters = `{`
	if _, err := New(badSchema); err == nil || !strings.Contains(err.Error(), "echo: parameters are not a JSON object") {
		t.Errorf("New of an unchecked table with a bad schema: %v", err)
	}
	badSchema.Checked = true
	if _, err := New(badSchema); err != nil {
		t.Errorf("New of a checked table reads its schemas: %v", err)
	}
	for name, breakIt := range map[string]func(*Table){
		"bad name":     func(t *Table) { t.Entries[0].Name = "bad name!" },
		"zero timeout": func(t *Table) { t.Entries[1].Timeout = 0 },
		"no Bind":      func(t *Table) { t.Entries[1].Bind = nil },
		"name twice":   func(t *Table) { t.Entries[2].Name = "echo"; t.Specs[2].Function.Name = "echo" },
		"wrong index":  func(t *Table) { t.Index = func(string) int { return 0 } },
	} {
		tab := testTable(nil)
		tab.Checked = true
		breakIt(tab)
		if _, err := New(tab); err == nil {
			t.Errorf("%s: New of a checked table succeeded", name)
		}
	}
}

// TestCopies checks that nothing a Registry hands out can change it.
func TestCopies(t *testing.T) {
	tab := testTable(nil)
	reg := mustNew(t, tab)
	// The table the registry was made from is copied too.
	tab.Entries[1].Description = "changed in the table"
	e, ok := reg.Lookup("echo")
	if !ok || e.Description != "The echo tool." {
		t.Fatalf("Lookup(echo) = %+v, %v after the table changed", e, ok)
	}
	e.Description = "changed"
	e.Timeout = time.Nanosecond
	tools := reg.Tools()
	tools[1].Name = "renamed"
	specs := reg.Specs()
	specs[1].Function.Name = "renamed"
	specs[1].Function.Description = "changed"
	specs[1].Function.Parameters.(json.RawMessage)[0] = 'X'

	again, _ := reg.Lookup("echo")
	if again.Description != "The echo tool." || again.Timeout != time.Hour {
		t.Errorf("a change to a looked-up entry reached the registry: %+v", again)
	}
	if got := reg.Tools()[1].Name; got != "echo" {
		t.Errorf("a change to Tools() reached the registry: %q", got)
	}
	s := reg.Specs()[1]
	if s.Function.Name != "echo" || s.Function.Description != "The echo tool." || string(s.Function.Parameters.(json.RawMessage)) != `{"type":"object"}` {
		t.Errorf("a change to Specs() reached the registry: %+v", s.Function)
	}
	// A derived registry shares nothing it could change.
	other := mustNew(t, testTable(nil))
	if _, ok := other.Lookup("echo"); !ok {
		t.Error("another registry lost echo")
	}
}

// TestSelectFailsClosed checks that an empty keep list keeps nothing, and
// that nil keeps everything.
func TestSelectFailsClosed(t *testing.T) {
	reg := mustNew(t, testTable(nil))
	none, err := reg.Select([]string{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := none.Names(); len(got) != 0 {
		t.Errorf("Select([]string{}, nil) kept %v, want none", got)
	}
	if res := none.Call(context.Background(), "echo", "{}"); !errors.Is(res.Err, ErrUnknownTool) {
		t.Errorf("a tool outside an empty selection ran: %q", res.Text)
	}
	all, err := reg.Select(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(reg.Names(), all.Names()); diff != "" {
		t.Errorf("Select(nil, nil) (-want +got):\n%s", diff)
	}
	// Narrowing never widens: a selection of a selection.
	one, _ := reg.Select([]string{"echo_id"}, nil)
	if _, err := one.Select([]string{"fail_id"}, nil); err == nil {
		t.Error("selecting a tool the registry had already left out succeeded")
	}
}

// TestNilOptions checks that no nil option makes a later call panic.
func TestNilOptions(t *testing.T) {
	reg := mustNew(t, testTable(nil)).WithLogger(nil).WithConfirm(nil).WithExecutor(nil).WithLimits(Limits{})
	res := reg.Call(context.Background(), "boom", "{}")
	if !errors.Is(res.Err, ErrPanic) || res.Text != "Error: boom: panic: kaboom" {
		t.Errorf("a panic with a nil logger: %q, %v", res.Text, res.Err)
	}
	if got := reg.Limits(); got != (Limits{MaxArgs: DefaultMaxArgs, MaxResult: DefaultMaxResult}) {
		t.Errorf("zero limits changed them: %+v", got)
	}
}

// TestWith checks joining tools to a registry: they are selected, called,
// checked like the generated ones, and refused when broken or clashing.
func TestWith(t *testing.T) {
	reg := mustNew(t, testTable(nil))
	remote := Entry{ID: "r__x", Name: "r__x", Description: "Remote.", Timeout: time.Minute,
		Parameters: `{"type":"object"}`, Server: "r",
		Bind: runs(func(ctx context.Context, args string) (string, error) { return "remote " + string(args), nil })}
	joined, err := reg.With(remote)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(append(reg.Names(), "r__x"), joined.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if got := joined.Specs()[len(reg.Names())].Function.Name; got != "r__x" {
		t.Errorf("the spec of the joined tool names %q", got)
	}
	if res := joined.Call(context.Background(), "r__x", `{"a":1}`); res.Text != `remote {"a":1}` {
		t.Errorf("Call(r__x) = %q", res.Text)
	}
	if _, ok := reg.Lookup("r__x"); ok {
		t.Error("With changed the registry it was called on")
	}
	clash := remote
	clash.Name = "echo"
	if _, err := reg.With(clash); err == nil || !strings.Contains(err.Error(), "echo: the name is taken") {
		t.Errorf("a clashing name: err = %v", err)
	}
	// A name taken by a tool left out of the selection is still taken.
	narrow, _ := reg.Select(nil, []string{"echo_id"})
	if _, err := narrow.With(clash); err == nil {
		t.Error("a name of an unselected tool was taken")
	}
	bad := remote
	bad.Timeout = 0
	if _, err := reg.With(bad); err == nil || !strings.Contains(err.Error(), "timeout 0s is not positive") {
		t.Errorf("a broken tool: err = %v", err)
	}
	if _, err := joined.With(remote); err == nil {
		t.Error("the same tool joined twice")
	}
}

// TestErrorText checks the one rendering of failures, kind by kind.
func TestErrorText(t *testing.T) {
	cause := errors.New("cause")
	tests := []struct {
		err  *Error
		want string
		is   error
	}{
		{&Error{Tool: "t", Kind: KindTool, Err: cause}, "Error: t: cause", nil},
		{&Error{Tool: "x", Kind: KindUnknownTool, Err: errors.New("available tools: a, b")}, `Error: unknown tool "x"; available tools: a, b`, ErrUnknownTool},
		{&Error{Tool: "x", Kind: KindUnknownTool}, `Error: unknown tool "x"`, ErrUnknownTool},
		{&Error{Tool: "t", Kind: KindArguments, Err: cause}, "Error: t: bad arguments: cause", ErrArguments},
		{&Error{Tool: "t", Kind: KindRefused, Err: cause}, "Error: t: not run: cause", ErrRefused},
		{&Error{Tool: "t", Kind: KindTimeout, Err: errors.New("after 1s")}, "Error: t timed out after 1s", ErrTimeout},
		{&Error{Tool: "t", Kind: KindPanic, Err: cause}, "Error: t: panic: cause", ErrPanic},
		{&Error{Tool: "t", Kind: KindCancelled, Err: context.Canceled}, "Error: t: call cancelled: context canceled", ErrCancelled},
		{&Error{Tool: "t", Kind: KindRemote, Err: cause}, "Error: t: cause", ErrRemote},
		{&Error{Tool: "t", Kind: KindCrashed, Err: cause}, "Error: t: the process running it died: cause", ErrCrashed},
		{&Error{Tool: "t", Kind: KindNotStarted, Err: cause}, "Error: t: not run: no process could be started to run it: cause", ErrNotStarted},
		{&Error{Kind: KindArguments, Err: cause}, "Error: cause", ErrArguments},
	}
	for _, tt := range tests {
		if got := Text(tt.err); got != tt.want {
			t.Errorf("Text(%#v) = %q, want %q", tt.err, got, tt.want)
		}
		wrapped := fmt.Errorf("context: %w", tt.err)
		if tt.is != nil && !errors.Is(wrapped, tt.is) {
			t.Errorf("%q does not match %v", tt.want, tt.is)
		}
		if tt.err.Kind == KindCancelled && !errors.Is(wrapped, context.Canceled) {
			t.Errorf("%q does not match its cause context.Canceled", tt.want)
		}
		var re *Error
		if !errors.As(wrapped, &re) || re.Kind != tt.err.Kind {
			t.Errorf("errors.As(%q) = %v", tt.want, re)
		}
		// A kind matches its own value only.
		for _, other := range []error{ErrUnknownTool, ErrArguments, ErrRefused, ErrTimeout, ErrPanic, ErrCancelled, ErrRemote, ErrCrashed} {
			if other != tt.is && errors.Is(tt.err, other) {
				t.Errorf("%q matches %v too", tt.want, other)
			}
		}
	}
	if got := Kind(200).String(); got != "Kind(200)" {
		t.Errorf("Kind(200) = %q", got)
	}
}

// TestRuntimeImportsNoTools checks the split of runtime and instance: the
// runtime does not depend on this repository's tools, nor on the root
// package that compiles them in.
func TestRuntimeImportsNoTools(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/toolreg/toolreg" || strings.HasPrefix(dep, "github.com/toolreg/toolreg/toolbox") || dep == "time/tzdata" {
			t.Errorf("the runtime depends on %s", dep)
		}
	}
}

func TestValidName(t *testing.T) {
	re := regexp.MustCompile(NamePattern)
	for _, s := range []string{
		"", "a", "word_count", "A-Z_09", "self__echo",
		strings.Repeat("x", 63), strings.Repeat("x", 64), strings.Repeat("x", 65),
		"files.read", "bad name!", "é", "tab\t", "a/b", "日本",
	} {
		if got, want := ValidName(s), re.MatchString(s); got != want {
			t.Errorf("ValidName(%q) = %v, NamePattern says %v", s, got, want)
		}
	}
}

// TestRedactBeforeCut checks that WithRedact sees the whole text, before
// the result limit cuts it, so a secret across the cut is never shown in
// part.
func TestRedactBeforeCut(t *testing.T) {
	secret := "SECRET-0123456789"
	long := strings.Repeat("a", 80) + secret + strings.Repeat("b", 200)
	reg := mustNew(t, tableOf([]Entry{{Name: "leak", Timeout: time.Minute, Bind: runs(func(ctx context.Context, args string) (string, error) {
		return long, nil
	})}})).WithLimits(Limits{MaxResult: 200})
	plain := reg.Call(context.Background(), "leak", "{}").Text
	if !strings.Contains(plain, "SECRET-") || strings.Contains(plain, secret) {
		t.Fatalf("without redaction the cut should fall inside the secret: %q", plain)
	}
	var seen []string
	red := reg.WithRedact(func(s string) string {
		seen = append(seen, s)
		return strings.ReplaceAll(s, secret, "[REDACTED]")
	})
	got := red.Call(context.Background(), "leak", "{}").Text
	if strings.Contains(got, "SECRET") || !strings.Contains(got, "[REDACTE") { // the marker may be cut; the secret never shows
		t.Errorf("redacted and cut: %q", got)
	}
	if len(seen) != 1 || seen[0] != long {
		t.Errorf("redact saw %q, want the whole text once", seen)
	}
	// Failures go through it too.
	failing := mustNew(t, testTable(nil)).WithRedact(func(s string) string { return strings.ReplaceAll(s, "disk on fire", "[REDACTED]") })
	if got := failing.Call(context.Background(), "fail", "{}").Text; got != "Error: fail: [REDACTED]" {
		t.Errorf("a failure's text: %q", got)
	}
}
