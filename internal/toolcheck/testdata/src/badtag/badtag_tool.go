package badtag

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// BadTag is a tool.
type BadTag struct{}

// BadTagArgs are its arguments.
type BadTagArgs struct {
	// L is out of its bounds.
	L int `json:"l,omitempty" jsonschema:"minimum=1,maximum=5,default=7"` // want `field L: bad jsonschema tag: default 7 is outside minimum/maximum`
	// F is not a number.
	F float64 `json:"f" jsonschema:"maximum=NaN"` // want `field F: bad jsonschema tag: maximum: "NaN" is not a number`
	// D is a duplicate.
	D string `json:"l2"`
	// E has the same name.
	E string `json:"l2"` // want `field E: json name "l2" is also the name of field D`
}

// Definition describes it.
func (BadTag) Definition() tool.Definition {
	return tool.Definition{ID: "badtag", Description: "Does a thing. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (BadTag) Execute(ctx context.Context, args BadTagArgs) (string, error) {
	var r string
	return r, nil
}
