package registry

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestCheckOnly checks that only the context CheckArgs passes asks for a
// check: not the background, and not a context derived from the check's
// own, with a value, a deadline or a cancel added.
func TestCheckOnly(t *testing.T) {
	check := context.Context(checkOnly{context.Background()})
	if !CheckOnly(check) {
		t.Error("CheckOnly of the check's context = false")
	}
	type key struct{}
	timed, cancel := context.WithTimeout(check, time.Hour)
	defer cancel()
	cancelled, cancel2 := context.WithCancel(check)
	defer cancel2()
	for name, ctx := range map[string]context.Context{
		"background":      context.Background(),
		"todo":            context.TODO(),
		"with a value":    context.WithValue(check, key{}, 1),
		"with a deadline": timed,
		"with a cancel":   cancelled,
		"without cancel":  context.WithoutCancel(check),
	} {
		if CheckOnly(ctx) {
			t.Errorf("CheckOnly(%s) = true, want false", name)
		}
	}
}

// probe is an Invoke that checks, as generated ones do (a Checker): it
// refuses arguments holding "bad" and counts the checks and the runs.
type probe struct{ checks, runs atomic.Int32 }

func (p *probe) invoke(ctx context.Context, args []byte) (string, error) {
	if strings.Contains(string(args), "bad") {
		return "", ArgumentError(errors.New(`field "x": bad`))
	}
	if CheckOnly(ctx) {
		p.checks.Add(1)
		return "", nil
	}
	p.runs.Add(1)
	return "ran " + string(args), nil
}

func (p *probe) counts() [2]int32 { return [2]int32{p.checks.Load(), p.runs.Load()} }

// TestChecker checks an entry whose Checker stands in for Check: New
// takes it, Registry.Check and Entry.CheckArgs check without running the
// tool and answer Call's error, and Call runs it.
func TestChecker(t *testing.T) {
	p := &probe{}
	tab := testTable(nil)
	tab.Entries[1].Check = nil
	tab.Entries[1].Checker = p.invoke
	tab.Entries[1].Invoke = p.invoke
	r, err := New(tab)
	if err != nil {
		t.Fatalf("New of a table whose entry's Invoke checks: %v", err)
	}
	e, _ := r.Lookup("echo")
	if !e.Checkable() {
		t.Fatal("an entry with a Checker is not Checkable")
	}
	if err := r.Check("echo", `{"x":1}`); err != nil {
		t.Errorf("Check of good arguments: %v", err)
	}
	if err := e.CheckArgs([]byte(`{"x":2}`)); err != nil {
		t.Errorf("CheckArgs of good arguments: %v", err)
	}
	if diff := cmp.Diff([2]int32{2, 0}, p.counts()); diff != "" {
		t.Errorf("checks and runs after two checks (-want +got):\n%s", diff)
	}
	checkErr := r.Check("echo", `{"x":"bad"}`)
	res := r.Call(context.Background(), "echo", `{"x":"bad"}`)
	if !errors.Is(checkErr, ErrArguments) || Text(checkErr) != res.Text {
		t.Errorf("Check of bad arguments = %v, want Call's answer %q", checkErr, res.Text)
	}
	if want := `Error: echo: bad arguments: field "x": bad`; !strings.HasPrefix(res.Text, want) {
		t.Errorf("Call of bad arguments = %q, want %q", res.Text, want)
	}
	if res := r.Call(context.Background(), "echo", `{"x":3}`); res.Err != nil || res.Text != `ran {"x":3}` {
		t.Errorf("Call = %q (%v), want the tool run", res.Text, res.Err)
	}
	if diff := cmp.Diff([2]int32{2, 1}, p.counts()); diff != "" {
		t.Errorf("checks and runs after a call (-want +got):\n%s", diff)
	}
}

// TestNotCheckable checks a mounted entry with neither Check nor
// Checker: nothing can check its arguments in process, so Check
// calls nothing and accepts, and CheckArgs never calls its Invoke, which
// would run it.
func TestNotCheckable(t *testing.T) {
	p := &probe{}
	r, err := MustNew(testTable(nil)).With(Entry{
		ID: "remote", Name: "remote", Description: "a mounted tool", Timeout: time.Second,
		Parameters: `{"type":"object"}`, Server: "srv", Invoke: p.invoke,
	})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := r.Lookup("remote")
	if e.Checkable() {
		t.Error("an entry without Check or Checker is Checkable")
	}
	if err := r.Check("remote", `{"x":"bad"}`); err != nil {
		t.Errorf("Check of a tool that is not checkable = %v, want nil", err)
	}
	if err := e.CheckArgs([]byte(`{"x":"bad"}`)); err != nil {
		t.Errorf("CheckArgs of a tool that is not checkable = %v, want nil", err)
	}
	if diff := cmp.Diff([2]int32{0, 0}, p.counts()); diff != "" {
		t.Errorf("checks and runs (-want +got):\n%s", diff)
	}
}
