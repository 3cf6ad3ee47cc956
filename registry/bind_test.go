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

// probe is a tool whose Bind refuses arguments holding "bad", as generated
// ones refuse what fails to decode, and counts the binds and the runs.
type probe struct{ binds, runs atomic.Int32 }

func (p *probe) bind(args string) (Run, error) {
	p.binds.Add(1)
	if strings.Contains(string(args), "bad") {
		return nil, ArgumentError(errors.New(`field "x": bad`))
	}
	return func(ctx context.Context) (string, error) {
		p.runs.Add(1)
		return "ran " + string(args), nil
	}, nil
}

func (p *probe) counts() [2]int32 { return [2]int32{p.binds.Load(), p.runs.Load()} }

// TestCheckNeverRuns checks that checking arguments binds them and never
// runs the tool: Registry.Check answers Call's error for bad arguments and
// nil for good ones, and only Call runs the tool.
func TestCheckNeverRuns(t *testing.T) {
	p := &probe{}
	tab := testTable(nil)
	tab.Entries[1].Bind = p.bind
	r, err := New(tab)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if err := r.Check("echo", `{"x":1}`); err != nil {
		t.Errorf("Check of good arguments: %v", err)
	}
	e, _ := r.Lookup("echo")
	if _, err := e.Bind(`{"x":2}`); err != nil {
		t.Errorf("Bind of good arguments: %v", err)
	}
	if diff := cmp.Diff([2]int32{2, 0}, p.counts()); diff != "" {
		t.Errorf("binds and runs after two checks (-want +got):\n%s", diff)
	}
	checkErr := r.Check("echo", `{"x":"bad"}`)
	res := r.Call(context.Background(), "echo", `{"x":"bad"}`)
	if !errors.Is(checkErr, ErrArguments) || Text(checkErr) != res.Text {
		t.Errorf("Check of bad arguments = %v, want Call's answer %q", checkErr, res.Text)
	}
	if want := `Error: echo: bad arguments: field "x": bad`; !strings.HasPrefix(res.Text, want) {
		t.Errorf("Call of bad arguments = %q, want %q", res.Text, want)
	}
	if diff := cmp.Diff([2]int32{4, 0}, p.counts()); diff != "" {
		t.Errorf("binds and runs after bad arguments (-want +got):\n%s", diff)
	}
	if res := r.Call(context.Background(), "echo", `{"x":3}`); res.Err != nil || res.Text != `ran {"x":3}` {
		t.Errorf("Call = %q (%v), want the tool run", res.Text, res.Err)
	}
	if diff := cmp.Diff([2]int32{5, 1}, p.counts()); diff != "" {
		t.Errorf("binds and runs after a call (-want +got):\n%s", diff)
	}
}

// TestCheckMounted checks a mounted entry: Check binds its arguments
// with its Bind, which checks what it can, and never runs it, which
// would call its server.
func TestCheckMounted(t *testing.T) {
	p := &probe{}
	r, err := MustNew(testTable(nil)).With(Entry{
		ID: "remote", Name: "remote", Description: "a mounted tool", Timeout: time.Second,
		Parameters: `{"type":"object"}`, Server: "srv", Bind: p.bind,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check("remote", `{"x":1}`); err != nil {
		t.Errorf("Check of good arguments = %v, want nil", err)
	}
	if err := r.Check("remote", `{"x":"bad"}`); !errors.Is(err, ErrArguments) {
		t.Errorf("Check of bad arguments = %v, want an argument error", err)
	}
	if diff := cmp.Diff([2]int32{2, 0}, p.counts()); diff != "" {
		t.Errorf("binds and runs (-want +got):\n%s", diff)
	}
}
