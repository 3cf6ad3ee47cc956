package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"net/textproto"
)

// TextProto is a probe.
type TextProto struct{}

// TextProtoArgs are its arguments.
type TextProtoArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (TextProto) Definition() tool.Definition {
	return tool.Definition{ID: "textproto", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (TextProto) Execute(ctx context.Context, args TextProtoArgs) (string, error) {
	_, err := textproto.Dial("tcp", args.Q)
	return "", err
}
