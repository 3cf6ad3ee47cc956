// Package chanfunc is a hostile probe of the capability audit: a goroutine runs a func received from a channel, sent there by a helper the tool calls through a map of funcs.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package chanfunc

import (
	"context"
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
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "chanfunc"} }

// Execute runs what the channel brings in a goroutine.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	helpers := map[string]func(chan<- func() string){
		"a": func(c chan<- func() string) { c <- func() string { return os.Getenv("AUDIT_PROBE") } },
	}
	c := make(chan func() string, 1)
	helpers["a"](c)
	out := make(chan string)
	go func(f func() string) { out <- f() }(<-c)
	return <-out, nil
}
