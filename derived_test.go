package toolreg

import (
	"testing"

	"github.com/toolreg/toolreg/internal/schemacase"
	"github.com/toolreg/toolreg/internal/testbox"
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
				bad, accepted, refused := schemacase.Compare(cases, e.Check)
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
