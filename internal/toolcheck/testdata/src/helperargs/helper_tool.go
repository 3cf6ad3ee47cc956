package helperargs

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Helper takes args declared in helper.go.
type Helper struct{} // want `the tool in helper_tool.go is left out because of the warnings at helper.go:11:2`

// Definition describes it.
func (Helper) Definition() tool.Definition {
	return tool.Definition{ID: "helper", Description: "x. Use it when a test needs this case of the checks."}
}

// Execute runs it.
func (Helper) Execute(ctx context.Context, args HelperArgs) (string, error) { return "", nil }
