// Package toolbox holds the tools compiled into the agent, one per
// <id>_tool.go file. Each tool file exports a type with the methods
//
//	Definition() tool.Definition
//	Execute(ctx context.Context, args A) (R, error)
//
// and go generate ./... (cmd/toolgen) turns the package into the registry in
// zz_registry_gen.go at the repository root. Other files are helpers and
// are never registered. docs/writing-tools.md says how to write a tool.
package toolbox
