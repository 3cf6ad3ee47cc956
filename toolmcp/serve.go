package toolmcp

//lint:file-ignore SA1019 MCP logging and roots are deprecated as of protocol 2026-07-28 and functional for at least twelve months; toolreg serves and mounts servers that speak the earlier versions

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/skill"
	"github.com/toolreg/toolreg/telemetry"
	"github.com/toolreg/toolreg/tool"
)

// DefaultServerName is the implementation name a server gives its clients
// when ServerOptions.Name is empty.
const DefaultServerName = "toolreg"

// ServerOptions configures NewServer. The zero value is ready to use.
type ServerOptions struct {
	// Name and Version identify the server to its clients; Name defaults
	// to DefaultServerName and Version to the main module's version.
	Name, Version string
	// Instructions are sent to clients on initialization, if not empty.
	Instructions string
	// Logger receives the SDK's logs and one debug record per call;
	// nothing is logged when nil. Give the registry its own logger
	// (Registry.WithLogger) for panics and timeouts.
	Logger *slog.Logger
	// Annotate returns the MCP annotations of a tool (read-only,
	// destructive, idempotent, open-world hints), or nil for none;
	// Annotations, from the capability audit, when nil.
	Annotate func(e registry.Entry) *mcp.ToolAnnotations
	// Skills are served as prompts, one per skill: prompts/list gives
	// their names and descriptions, prompts/get a skill's body as a user
	// message. None when nil.
	Skills *skill.Set
	// Telemetry, when enabled, traces every request the server receives
	// with a server span "{mcp.method.name} {tool}", child of the trace
	// context in the request's params._meta, and records
	// mcp.server.operation.duration. Off when nil or disabled.
	Telemetry *telemetry.Providers
	// Tools, when not nil, returns the registry to serve in place of
	// reg, read at each tools/list and tools/call: for a tool set that
	// changes while it is served, such as one with the tools of mounted
	// servers. The server then claims tools.listChanged; call
	// ToolsChanged after each change so that its clients hear of it.
	Tools func() *registry.Registry
}

// NewServer returns an MCP server of the tools of reg. Each tool's
// inputSchema is its precomputed Entry.Parameters, and each call goes
// through reg.Call with a tool.Call whose Caller is tool.CallerMCP in its context.
// A failed call is a result with isError set and the registry's "Error:"
// text. It is an error for a tool's schema not to be a JSON object of type
// "object", which the SDK would otherwise reject with a panic.
func NewServer(reg *registry.Registry, opts *ServerOptions) (*mcp.Server, error) {
	var o ServerOptions
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = DefaultServerName
	}
	if o.Version == "" {
		o.Version = moduleVersion()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: o.Name, Version: o.Version}, &mcp.ServerOptions{
		Instructions: o.Instructions,
		Logger:       o.Logger,
		// Tools even when none is selected (the list never changes),
		// and logging, of the server's own messages.
		Capabilities: capabilities(o.Skills, o.Tools != nil),
	})
	ts, err := newServed(reg, &o)
	if err != nil {
		return nil, err
	}
	srv.AddReceivingMiddleware(ts.serve)
	if o.Telemetry.Enabled() {
		// Added last, so it is the outermost: it sees the tools/call the
		// middleware above answers.
		srv.AddReceivingMiddleware(serverTelemetry(o.Telemetry, func(name string) bool {
			_, ok := ts.current().reg.Lookup(name)
			return ok
		}))
	}
	for _, k := range o.Skills.List() {
		srv.AddPrompt(&mcp.Prompt{Name: k.Name, Description: k.Description}, prompt(k, o.Logger))
	}
	return srv, nil
}

// capabilities are what the server offers: tools, even when none is
// selected, whose list changes only when live; logging, of the server's
// own messages about calls at the level the client sets
// (logging/setLevel); and prompts when there are skills.
func capabilities(skills *skill.Set, live bool) *mcp.ServerCapabilities {
	c := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: live}, Logging: &mcp.LoggingCapabilities{}}
	if skills.Len() > 0 {
		c.Prompts = &mcp.PromptCapabilities{}
	}
	return c
}

