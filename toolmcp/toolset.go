package toolmcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sashabaranov/go-openai"
	"github.com/toolreg/toolreg"
)

// Toolset is the local tools of a registry and the tools of mounted MCP
// servers behind one Specs and Call, the methods of the agent's tools
// interface (chat.Tools). Its methods are safe for concurrent use.
type Toolset struct {
	local  *toolreg.Registry
	mounts *Mounts
	// remote are the mounted tools offered, those whose name no local
	// tool takes.
	remote []openai.Tool
	names  []string
}

// NewToolset returns the tools of local followed by the tools of mounts.
// Either may be nil. A local tool wins over a mounted tool of the same
// name, which is then left out; give Mount the local names in
// MountOptions.Reserved to avoid that.
func NewToolset(local *toolreg.Registry, mounts *Mounts) *Toolset {
	ts := &Toolset{local: local, mounts: mounts}
	if local != nil {
		ts.names = local.Names()
	}
	if mounts != nil {
		for _, s := range mounts.Specs() {
			if ts.isLocal(s.Function.Name) {
				continue
			}
			ts.remote = append(ts.remote, s)
			ts.names = append(ts.names, s.Function.Name)
		}
	}
	return ts
}

func (ts *Toolset) isLocal(name string) bool {
	if ts.local == nil {
		return false
	}
	_, ok := ts.local.Lookup(name)
	return ok
}

// Specs returns the tools spec table sent to the model: the local tools
// sorted by name, then the mounted tools sorted by name.
func (ts *Toolset) Specs() []openai.Tool {
	var out []openai.Tool
	if ts.local != nil {
		out = ts.local.Specs()
	}
	return append(slices.Clip(out), ts.remote...)
}

// Names returns the names of all the tools, in the order of Specs.
func (ts *Toolset) Names() []string {
	return slices.Clone(ts.names)
}

// Call runs the named local tool, or forwards the call of a mounted tool to
// its server. It never panics; a failure is a Result whose Text begins
// "Error:".
func (ts *Toolset) Call(ctx context.Context, name, args string) toolreg.Result {
	if ts.isLocal(name) {
		return ts.local.Call(ctx, name, args)
	}
	if ts.mounts != nil && ts.mounts.Has(name) {
		return ts.mounts.Call(ctx, name, args)
	}
	return toolreg.Result{
		Text: fmt.Sprintf("Error: unknown tool %q; available tools: %s", name, strings.Join(ts.names, ", ")),
		Err:  fmt.Errorf("%w %q", toolreg.ErrUnknownTool, name),
	}
}
