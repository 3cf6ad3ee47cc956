package toolbox

import (
	"context"
	"fmt"
	"github.com/toolreg/toolreg/tool"
	"io"
	"os"
)

// Writer is a probe.
type Writer struct{}

// WriterArgs are its arguments.
type WriterArgs struct {
	// Q is a query.
	Q string `json:"q"`
}

// Definition describes the probe.
func (Writer) Definition() tool.Definition {
	return tool.Definition{ID: "writer", Description: "A probe. Use it when a test needs this case of the checks.", Capabilities: 0}
}

// Execute probes.
func (Writer) Execute(ctx context.Context, args WriterArgs) (string, error) {
	var w io.Writer = os.Stderr
	_, err := fmt.Fprintln(w, args.Q)
	return "", err
}
