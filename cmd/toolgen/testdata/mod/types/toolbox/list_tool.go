package toolbox

import (
	"context"
	"fmt"

	"github.com/toolreg/toolreg/tool"
)

// List lists items a page at a time, as a tool whose arguments embed a
// struct: encoding/json reads the embedded fields as the outer struct's.
type List struct{}

// Paging is embedded in the arguments of several tools.
type Paging struct {
	// Page is the page to read, from 1.
	Page int `json:"page,omitempty" jsonschema:"minimum=1,default=1"`
	// PerPage is how many items a page holds.
	PerPage int `json:"per_page,omitempty" jsonschema:"minimum=1,maximum=100,default=20"`
}

// Order is how to sort a list.
type Order struct {
	// By is the key to sort on: name (alphabetical) or date (newest first).
	By string `json:"by" jsonschema:"enum=name,enum=date"`
}

// ListArgs are the arguments of list.
type ListArgs struct {
	Paging
	// Order sorts the items; by name when left out. Embedded with a json
	// name, it is a field like any other.
	*Order `json:"order,omitempty"`
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
