package registry

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestValidNameEdges tries each character just inside and just outside
// the ranges a name may hold, and names of 0, 1, 64 and 65 characters.
func TestValidNameEdges(t *testing.T) {
	ok := []string{"a", "z", "A", "Z", "0", "9", "_", "-", strings.Repeat("x", 64), "get_weather-2"}
	bad := []string{"", "`", "{", "@", "[", "/", ":", " ", ".", "é", strings.Repeat("x", 65), "a b", "a\x00"}
	for _, s := range ok {
		if !ValidName(s) {
			t.Errorf("ValidName(%q) = false", s)
		}
	}
	for _, s := range bad {
		if ValidName(s) {
			t.Errorf("ValidName(%q) = true", s)
		}
	}
}

// TestKindNames names every kind, and a kind past the last one by its
// number.
func TestKindNames(t *testing.T) {
	got := map[Kind]string{}
	for k := Kind(0); int(k) <= len(kindNames); k++ {
		got[k] = k.String()
	}
	want := map[Kind]string{0: "Kind(0)", Kind(len(kindNames)): "Kind(" + strconv.Itoa(len(kindNames)) + ")"}
	for k := 1; k < len(kindNames); k++ {
		want[Kind(k)] = kindNames[k]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kind names (-want +got):\n%s", diff)
	}
	if KindArguments.String() != "bad arguments" || KindTimeout.String() != "timed out" {
		t.Errorf("kind names: %q, %q", KindArguments, KindTimeout)
	}
}

// TestWithTools adds two tools at once and calls each, and refuses a name
// that the table's first tool, its last, or an added tool already has.
func TestWithTools(t *testing.T) {
	reg := mustNew(t, guardedTable())
	added := func(name, answer string) Entry {
		return Entry{Name: name, ID: name, Description: "Added.", Parameters: `{"type":"object"}`, Timeout: time.Minute,
			Bind: runs(func(ctx context.Context, args string) (string, error) { return answer, nil })}
	}
	two, err := reg.With(added("one", "first"), added("two", "second"))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{two.Call(context.Background(), "one", "{}").Text, two.Call(context.Background(), "two", "{}").Text, two.Call(context.Background(), "read", "{}").Text}
	if diff := cmp.Diff([]string{"first", "second", "read"}, got); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"long", "read", "rm", "sh", "one", "two"}, two.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	three, err := two.With(added("three", "third"))
	if err != nil || three.Call(context.Background(), "three", "{}").Text != "third" || three.Call(context.Background(), "two", "{}").Text != "second" {
		t.Errorf("a third tool: %v", err)
	}
	for _, name := range []string{"long", "sh", "one", "two"} {
		if _, err := two.With(added(name, "again")); err == nil || !strings.Contains(err.Error(), name+": the name is taken") {
			t.Errorf("adding %q again: %v", name, err)
		}
	}
	if _, err := reg.With(added("dup", "a"), added("dup", "b")); err == nil || !strings.Contains(err.Error(), "dup: the name is taken") {
		t.Errorf("adding a name twice at once: %v", err)
	}
}

// recordingExecutor runs compiled-in tools in place of their Bind and Run, and
// records which.
type recordingExecutor struct{ ran []string }

func (x *recordingExecutor) Execute(ctx context.Context, e Entry, args string) (string, error) {
	x.ran = append(x.ran, e.Name+" "+string(args))
	return "executed " + e.Name, nil
}

// TestExecutorRunsCompiledToolsOnly sends compiled-in tools through the
// Executor and leaves a mounted server's tool (Server set) to its Run.
func TestExecutorRunsCompiledToolsOnly(t *testing.T) {
	x := &recordingExecutor{}
	reg, err := mustNew(t, guardedTable()).With(Entry{Name: "remote", ID: "remote", Server: "srv", Description: "Remote.",
		Parameters: `{"type":"object"}`, Timeout: time.Minute,
		Bind: runs(func(ctx context.Context, args string) (string, error) { return "remote answer", nil })})
	if err != nil {
		t.Fatal(err)
	}
	reg = reg.WithExecutor(x)
	got := []string{reg.Call(context.Background(), "read", `{"a":1}`).Text, reg.Call(context.Background(), "remote", "{}").Text}
	if diff := cmp.Diff([]string{"executed read", "remote answer"}, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`read {"a":1}`}, x.ran); diff != "" {
		t.Errorf("executed (-want +got):\n%s", diff)
	}
}
