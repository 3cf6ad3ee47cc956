// Package gobdecode is a hostile probe of the capability audit: a field's GobDecode, called by encoding/gob, reads the environment.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package gobdecode

import (
	"bytes"
	"context"
	"encoding/gob"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "gobdecode"} }

type trigger struct{ N int }

var got string

func (t trigger) GobEncode() ([]byte, error) { return []byte("x"), nil }

func (t *trigger) GobDecode([]byte) error { got = os.Getenv("AUDIT_PROBE"); return nil }

type outer struct{ X trigger }

// Execute round-trips a value whose field's method acts.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(outer{X: trigger{N: 1}}); err != nil { // a zero field is not sent
		return "", err
	}
	var o outer
	err := gob.NewDecoder(&buf).Decode(&o)
	return got, err
}
