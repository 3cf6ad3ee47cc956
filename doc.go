// Package toolreg holds this repository's generated tool registry: the tools
// of toolbox/, compiled in by cmd/toolgen into zz_registry_gen.go.
//
// [Toolbox] returns them as a *registry.Registry. The runtime that calls
// them (limits, timeouts, confirmation, errors) is package registry, which
// any module can use with a registry generated from its own tools.
package toolreg
