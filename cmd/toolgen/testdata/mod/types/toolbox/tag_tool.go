package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/toolreg/toolreg/tool"
)

// Tag sets labels on a resource, as a tool whose arguments are maps and
// values of any JSON type: strict mode cannot state them, so it has no
// strict schema.
type Tag struct{}

// Label is the name of a label.
type Label string

// TagArgs are the arguments of tag.
type TagArgs struct {
	// Labels maps each label name to its value.
	Labels map[Label]string `json:"labels"`
	// Weights maps a label to a weight, if any are given.
	Weights map[string]int8 `json:"weights,omitempty"`
	// Groups maps a group name to the labels it holds.
	Groups map[string][]Label `json:"groups,omitempty"`
	// Extra is stored with the resource as it is: any JSON value.
	Extra any `json:"extra"`
	// Raw is kept as its JSON text, if given.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// Definition describes tag.
func (Tag) Definition() tool.Definition {
	return tool.Definition{ID: "tag", Description: "Set labels on a resource, with values and weights. Use it when the user asks to label or tag something."}
}

// Execute answers what it was given.
func (Tag) Execute(ctx context.Context, args TagArgs) (string, error) {
	var keys []string
	for k, v := range args.Labels {
		keys = append(keys, string(k)+"="+v)
	}
	sort.Strings(keys)
	return fmt.Sprintf("%v %v %v %T:%v %s", keys, args.Weights, args.Groups, args.Extra, args.Extra, args.Raw), nil
}
