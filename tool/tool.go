// Package tool is what a toolreg tool author imports.
//
// A tool is one file, toolbox/<id>_tool.go, that exports a type with two
// methods:
//
//	func (T) Definition() tool.Definition
//	func (T) Execute(ctx context.Context, args A) (R, error)
//
// where A is a struct of the arguments the model sends and R is string or
// any type that encodes to JSON. toolgen reads Definition statically (it
// must return a composite literal of constants) and derives the JSON Schema
// of A from its fields, json tags, jsonschema tags and doc comments; see
// docs/writing-tools.md in the repository for the whole convention.
//
// Request-scoped facts (the tool-call id, the caller, the session) reach
// Execute through its context: see [CallFrom].
package tool

import (
	"context"
	"time"
)

// DefaultTimeout bounds a call whose Definition leaves Timeout at zero.
const DefaultTimeout = 30 * time.Second

// Definition describes a tool to the registry and to the model.
//
// Definition must return a composite literal whose fields are constants:
// toolgen reads them from the type-checked source and never runs the method.
type Definition struct {
	// ID is the internal key used in configuration, logs and tool
	// selection. It must match ^[a-zA-Z0-9_-]{1,64}$ and be unique.
	ID string
	// Name is what the model sees and calls; it defaults to ID and follows
	// the same rules.
	Name string
	// Description tells the model what the tool does and when to use it.
	// It must not be empty.
	Description string
	// Timeout bounds one call; DefaultTimeout when zero.
	Timeout time.Duration
	// Capabilities declares what the tool may do to the machine, such as
	// Network | Env. toolgen warns about a capability the tool reaches but
	// does not declare, and leaves the tool out.
	Capabilities Capability
}

// Call holds the request-scoped facts of one tool call.
type Call struct {
	// ID is the tool-call id the model gave the call.
	ID string
	// Tool is the name the call was made with.
	Tool string
	// Caller names who made the call: one of the Caller constants for
	// the callers of this module, or a name of the caller's own.
	Caller string
	// Session identifies the conversation the call belongs to, if known.
	Session string
}

// The names of the callers of this module, as Call.Caller holds them.
const (
	// CallerAgent is the agent: the calls a chat.Conversation makes.
	CallerAgent = "agent"
	// CallerMCP is an MCP client of a toolmcp server.
	CallerMCP = "mcp"
	// CallerOpenAI is the openai-go SDK, through adapters/openaitools.
	CallerOpenAI = "openai-go"
	// CallerAnthropic is the anthropic-sdk-go SDK, through
	// adapters/anthropictools.
	CallerAnthropic = "anthropic-sdk-go"
)

type callKey struct{}

// WithCall returns a copy of ctx that carries c.
func WithCall(ctx context.Context, c Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// CallFrom returns the Call carried by ctx, and whether there was one.
func CallFrom(ctx context.Context) (Call, bool) {
	c, ok := ctx.Value(callKey{}).(Call)
	return c, ok
}
