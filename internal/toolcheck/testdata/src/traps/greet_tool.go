package traps

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// GreetArgs are the arguments of greet.
type GreetArgs struct {
	// Name is the name of the person to greet.
	Name string `json:"name"`
}

// Definition describes greet, but as a package-level function.
func Definition() tool.Definition { // want `make Definition and Execute methods of a tool type: type Greet struct\{\}; func \(Greet\) Definition\(\)`
	return tool.Definition{ID: "greet", Description: "Greet someone by name. Use it when the user asks to be greeted."}
}

// Execute greets, as a package-level function.
func Execute(ctx context.Context, args GreetArgs) (string, error) {
	return "Hello, " + args.Name, nil
}
