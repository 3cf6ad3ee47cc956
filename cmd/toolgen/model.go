package main

import "github.com/toolreg/toolreg/internal/toolcheck"

// The model comes from package toolcheck, which holds the convention
// checks; these names keep the emitter short.
type (
	toolInfo    = toolcheck.Tool
	typ         = toolcheck.Type
	constraints = toolcheck.Constraints
)

const (
	kString   = toolcheck.KString
	kBool     = toolcheck.KBool
	kInt      = toolcheck.KInt
	kUint     = toolcheck.KUint
	kFloat    = toolcheck.KFloat
	kStruct   = toolcheck.KStruct
	kSlice    = toolcheck.KSlice
	kPtr      = toolcheck.KPtr
	kMap      = toolcheck.KMap
	kArray    = toolcheck.KArray
	kAny      = toolcheck.KAny
	kDuration = toolcheck.KDuration
	kTime     = toolcheck.KTime
	kRaw      = toolcheck.KRaw
)

// schemaJSON returns the JSON Schema of an args struct.
func schemaJSON(t *typ) string { return toolcheck.SchemaJSON(t) }

// strictSchemaJSON returns the strict variant of the JSON Schema of an
// args struct.
func strictSchemaJSON(t *typ) string { return toolcheck.StrictSchemaJSON(t) }
