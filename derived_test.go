package toolreg

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/toolreg/toolreg/internal/schemacase"
	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/internal/testbox/tools"
	"github.com/toolreg/toolreg/registry"
)

// TestDecoderAgreesWithSchemaAtItsLimits derives arguments from each
// tool's schema (see internal/schemacase) and checks that the generated
// decoder accepts exactly those the schema accepts, for this repository's
// tools and the test tool set of internal/testbox. Both sides must be
// tried: a tool whose cases the schema all accepts, or all refuses, tests
// nothing.
func TestDecoderAgreesWithSchemaAtItsLimits(t *testing.T) {
	for _, set := range []struct {
		name string
		reg  *registry.Registry
	}{{"toolbox", Toolbox()}, {"testbox", testbox.Toolbox()}} {
		for _, e := range set.reg.Tools() {
			t.Run(set.name+"/"+e.Name, func(t *testing.T) {
				cases, err := schemacase.Cases(e.Parameters)
				if err != nil {
					t.Fatal(err)
				}
				bad, accepted, refused := schemacase.Compare(cases, func(args []byte) error { return checkArgs(e, args) })
				for _, m := range bad {
					t.Error(m)
				}
				if accepted == 0 || refused == 0 {
					t.Errorf("%d cases accepted, %d refused: both sides must be tried", accepted, refused)
				}
			})
		}
	}
}

// TestCheckRunsNoTool checks that checking a generated tool's arguments
// binds them and stops there: fail, which fails whenever it runs, passes
// the check, through its entry and through the registry, strict or not,
// while the Run its Bind returns runs it and fails.
func TestCheckRunsNoTool(t *testing.T) {
	r := testbox.Toolbox()
	e, ok := r.Lookup("fail")
	if !ok || e.Bind == nil {
		t.Fatalf("fail's entry: found %v, Bind set %v; want a generated entry", ok, e.Bind != nil)
	}
	run, err := e.Bind(`{}`)
	if err != nil {
		t.Errorf("Bind of fail: %v", err)
	}
	for _, reg := range []*registry.Registry{r, r.WithStrict(true)} {
		if err := reg.Check("fail", `{}`); err != nil {
			t.Errorf("Check (strict %v) ran fail: %v", reg.Strict(), err)
		}
	}
	if _, err := run(context.Background()); !errors.Is(err, tools.ErrFail) {
		t.Errorf("Run of fail = %v, want it run and failed", err)
	}
	if _, err := e.Bind(`{"x":1}`); !errors.Is(err, registry.ErrArguments) {
		t.Errorf("Bind of an unknown field = %v, want bad arguments", err)
	}
}

// TestCheckIgnoresWrappedRun is the case of a generated entry copied with
// its Run wrapped, as tracing or a timeout would wrap it, and added under a
// name of its own: checking it, in Check and before a repair, binds and
// runs neither the wrapper nor the tool. fail fails whenever it runs.
func TestCheckIgnoresWrappedRun(t *testing.T) {
	type key struct{}
	e, _ := testbox.Toolbox().Lookup("fail")
	var wrapped atomic.Int32
	inner := e.Bind
	e.Name, e.ID = "traced_fail", "traced_fail"
	e.Bind = func(args string) (registry.Run, error) {
		run, err := inner(args)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (string, error) {
			wrapped.Add(1)
			return run(context.WithValue(ctx, key{}, "span"))
		}, nil
	}
	r, err := testbox.Toolbox().With(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check("traced_fail", `{}`); err != nil {
		t.Errorf("Check ran the tool: %v", err)
	}
	if got, _ := r.Lookup("traced_fail"); checkArgs(got, []byte(`{}`)) != nil {
		t.Error("binding ran the tool")
	}
	if n := wrapped.Load(); n != 0 {
		t.Errorf("checks ran the wrapped Run %d times, want 0", n)
	}
	// A call runs the wrapper, and through it the tool, once.
	if res := r.Call(context.Background(), "traced_fail", `{}`); !errors.Is(res.Err, tools.ErrFail) || wrapped.Load() != 1 {
		t.Errorf("Call = %q (%v) with the wrapper run %d times; want fail run once", res.Text, res.Err, wrapped.Load())
	}
	// A call whose arguments are repaired runs once, after the repair:
	// the refused arguments never bound, so nothing ran for them.
	if res := r.Call(context.Background(), "traced_fail", `"{}"`); !errors.Is(res.Err, tools.ErrFail) || wrapped.Load() != 2 {
		t.Errorf("repaired Call = %q (%v) with the wrapper run %d times in all; want it run once more, after the repair only", res.Text, res.Err, wrapped.Load())
	}
}

// checkArgs checks args for e without running the tool: it binds them and
// drops the Run.
func checkArgs(e registry.Entry, args []byte) error {
	_, err := e.Bind(string(args))
	return err
}
