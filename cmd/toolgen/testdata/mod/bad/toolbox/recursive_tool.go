package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Recursive has a recursive argument type.
type Recursive struct{}

// RecursiveArgs holds a tree.
type RecursiveArgs struct {
	// The root of the tree.
	Root Node `json:"root"`
}

// Node is a tree node.
type Node struct {
	// Children of the node.
	Children []Node `json:"children"`
}

// Definition describes recursive.
func (Recursive) Definition() tool.Definition {
	return tool.Definition{ID: "recursive", Description: "Recursive arguments. Use it when a test needs this case of the checks."}
}

// Execute does nothing.
func (Recursive) Execute(ctx context.Context, args RecursiveArgs) (string, error) { return "", nil }
