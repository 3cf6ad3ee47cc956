package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// DashKey is a tool of issue 31: a field whose json tag "-," names the
// key "-", as encoding/json defines it, once made toolgen panic.
type DashKey struct{}

// DashKeyArgs are its arguments.
type DashKeyArgs struct {
	// Dash is the value of the key "-".
	Dash string `json:"-,"`
	// Skipped is left out of the JSON, as encoding/json leaves it out.
	Skipped string `json:"-"`
	// Quiet is optional.
	Quiet bool `json:"quiet,omitempty"`
}

// Definition describes dashkey.
func (DashKey) Definition() tool.Definition {
	return tool.Definition{ID: "dashkey", Description: "Case dashkey. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (DashKey) Execute(ctx context.Context, args DashKeyArgs) (string, error) {
	var r string
	return r, nil
}
