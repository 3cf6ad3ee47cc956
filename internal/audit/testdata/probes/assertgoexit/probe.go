// Package assertgoexit: a type switch over a value traced through a
// closure called where it is made, a defer and a go statement.
package assertgoexit

import (
	"context"
	"os"
	"sync"

	"github.com/toolreg/toolreg/tool"
)

// Want is what the probe really does.
const Want = tool.Env

// Tool is the probe.
type Tool struct{}

// Args tell it where it may act.
type Args struct{ Dir string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "assertgoexit"} }

type trigger struct{}

func (trigger) act() string { return os.Getenv("AUDIT_PROBE") }

type actor interface{ act() string }

var out string

func check(v any, wg *sync.WaitGroup) {
	defer wg.Done()
	switch a := v.(type) {
	case actor:
		out = a.act()
	}
}

// Execute checks a trigger in a goroutine.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var wg sync.WaitGroup
	wg.Add(2)
	check(args, &wg)
	go check(trigger{}, &wg)
	wg.Wait()
	return out, nil
}
