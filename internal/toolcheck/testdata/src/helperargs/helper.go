package helperargs

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// HelperArgs are declared away from the tool.
type HelperArgs struct {
	N /* want `parameter "n" has no description` */ int `json:"n"`
}

var _ context.Context
var _ tool.Definition
