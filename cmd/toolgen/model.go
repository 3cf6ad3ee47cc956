package main

import (
	"go/token"
	"time"
)

// The model: what the checker learns from the type-checked tool package,
// and all the emitter sees. It holds no go/types values.

// toolInfo is one tool that passed every check.
type toolInfo struct {
	File     string // path relative to the module root, slash-separated
	TypeName string // the tool type, in the tool package
	ID       string
	Name     string
	Desc     string
	Timeout  time.Duration
	// Capabilities are the declared ones and Reaches those the audit
	// found, as bits of tool.Capability.
	Capabilities uint64
	Reaches      uint64
	Args         *typ   // a named struct
	Result       *typ   // nil when Execute returns string
	Output       string // JSON Schema of a struct Result, or ""
	pos          token.Position
}

type kind int

const (
	kString kind = iota
	kBool
	kInt
	kUint
	kFloat
	kStruct
	kSlice
	kPtr
)

// typ is a Go type that toolgen can decode and describe in JSON Schema.
type typ struct {
	Kind kind
	Bits int // for kInt, kUint, kFloat
	// Path and Name name the Go type: a named type's package path and
	// name, or a predeclared type's name with an empty Path. Slices and
	// pointers have neither.
	Path, Name string
	Elem       *typ     // for kSlice, kPtr
	Fields     []*field // for kStruct
}

// field is one field of an args struct, as the model sees it.
type field struct {
	GoName   string
	JSONName string
	Doc      string
	Required bool
	Type     *typ
	C        constraints
}

// constraints are the keys of a jsonschema tag. Numbers and defaults are
// kept as JSON literals; the emitter writes them into code and schema as
// they are.
type constraints struct {
	Enum                 []string // JSON literals
	Minimum, Maximum     string   // JSON number literals, or ""
	Default              string   // JSON literal, or ""
	MinLength, MaxLength int      // -1 when absent
	MinItems, MaxItems   int      // -1 when absent
	Pattern              string
}

// value returns the type that constraints of t apply to: the element of a
// pointer.
func (t *typ) value() *typ {
	if t.Kind == kPtr {
		return t.Elem
	}
	return t
}