// prompt returns the prompts/get handler of a skill: its body, as one user
// message. The skill takes no arguments.
func prompt(k skill.Skill, logger *slog.Logger) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if len(req.Params.Arguments) > 0 {
			return nil, fmt.Errorf("prompt %s takes no arguments", k.Name)
		}
		logger.DebugContext(ctx, "mcp: prompt", "skill", k.Name)
		return &mcp.GetPromptResult{
			Description: k.Description,
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: k.Body}}},
		}, nil
	}
}

// served is the tools of a server. They are served by a middleware that
// answers tools/list and tools/call, rather than given to the SDK one by
// one: its Server.AddTool reads each tool's schemas three times over
// (checking the input schema's type, looking for parameter headers,
// checking the output schema), 0.1 ms a tool, while the registry has
// checked them already. toolreg's schemas carry no x-mcp-header
// annotations, so the SDK's header checks for HTTP calls, which look
// tools up among its own, have nothing to check.
//
// At start it reads only the output schemas, of the tools that answer with
// a struct, so that a bad one fails NewServer. The list is made when a
// client first asks for it: a server of 1,000 tools starts without
// building 1,000 descriptions, and a call finds its tool in the registry.
type served struct {
	logger   *slog.Logger
	annotate func(registry.Entry) *mcp.ToolAnnotations
	// source returns the registry to serve; nil when it never changes.
	source func() *registry.Registry

	mu   sync.Mutex
	view *servedView // of the registry source last returned
}

// servedView is what is served of one registry.
type servedView struct {
	reg *registry.Registry
	// outs holds the output of each tool with a structured result.
	outs map[string]*output
	// list returns the tools in the registry's order, sent in one page.
	list func() []*mcp.Tool
}

// newServed reads the output schemas of reg's tools.
func newServed(reg *registry.Registry, o *ServerOptions) (*served, error) {
	ts := &served{logger: o.Logger, annotate: o.Annotate, source: o.Tools}
	if ts.annotate == nil {
		ts.annotate = Annotations
	}
	v, err := ts.newView(reg)
	if err != nil {
		return nil, err
	}
	ts.view = v
	return ts, nil
}

// newView reads the output schemas of reg's tools.
func (ts *served) newView(reg *registry.Registry) (*servedView, error) {
	tools := reg.Tools()
	v := &servedView{reg: reg, outs: map[string]*output{}}
	for i := range tools {
		out, err := newOutput(tools[i].Output)
		if err != nil {
			return nil, fmt.Errorf("toolmcp: tool %q: output schema: %w", tools[i].Name, err)
		}
		if out != nil {
			v.outs[tools[i].Name] = out
		}
	}
	v.list = sync.OnceValue(func() []*mcp.Tool {
		list := make([]*mcp.Tool, len(tools))
		for i := range tools {
			list[i] = mcpTool(&tools[i], ts.annotate, v.outs[tools[i].Name])
		}
		return list
	})
	return v, nil
}

// current returns the view of the registry to serve now. A registry whose
// output schemas cannot be read (the one given to NewServer was checked)
// keeps the view of the last.
func (ts *served) current() *servedView {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.source == nil {
		return ts.view
	}
	if reg := ts.source(); reg != nil && reg != ts.view.reg {
		v, err := ts.newView(reg)
		if err != nil {
			ts.logger.Error("mcp: the changed tool set is not served", "err", err)
			return ts.view
		}
		ts.view = v
	}
	return ts.view
}

