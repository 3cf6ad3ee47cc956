package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Recursive embeds a recursive type in its arguments, whose fields
// encoding/json would read as the arguments' own: no object is left for
// a $ref to name. (A recursive type in a named field is supported.)
type Recursive struct{}

// RecursiveArgs embeds a tree node.
type RecursiveArgs struct {
	// The root of the tree.
	Node
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
