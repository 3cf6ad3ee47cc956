package bounds

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Bounds is a tool whose limits meet, cross, or nearly cross.
type Bounds struct{}

// BoundsArgs are its arguments: each pair of limits at, below and past
// the other.
type BoundsArgs struct {
	// A has one value.
	A int `json:"a" jsonschema:"minimum=5,maximum=5"`
	// B has two.
	B int `json:"b" jsonschema:"minimum=4,maximum=5"`
	// C has none.
	C int `json:"c" jsonschema:"minimum=10,maximum=1"` // want `field C: bad jsonschema tag: minimum 10 is greater than maximum 1`
	// D has none, by one.
	D int `json:"d" jsonschema:"minimum=6,maximum=5"` // want `field D: bad jsonschema tag: minimum 6 is greater than maximum 5`
	// E has none, by one past the precision of a float64.
	E int64 `json:"e" jsonschema:"minimum=9007199254740993,maximum=9007199254740992"` // want `field E: bad jsonschema tag: minimum 9007199254740993 is greater than maximum 9007199254740992`
	// F has one value, a fraction.
	F float64 `json:"f" jsonschema:"minimum=0.5,maximum=0.5"`
	// G has none, by a little.
	G float64 `json:"g" jsonschema:"minimum=0.5000001,maximum=0.5"` // want `field G: bad jsonschema tag: minimum 0.5000001 is greater than maximum 0.5`
	// S has one length.
	S string `json:"s" jsonschema:"minLength=3,maxLength=3"`
	// T has none.
	T string `json:"t" jsonschema:"minLength=4,maxLength=3"` // want `field T: bad jsonschema tag: minLength 4 is greater than maxLength 3`
	// U may be empty and nothing else.
	U string `json:"u" jsonschema:"minLength=0,maxLength=0"`
	// L has one count.
	L []int `json:"l" jsonschema:"minItems=2,maxItems=2"`
	// M has none.
	M []int `json:"m" jsonschema:"minItems=3,maxItems=2"` // want `field M: bad jsonschema tag: minItems 3 is greater than maxItems 2`
	// N defaults to its least value.
	N int `json:"n,omitempty" jsonschema:"minimum=1,maximum=5,default=1"`
	// O defaults to its greatest value.
	O int `json:"o,omitempty" jsonschema:"minimum=1,maximum=5,default=5"`
	// P defaults to one below its least value.
	P int `json:"p,omitempty" jsonschema:"minimum=1,maximum=5,default=0"` // want `field P: bad jsonschema tag: default 0 is outside minimum/maximum`
	// Q defaults to one past its greatest value.
	Q int `json:"q,omitempty" jsonschema:"minimum=1,maximum=5,default=6"` // want `field Q: bad jsonschema tag: default 6 is outside minimum/maximum`
	// R has a negative length.
	R string `json:"r" jsonschema:"maxLength=-1"` // want `field R: bad jsonschema tag: maxLength must be a non-negative integer, got "-1"`
}

// Definition describes it.
func (Bounds) Definition() tool.Definition {
	return tool.Definition{ID: "bounds", Description: "Echo the bounded numbers back unchanged. Use it when testing the limits of jsonschema tags."}
}

// Execute runs it.
func (Bounds) Execute(ctx context.Context, args BoundsArgs) (string, error) {
	var r string
	return r, nil
}
