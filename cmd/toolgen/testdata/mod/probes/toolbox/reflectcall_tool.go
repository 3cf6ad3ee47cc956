package toolbox

import (
	"context"
	"github.com/toolreg/toolreg/tool"
	"reflect"
)

// ReflectCall is a probe.
type ReflectCall struct{}

// ReflectCallArgs are its arguments.
type ReflectCallArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (ReflectCall) Definition() tool.Definition {
	return tool.Definition{ID: "reflectcall", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (ReflectCall) Execute(ctx context.Context, args ReflectCallArgs) (string, error) {
	reflect.ValueOf(ctx).MethodByName(args.Q).Call(nil)
	return "", nil
}
