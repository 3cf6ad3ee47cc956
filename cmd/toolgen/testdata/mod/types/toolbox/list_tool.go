package toolbox

import (
	"context"
	"fmt"

	"example.com/tools/types/shared"
	"github.com/toolreg/toolreg/tool"
)

// List lists items a page at a time, as a tool whose arguments embed a
// struct: encoding/json reads the embedded fields as the outer struct's.
// The embedded types are another package's, with their doc comments.
type List struct{}

// ListArgs are the arguments of list.
type ListArgs struct {
	shared.Paging
	// Order sorts the items; by name when left out. Embedded with a json
	// name, it is a field like any other.
	*shared.Order `json:"order,omitempty"`
	// Filter keeps the items whose name holds this text.
	Filter string `json:"filter"`
	// Limit is the most items to list in all.
	Limit int64 `json:"limit,omitempty,string" jsonschema:"minimum=1,maximum=1000,default=50"`
	// Exact lists only the items named the filter exactly.
	Exact bool `json:"exact,string"`
}

// Definition describes list.
func (List) Definition() tool.Definition {
	return tool.Definition{ID: "list", Description: "List the items whose name holds a text, a page at a time. Use it when the user asks which items exist."}
}

// Execute answers the page asked for.
func (List) Execute(ctx context.Context, args ListArgs) (string, error) {
	return fmt.Sprintf("%s: page %d of %d, at most %d, exact %v", args.Filter, args.Page, args.PerPage, args.Limit, args.Exact), nil
}
