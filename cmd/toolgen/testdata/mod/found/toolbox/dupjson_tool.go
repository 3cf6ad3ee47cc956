package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// DupJSON is a tool found by the invariant test.
type DupJSON struct{}

// DupJSONArgs are its arguments.
type DupJSONArgs struct {
	// A is the first field named x.
	A string `json:"x"`
	// B is x too.
	B string `json:"x"`
}

// Definition describes dupjson.
func (DupJSON) Definition() tool.Definition {
	return tool.Definition{ID: "dupjson", Description: "Case dupjson. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (DupJSON) Execute(ctx context.Context, args DupJSONArgs) (string, error) {
	var r string
	return r, nil
}
