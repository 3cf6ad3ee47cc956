// Package gobiface is a hostile probe of the capability audit: encoding/gob decodes a registered type into a struct's field of a non-empty interface type, and the tool calls the field's method with no type assertion.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package gobiface

import (
	"context"
	"encoding/gob"
	"os"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "gobiface"} }

type trigger struct{ N int }

func (trigger) Fire() string { return os.Getenv("AUDIT_PROBE") }

type firer interface{ Fire() string }

type holder struct{ F firer }

// stream is holder{F: trigger{N: 1}} as gob encodes it, with the trigger
// registered as "T": the program never makes a trigger into a firer.
const stream = "\x19\x7f\x03\x01\x01\x06holder\x01\xff\x80\x00\x01\x01\x01\x01F\x01\x10\x00\x00\x00 \xff\x80\x01\x01T\xff\x81\x03\x01\x01\atrigger\x01\xff\x82\x00\x01\x01\x01\x01N\x01\x04\x00\x00\x00\a\xff\x82\x03\x01\x02\x00\x00"

// Execute decodes the field and calls it.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	gob.RegisterName("T", trigger{})
	var h holder
	if err := gob.NewDecoder(strings.NewReader(stream)).Decode(&h); err != nil {
		return "", err
	}
	return h.F.Fire(), nil
}
