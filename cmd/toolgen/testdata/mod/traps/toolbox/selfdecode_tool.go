package toolbox

import (
	"context"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// SelfDecode takes a string type with an UnmarshalText method of its own.
type SelfDecode struct{}

// Shade is a color name, read in any letter case.
type Shade string

// UnmarshalText reads a shade in any letter case.
func (s *Shade) UnmarshalText(b []byte) error {
	*s = Shade(strings.ToLower(string(b)))
	return nil
}

// SelfDecodeArgs are its arguments.
type SelfDecodeArgs struct {
	// Shade to paint with, such as red.
	Shade Shade `json:"shade"`
}

// Definition describes selfdecode.
func (SelfDecode) Definition() tool.Definition {
	return tool.Definition{ID: "selfdecode", Description: "Case selfdecode. Use it when a test needs this case of the checks."}
}

// Execute answers nothing.
func (SelfDecode) Execute(ctx context.Context, args SelfDecodeArgs) (string, error) { return "", nil }
