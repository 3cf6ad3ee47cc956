package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// BadTag has broken jsonschema tags.
type BadTag struct{}

// BadTagArgs has broken tags.
type BadTagArgs struct {
	// A count.
	N int `json:"n" jsonschema:"minimum=abc"`
	// A word.
	W string `json:"w" jsonschema:"color=red"`
	// A level.
	L int `json:"l,omitempty" jsonschema:"minimum=1,maximum=3,default=7"`
}

// Definition describes badtag.
func (BadTag) Definition() tool.Definition {
	return tool.Definition{ID: "badtag", Description: "Broken tags. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (BadTag) Execute(ctx context.Context, args BadTagArgs) (string, error) { return "", nil }
