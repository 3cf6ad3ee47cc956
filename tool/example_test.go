package tool_test

import (
	"context"
	"fmt"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Shout is a tool as a tool author writes it, in a file shout_tool.go of
// the tool package; toolgen reads its Definition and generates the rest.
type Shout struct{}

// ShoutArgs are the arguments the model sends.
type ShoutArgs struct {
	// Text to shout.
	Text string `json:"text" jsonschema:"minLength=1"`
}

// Definition describes the tool to the registry and the model.
func (Shout) Definition() tool.Definition {
	return tool.Definition{
		ID:          "shout",
		Description: "Repeat a text in capitals. Use it when the user asks to shout.",
		Timeout:     2 * time.Second,
	}
}

// Execute shouts, and says who asked: the facts of the call are in ctx.
func (Shout) Execute(ctx context.Context, args ShoutArgs) (string, error) {
	c, _ := tool.CallFrom(ctx)
	return fmt.Sprintf("%s! (call %s from %s)", args.Text, c.ID, c.Caller), nil
}

func Example() {
	// The registry puts the call's facts in the context before a tool
	// runs; here it is done by hand.
	ctx := tool.WithCall(context.Background(), tool.Call{ID: "call_1", Tool: "shout", Caller: "agent"})
	out, err := Shout{}.Execute(ctx, ShoutArgs{Text: "hi"})
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(out)
	// Output: hi! (call call_1 from agent)
}

func ExampleCapability() {
	caps := tool.Network | tool.Env
	fmt.Println(caps, caps.Changes())
	c, ok := tool.ParseCapabilities("exec,read_files")
	fmt.Println(c, c.Changes(), ok)
	// Output:
	// network,env false
	// exec,read_files true true
}
