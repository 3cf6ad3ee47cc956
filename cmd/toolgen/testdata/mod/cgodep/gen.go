// Package cgodep is a registry whose tool package imports a helper
// package that needs cgo, and has a file for darwin: toolgen reads darwin
// (on a linux host) with CGO_ENABLED=0, where the helper does not build.
package cgodep
