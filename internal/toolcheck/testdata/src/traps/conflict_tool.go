package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Conflict embeds a struct whose field has the json name of its own.
type Conflict struct{}

// Window is embedded.
type Window struct {
	// Page is the page of the window.
	Page int `json:"page"`
}

// ConflictArgs are its arguments.
type ConflictArgs struct {
	Window
	// Page is the page, again.
	Page int `json:"page"` // want `field Page: json name "page" is also the name of field Window.Page`
}

// Definition describes conflict.
func (Conflict) Definition() tool.Definition {
	return tool.Definition{ID: "conflict", Description: "Case conflict. Use it when a test needs this case of the checks."}
}

// Execute answers nothing.
func (Conflict) Execute(ctx context.Context, args ConflictArgs) (string, error) { return "", nil }
