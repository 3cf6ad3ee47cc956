package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// BOM is a trap of issue 31.
type BOM struct{}

// BOMArgs are its arguments.
type BOMArgs struct {
	// Word is a word with a default.
	Word string "json:\"word,omitempty\" jsonschema:\"default=\ufeffhello\"" // want `field Word: the jsonschema tag holds a byte-order mark`
}

// Definition describes bom.
func (BOM) Definition() tool.Definition {
	return tool.Definition{ID: "bom", Description: "Case bom. Use it when a test needs this case of the checks."}
}

// Execute answers with the zero value.
func (BOM) Execute(ctx context.Context, args BOMArgs) (string, error) {
	var r string
	return r, nil
}
