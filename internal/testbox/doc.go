// Package testbox is a small generated tool set for the tests of the
// runtime, the chat loop and the MCP package: they test the machinery with
// it, not this repository's real tools (which reach the network, the disk
// and the clock).
//
// Its tools, in package tools, are one of each kind the runtime handles:
//
//	echo     answers text
//	count    answers a struct (an output schema, structured content)
//	tag      takes an array and a nested object, for the argument repair
//	fail     always fails with its own error
//
// [Toolbox] returns them; zz_registry_gen.go is written by cmd/toolgen and
// kept current by CI (go generate ./... and git diff).
package testbox

//go:generate go run github.com/toolreg/toolreg/cmd/toolgen -dir tools
