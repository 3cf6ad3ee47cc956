// Package toolmcp is MCP both ways for a toolreg registry: it serves the
// compiled-in tools to Model Context Protocol clients, and mounts the tools
// of other MCP servers beside them in the agent.
//
// # Serve
//
// [NewServer] makes an *mcp.Server (the official Go SDK) from a
// *registry.Registry. Each selected tool is registered through the SDK's
// low-level Server.AddTool with the JSON Schema the generator precomputed
// as its inputSchema, so nothing is reflected at start-up, and its handler
// goes through [registry.Registry.Call]: the same generated decoding and
// validation, the same timeout and panic protection. A failed call (bad
// arguments, the tool's error, a panic, a timeout) answers with a result
// whose isError is true and whose text is the registry's "Error: ..."
// message, never with a protocol error, so the model reads it and can
// correct itself. [ServeStdio] runs a server over a pair of streams (the
// process's stdin and stdout for a desktop client); [HTTPHandler] and
// [ServeHTTP] serve it over streamable HTTP in stateless mode, where every
// request stands alone, so any number of replicas can sit behind a load
// balancer.
//
// # Mount
//
// [Mount] connects to MCP servers given as specs, NAME=COMMAND ARGS… for a
// server run as a child process over stdio, or NAME=https://… for
// streamable HTTP, and lists their tools. Each remote tool is offered to the
// model as NAME__tool with its own input schema. [Mounts.Entries] gives
// them as registry entries, which join the local tools in one tool set
// with [registry.Registry.With]: a call then goes through the same limits,
// timeout, confirmation and logging as a local one, and a remote error, a
// dead server or a timeout becomes an "Error: NAME__tool: ..." result. A
// server that cannot be reached at start is left out with one line on
// [MountOptions.Warn], and the others keep working.
package toolmcp
