package toolbox

import "github.com/toolreg/toolreg/tool"

// BadSig's Execute takes no context.
type BadSig struct{}

// Definition describes badsig.
func (BadSig) Definition() tool.Definition {
	return tool.Definition{ID: "badsig", Description: "Wrong signature. Use it when a test needs this case of the checks."}
}

// Execute lacks the context and the error.
func (BadSig) Execute(args string) string { return args }
