// Package tools holds the tools of the units service, one per *_tool.go
// file; toolgen compiles them into the registry of package units.
package tools
