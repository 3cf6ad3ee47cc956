package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// EmbedPtr embeds a pointer to a struct.
type EmbedPtr struct{}

// Cursor is embedded through a pointer.
type Cursor struct {
	// After is the cursor to read after.
	After string `json:"after"`
}

// EmbedPtrArgs are its arguments.
type EmbedPtrArgs struct {
	*Cursor // want `embedded pointer \*Cursor is not supported`
}

// Definition describes embedptr.
func (EmbedPtr) Definition() tool.Definition {
	return tool.Definition{ID: "embedptr", Description: "Case embedptr. Use it when a test needs this case of the checks."}
}

// Execute answers nothing.
func (EmbedPtr) Execute(ctx context.Context, args EmbedPtrArgs) (string, error) { return "", nil }
