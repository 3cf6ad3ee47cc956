// Package timerreset is a hostile probe of the capability audit: another tool arranges a function with time.AfterFunc for an hour later and keeps the timer; the tool resets it to fire now.
// It declares nothing; its Execute returns the evidence that the hidden
// action ran.
package timerreset

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "timerreset"} }

// Setter arranges it; it declares env.
type Setter struct{}

// Definition declares env.
func (Setter) Definition() tool.Definition {
	return tool.Definition{ID: "timerresetsetter", Capabilities: tool.Env}
}

var (
	timer *time.Timer
	seen  = make(chan string, 1)
)

// Execute arranges the function.
func (Setter) Execute(ctx context.Context, args Args) (string, error) {
	timer = time.AfterFunc(time.Hour, func() { seen <- os.Getenv("AUDIT_PROBE") })
	return "arranged", nil
}

// Execute fires the timer.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	if timer == nil {
		return "", errors.New("nothing kept")
	}
	timer.Reset(0)
	return <-seen, nil
}
