package agentcli

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sashabaranov/go-openai"
	"github.com/toolreg/toolreg/deferred"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
	"github.com/toolreg/toolreg/toolmcp"
)

// mountedTools is a tool set with the tools of mounted MCP servers, which
// change when a server says its tools changed.
type mountedTools struct {
	// base is the local tools, selected, with the logger, redaction and
	// executor of the tool set; the mounted tools join it.
	base   *registry.Registry
	mounts *toolmcp.Mounts
	// deny are the -deny capabilities: a mounted tool with one of them
	// is left out, now and after a change.
	deny tool.Capability
}

// registry returns base with the mounted tools of the moment.
func (t *mountedTools) registry() (*registry.Registry, error) {
	var add []registry.Entry
	for _, e := range t.mounts.Entries() {
		if e.AllCapabilities()&t.deny == 0 {
			add = append(add, e)
		}
	}
	reg, err := t.base.With(add...)
	if err != nil {
		return nil, fmt.Errorf("-mcp: %w", err)
	}
	return reg, nil
}

// offeredLive is offered for a conversation: reg is the tool set now, and
// derive makes it from the tool set a mounted server's change makes
// (strict mode, confirmation). Without mounted servers it is offered.
func (o *options) offeredLive(reg *registry.Registry, derive func(*registry.Registry) *registry.Registry, warn io.Writer) (registry.ToolSet, error) {
	first, err := o.offered(reg)
	if err != nil {
		return nil, err
	}
	_, search := first.(*deferred.Set)
	if n := len(reg.Names()); !search && n > maxRequestTools {
		fmt.Fprintf(warn, "agent: -tool-search off offers all %d tools with every request; OpenAI refuses more than %d: use -tool-search auto, or fewer tools (-tools, -disable)\n", n, maxRequestTools)
	}
	if o.sel.mounted == nil {
		return first, nil
	}
	return &liveToolSet{
		mounted: o.sel.mounted,
		derive:  derive,
		search:  search,
		warn:    warn,
		changed: o.sel.mountedChanged,
		cur:     first,
	}, nil
}

// liveToolSet offers a conversation the tool set of the moment: before each
// request to the model it takes up the change of a mounted server, if any
// (see toolmcp.Mounts.Changed). With tool search, the tools the model had
// loaded stay loaded, those still there.
type liveToolSet struct {
	mounted *mountedTools
	derive  func(*registry.Registry) *registry.Registry
	search  bool
	warn    io.Writer

	mu      sync.Mutex
	changed <-chan struct{}
	cur     registry.ToolSet
}

// tools returns the tool set to offer now.
func (l *liveToolSet) tools() registry.ToolSet {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-l.changed:
	default:
		return l.cur
	}
	l.changed = l.mounted.mounts.Changed()
	reg, err := l.mounted.registry()
	if err != nil {
		fmt.Fprintf(l.warn, "agent: the changed tools of the MCP servers are not offered: %v\n", err)
		return l.cur
	}
	reg = l.derive(reg)
	if !l.search {
		l.cur = reg
		return l.cur
	}
	var d *deferred.Set
	if cur, ok := l.cur.(*deferred.Set); ok {
		// The pinned tools stay pinned, and the loaded ones may be
		// unloaded as before.
		d, err = cur.Rebase(reg)
	} else {
		d, err = deferred.New(reg, deferred.Options{})
	}
	if err != nil {
		fmt.Fprintf(l.warn, "agent: the changed tools of the MCP servers are not offered: %v\n", err)
		return l.cur
	}
	l.cur = d
	return l.cur
}

// Specs implements registry.ToolSet.
func (l *liveToolSet) Specs() []openai.Tool { return l.tools().Specs() }

// Call implements registry.ToolSet.
func (l *liveToolSet) Call(ctx context.Context, name, args string) registry.Result {
	return l.tools().Call(ctx, name, args)
}

// serveLive makes srv, which serves reg, follow the changes of the
// mounted tools until ctx ends: it serves the new set and tells its
// clients (notifications/tools/list_changed). It returns the function
// that srv's ServerOptions.Tools reads, nil without mounted servers, and
// the function that starts following.
func (s *selection) serveLive(reg *registry.Registry, warn io.Writer) (current func() *registry.Registry, follow func(ctx context.Context, srv *mcp.Server)) {
	if s.mounted == nil {
		return nil, func(context.Context, *mcp.Server) {}
	}
	var mu sync.Mutex
	cur := reg
	current = func() *registry.Registry {
		mu.Lock()
		defer mu.Unlock()
		return cur
	}
	follow = func(ctx context.Context, srv *mcp.Server) {
		changed := s.mountedChanged
		for {
			select {
			case <-ctx.Done():
				return
			case <-changed:
			}
			changed = s.mounted.mounts.Changed()
			next, err := s.mounted.registry()
			if err != nil {
				fmt.Fprintf(warn, "agent: the changed tools of the MCP servers are not served: %v\n", err)
				continue
			}
			mu.Lock()
			cur = next
			mu.Unlock()
			toolmcp.ToolsChanged(srv)
		}
	}
	return current, follow
}
