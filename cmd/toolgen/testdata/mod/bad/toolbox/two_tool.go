package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// One is the first tool of the file.
type One struct{}

// Two is the second tool of the file.
type Two struct{}

// OneArgs are empty.
type OneArgs struct{}

// Definition describes one.
func (One) Definition() tool.Definition { return tool.Definition{ID: "two", Description: "One."} }

// Execute does nothing.
func (One) Execute(ctx context.Context, args OneArgs) (string, error) { return "", nil }

// Definition describes two.
func (Two) Definition() tool.Definition { return tool.Definition{ID: "two", Description: "Two."} }

// Execute does nothing.
func (Two) Execute(ctx context.Context, args OneArgs) (string, error) { return "", nil }
