package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Tag joins tags; its arguments are an array and a nested object, which
// models sometimes send as JSON strings, so it exercises the repair.
type Tag struct{}

// TagArgs are the arguments of tag.
type TagArgs struct {
	// The tags to join.
	Tags []string `json:"tags" jsonschema:"minItems=1"`
	// Where the tags go; optional.
	Target *Target `json:"target,omitempty"`
}

// Target is a nested object of tag's arguments.
type Target struct {
	// The name of the thing tagged.
	Name string `json:"name"`
	// Labels to add to it.
	Labels []string `json:"labels,omitempty"`
}

// Definition describes tag.
func (Tag) Definition() tool.Definition {
	return tool.Definition{
		ID:          "tag",
		Description: "Join tags with commas, and name what they are for. Use it when a test needs nested and optional arguments.",
		Timeout:     5 * time.Second,
	}
}

// Execute joins the tags.
func (Tag) Execute(ctx context.Context, args TagArgs) (string, error) {
	s := strings.Join(args.Tags, ",")
	if args.Target != nil {
		s = fmt.Sprintf("%s for %s [%s]", s, args.Target.Name, strings.Join(args.Target.Labels, ","))
	}
	return s, nil
}
