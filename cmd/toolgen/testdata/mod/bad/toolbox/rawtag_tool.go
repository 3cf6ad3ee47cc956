package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// RawTag has a jsonschema tag that reflect cannot read: \d is not an
// escape of a Go string, so reflect.StructTag.Get("jsonschema") is empty
// and the pattern and the length were dropped without a word.
type RawTag struct{}

// RawTagArgs has a tag that is not a valid Go string.
type RawTagArgs struct {
	// Zip is a postal code of five digits, such as "94103".
	Zip string `json:"zip" jsonschema:"pattern=^\d{5}$,maxLength=5"`
	// Note is anything, with a tag that has no quotes around its value.
	Note string `json:"note,omitempty" jsonschema:maxLength=9`
}

// Definition describes rawtag.
func (RawTag) Definition() tool.Definition {
	return tool.Definition{ID: "rawtag", Description: "Look up a postal code. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (RawTag) Execute(ctx context.Context, args RawTagArgs) (string, error) { return args.Zip, nil }