// serve is the receiving middleware that answers for the tools.
func (ts *served) serve(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			if r, ok := req.(*mcp.ListToolsRequest); ok && r.Params != nil && r.Params.Cursor != "" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid cursor %q: the tools fit one page", clipLine(r.Params.Cursor, maxNameShown))}
			}
			// The list is the same for every client; it changes only
			// with a live tool set, which says so with list_changed.
			return &mcp.ListToolsResult{Tools: ts.current().list(), Cacheable: mcp.Cacheable{CacheScope: "public"}}, nil
		case "tools/call":
			r, ok := req.(*mcp.CallToolRequest)
			if !ok || r.Params == nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/call without parameters"}
			}
			v := ts.current()
			e, ok := v.reg.Lookup(r.Params.Name)
			if !ok {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", clipLine(r.Params.Name, maxNameShown))}
			}
			if missing := missingScopes(ctx, e.Capabilities|e.Reaches); len(missing) > 0 {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(
					"Error: the access token may not call %s: it lacks the scope %s", r.Params.Name, strings.Join(missing, " "))}}}, nil
			}
			return callTool(ctx, v.reg, r.Params.Name, v.outs[r.Params.Name], ts.logger, r)
		}
		return next(ctx, method, req)
	}
}

// listChangedTool is the name of the tool ToolsChanged adds to the SDK's
// own list and removes at once; the middleware answers tools/list and
// tools/call before the SDK, so no client ever sees it.
const listChangedTool = "toolreg-tools-changed"

// ToolsChanged tells the clients of srv, a server made by NewServer with
// ServerOptions.Tools, that its tools changed: each session gets
// notifications/tools/list_changed (those of protocol 2026-07-28 when
// they subscribed to it), once for changes close together. The SDK sends
// the notification only when its own tools change, so ToolsChanged adds a
// tool to them and removes it again.
func ToolsChanged(srv *mcp.Server) {
	srv.AddTool(&mcp.Tool{Name: listChangedTool, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, fmt.Errorf("%s is not a tool", listChangedTool)
		})
	srv.RemoveTools(listChangedTool)
}

// mcpTool returns the MCP description of e, whose structured output is
// out (nil for a tool with a text result).
func mcpTool(e *registry.Entry, annotate func(registry.Entry) *mcp.ToolAnnotations, out *output) *mcp.Tool {
	// The registry checked that e.Parameters is a JSON object of type
	// "object" (registry.New and Registry.With refuse others): it is
	// not read again here.
	t := &mcp.Tool{
		Name:        e.Name,
		Description: e.Description,
		InputSchema: json.RawMessage(e.Parameters),
		Annotations: annotate(*e),
	}
	if out != nil {
		t.OutputSchema = out.schema
	}
	return t
}

// output is the shape of a tool's structured result. MCP wants an object
// in structuredContent, so a result of another type (a list, a number) is
// wrapped as {"result": value}.
type output struct {
	schema json.RawMessage
	wrap   bool
}

// newOutput returns the output of a tool whose result has the given JSON
// Schema, or nil when schema is "".
func newOutput(schema string) (*output, error) {
	if schema == "" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(schema), &m); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if m["type"] == "object" {
		return &output{schema: json.RawMessage(schema)}, nil
	}
	// Keep definitions at the root, where the result's references point.
	wrapper := map[string]any{
		"type":       "object",
		"properties": map[string]any{"result": m},
		"required":   []string{"result"},
	}
	for _, k := range []string{"$defs", "definitions"} {
		if d, ok := m[k]; ok {
			wrapper[k] = d
			delete(m, k)
		}
	}
	b, err := json.Marshal(wrapper)
	if err != nil {
		return nil, fmt.Errorf("wrap: %w", err)
	}
	return &output{schema: b, wrap: true}, nil
}

// structured returns the structuredContent of a result whose JSON text is
// text, and false if text does not fit the output's shape.
func (o *output) structured(text string) (json.RawMessage, bool) {
	if !json.Valid([]byte(text)) {
		return nil, false
	}
	if o.wrap {
		b, err := json.Marshal(map[string]json.RawMessage{"result": json.RawMessage(text)})
		return b, err == nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &obj) != nil || obj == nil {
		return nil, false
	}
	return json.RawMessage(text), true
}

