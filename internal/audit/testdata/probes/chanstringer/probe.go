// Package chanstringer is a hostile probe of the capability audit:
// another tool (Setter, which declares env) sends on a channel a value
// whose String method reads the environment; the tool formats the value
// it receives with fmt.Sprint, which calls String. It declares nothing;
// its Execute returns the evidence that the hidden action ran.
package chanstringer

import (
	"context"
	"fmt"
	"os"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "chanstringer"} }

type fromEnv struct{ key string }

func (e fromEnv) String() string { return os.Getenv(e.key) }

var values = make(chan fmt.Stringer, 1)

// Setter sends a value; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "chanstringersetter", Capabilities: tool.Env}
}

// Execute sends a value.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	values <- fromEnv{"AUDIT_PROBE"}
	return "set", nil
}

// Execute formats a value, it seems.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var v any = "none"
	select {
	case s := <-values:
		v = s
	default:
	}
	return fmt.Sprint(v), nil
}
