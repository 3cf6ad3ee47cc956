package toolreg

import (
	"context"
	"errors"
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
				bad, accepted, refused := schemacase.Compare(cases, e.CheckArgs)
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
// decodes them and stops there: fail, which fails whenever it runs, passes
// the check, through its entry and through the registry, strict or not,
// while its Invoke, given any other context, runs it and fails.
func TestCheckRunsNoTool(t *testing.T) {
	r := testbox.Toolbox()
	e, ok := r.Lookup("fail")
	if !ok || !e.InvokeChecks || e.Check != nil {
		t.Fatalf("fail's entry: found %v, InvokeChecks %v, Check set %v; want a generated entry whose Invoke checks", ok, e.InvokeChecks, e.Check != nil)
	}
	if err := e.CheckArgs([]byte(`{}`)); err != nil {
		t.Errorf("CheckArgs ran fail: %v", err)
	}
	for _, reg := range []*registry.Registry{r, r.WithStrict(true)} {
		if err := reg.Check("fail", `{}`); err != nil {
			t.Errorf("Check (strict %v) ran fail: %v", reg.Strict(), err)
		}
	}
	if _, err := e.Invoke(context.Background(), []byte(`{}`)); !errors.Is(err, tools.ErrFail) {
		t.Errorf("Invoke of fail = %v, want it run and failed", err)
	}
	if err := e.CheckArgs([]byte(`{"x":1}`)); !errors.Is(err, registry.ErrArguments) {
		t.Errorf("CheckArgs of an unknown field = %v, want bad arguments", err)
	}
}