// callTool answers a call of the named tool of reg, whose structured
// output is out.
func callTool(ctx context.Context, reg *registry.Registry, name string, out *output, logger *slog.Logger, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c := tool.Call{ID: callID(), Tool: name, Caller: tool.CallerMCP}
	if req.Session != nil {
		c.Session = req.Session.ID()
	}
	ctx = tool.WithCall(ctx, c)
	if req.Session != nil {
		// The server's own messages about the call also go to the
		// client, at the level it set; none before it sets one.
		logger = slog.New(slog.NewMultiHandler(logger.Handler(),
			mcp.NewLoggingHandler(req.Session, &mcp.LoggingHandlerOptions{LoggerName: DefaultServerName})))
		if tok := req.Params.GetProgressToken(); tok != nil {
			ctx = tool.WithProgress(ctx, progressSender(ctx, req.Session, tok, logger, reg.Redact))
		}
	}
	// Over HTTP, the call ends when its client goes away (the SDK
	// does not tie the two for protocol versions before 2026-07-28).
	ctx, stop := linkRequest(ctx)
	defer stop()
	res := reg.Call(ctx, name, string(req.Params.Arguments))
	logger.DebugContext(ctx, "mcp: tool call", "tool", name, "id", c.ID,
		"duration", res.Duration, "failed", res.Failed())
	// The images and audio of a mounted tool's result are passed on
	// after its text, which describes them.
	media, notes := relay(res.Media, MaxRelayedItem, MaxRelayedTotal)
	r := &mcp.CallToolResult{Content: append([]mcp.Content{&mcp.TextContent{Text: res.Text + notes}}, media...)}
	if res.Failed() {
		recordOutcome(ctx, res.Err)
		r.IsError = true
		return r, nil
	}
	if out != nil {
		sc, ok := out.structured(res.Text)
		if !ok {
			logger.WarnContext(ctx, "mcp: result does not fit the output schema; sent as text only", "tool", name)
			return r, nil
		}
		r.StructuredContent = sc
	}
	return r, nil
}

// progressSender returns the tool.ProgressFunc of a call whose client
// gave the progress token tok: each report whose progress exceeds the last
// one is sent as notifications/progress, as the spec requires of a
// progress that only increases, its message through redact as the
// call's result is; the others are dropped.
func progressSender(ctx context.Context, ss *mcp.ServerSession, tok any, logger *slog.Logger, redact func(string) string) tool.ProgressFunc {
	var mu sync.Mutex
	last, sent := 0.0, false
	return func(_ context.Context, done, total float64, message string) {
		mu.Lock()
		defer mu.Unlock()
		if sent && done <= last {
			return
		}
		last, sent = done, true
		p := &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: done, Message: redact(message)}
		if total > 0 {
			p.Total = total
		}
		if err := ss.NotifyProgress(ctx, p); err != nil && ctx.Err() == nil {
			logger.DebugContext(ctx, "mcp: progress not sent", "err", err)
		}
	}
}

// callID returns a fresh id for a call. The SDK does not expose the
// JSON-RPC request id to handlers, so the id is random: unique across
// replicas, for logs.
func callID() string {
	return "mcp-" + rand.Text()[:16]
}

// moduleVersion returns the main module's version, or "devel".
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// Annotations returns the MCP annotations that toolreg knows of a tool from
// its capabilities, declared and found at generate time: a tool that
// neither runs programs nor writes files is read-only, one that does is
// destructive, and only a tool with network access reaches an open world.
func Annotations(e registry.Entry) *mcp.ToolAnnotations {
	caps := e.Capabilities | e.Reaches
	changes := caps.Changes()
	open := caps&tool.Network != 0
	a := &mcp.ToolAnnotations{ReadOnlyHint: !changes, OpenWorldHint: &open}
	if changes {
		a.DestructiveHint = &changes
	}
	return a
}
