// Package registry is toolreg's runtime: a tool set built from a table that
// cmd/toolgen generates, joined by the tools of mounted servers, and the one
// way to call them.
//
// [Registry.Call] runs one tool by name with strict argument decoding, size
// limits, confirmation of tools that change things, a timeout and panic
// protection, and always answers with text the model can read: a failure is
// an [*Error] whose message, rendered by [Text], begins "Error:".
//
// A Registry is immutable: every With method returns a new one, and what a
// Registry returns is a copy. Its methods are safe for concurrent use; the
// tools' Execute methods, the entries' Bind functions and the Runs they
// return, and the Confirm function run concurrently and must be safe for
// that.
//
// # Glossary
//
// Each of these words has one meaning throughout toolreg:
//
//   - tool: a Go type in a *_tool.go file with Definition and Execute
//     methods (package tool), or a tool of a mounted MCP server.
//   - entry: an [Entry], what the registry knows of one tool: its name,
//     schemas, capabilities and Bind function.
//   - table: a [Table], the entries cmd/toolgen generates, sorted, with
//     their lookup, specs and search index: static data.
//   - registry: a [Registry], a selection of entries and the one way to call
//     them ([Registry.Call]); a tool set is anything that offers a spec
//     table and Call ([ToolSet]), as a Registry does.
//   - bind, run: an entry's Bind decodes and checks the arguments and
//     returns a [Run], the call of the tool with them; the Run runs it.
//     To check arguments is to bind them and drop the Run
//     ([Registry.Check]), so a check never runs a tool.
//   - error, kind: every failure of a call is an [*Error] of one [Kind],
//     whether the tool ran in process, in a sandbox worker or in a mounted
//     server. (chat.APIError is not one: it is the model endpoint's error,
//     not a tool call's.)
//   - media: the images and sounds a tool's result carries beside the
//     text that describes them ([Media], [Result.Media]), attached by its
//     Run ([AttachMedia]); a mounted server's tools give them.
//   - worker: a sandbox worker, a process of package sandbox that runs the
//     calls of one tool under the restrictions of its capabilities. The
//     goroutines that run calls in this package are call goroutines; a
//     call that an [Isolator] runs in a worker takes none, since killing
//     the worker ends it.
//   - capability: what a tool may do to the machine (tool.Capability:
//     exec, network, files, environment, unsafe); an entry declares
//     Capabilities, toolgen's audit finds what it Reaches, and
//     [Entry.AllCapabilities] is both.
//   - skill: instructions for a kind of task, in a skills/<name>/SKILL.md
//     file compiled in (package skill); the model loads one with the
//     use_skill tool.
package registry
