package toolcheck

import (
	"go/token"
	"time"
)

// The model: what the checks learn from a type-checked tool package, and
// all a code generator needs. It holds no go/types values.

// Tool is one tool that passed every check.
type Tool struct {
	// File is the tool's source file as the checked package names it
	// (an absolute path when loaded by go/packages); toolgen makes it
	// relative to the module root.
	File     string
	TypeName string // the tool type, in the tool package
	ID       string
	Name     string
	Desc     string
	Timeout  time.Duration
	// Capabilities are the declared ones and Reaches those an audit
	// found, as bits of tool.Capability. Check leaves Reaches zero.
	Capabilities uint64
	Reaches      uint64
	Args         *Type  // a named struct
	Result       *Type  // nil when Execute returns string
	Output       string // JSON Schema of a struct Result, or ""
	// Pos is the position of the tool type's name.
	Pos token.Pos
}

// Kind is the kind of a Type.
type Kind int

// The kinds of types. Args use all but Array (Map with string keys, Any
// for the empty interface); results use String through Any.
const (
	KString Kind = iota
	KBool
	KInt
	KUint
	KFloat
	KStruct
	KSlice
	KPtr
	KMap   // Key and Elem; in args, a key of a string type
	KArray // results only; Len and Elem
	KAny   // the empty interface: any JSON value
	// KDuration is time.Duration, sent as a Go duration string ("90m");
	// its Minimum and Maximum are nanoseconds, its Default a JSON string.
	KDuration
	// KTime is time.Time, sent as an RFC 3339 string.
	KTime
	// KRaw is encoding/json.RawMessage: any JSON value, kept as its text.
	KRaw
)

// Type is a Go type that a generated registry can name, and, for args,
// decode and describe in JSON Schema.
type Type struct {
	Kind Kind
	Bits int // for KInt, KUint, KFloat
	// Path and Name name the Go type: a named type's package path and
	// name, or a predeclared type's name with an empty Path. Slices,
	// pointers, maps, arrays and the empty interface have neither.
	Path, Name string
	// Basic is the name of the predeclared type underlying a string,
	// boolean or number, such as "int" for type Count int.
	Basic  string
	Elem   *Type    // for KSlice, KPtr, KMap, KArray
	Key    *Type    // for KMap
	Len    int64    // for KArray
	Fields []*Field // for KStruct args
	// Recursive marks a named struct type that occurs within its own
	// fields, through pointers, slices or maps: this Type is its
	// definition, with Fields, and the uses of it inside are Refs. A
	// schema describes it once, in $defs, and a generated decoder reads it
	// with a function of its own, to a depth of at most jsonarg.MaxDepth.
	Recursive bool
	// Ref marks a use of a recursive struct type inside its own
	// definition: an enclosing Type of the same Path and Name has
	// Recursive set and the Fields; a Ref has none. The model stays a
	// tree.
	Ref bool
}

// ID returns the package path and name of a named type, "path.Name",
// which identifies the definition of a recursive one.
func (t *Type) ID() string { return t.Path + "." + t.Name }

// ByRef reports whether t is a use of a recursive struct type, its
// definition or a Ref, which schemas describe with $ref and decoders read
// with a function of its own.
func (t *Type) ByRef() bool { return t.Kind == KStruct && (t.Recursive || t.Ref) }

// Field is one field of an args struct, as the model sees it.
type Field struct {
	GoName   string
	JSONName string
	Doc      string
	Required bool
	Type     *Type
	C        Constraints
	// Quoted marks a field tagged json:",string": a number or boolean
	// sent inside a string ("42"), as encoding/json reads it.
	Quoted bool
}

// Constraints are the keys of a jsonschema tag. Numbers and defaults are
// kept as JSON literals; a generator writes them into code and schema as
// they are.
type Constraints struct {
	Enum                 []string // JSON literals
	Minimum, Maximum     string   // JSON number literals, or ""
	Default              string   // JSON literal, or ""
	MinLength, MaxLength int      // -1 when absent
	MinItems, MaxItems   int      // -1 when absent
	Pattern              string
}

// NoConstraints is the Constraints of a value without a jsonschema tag.
func NoConstraints() Constraints {
	return Constraints{MinLength: -1, MaxLength: -1, MinItems: -1, MaxItems: -1}
}

// Value returns the type that constraints of t apply to: the element of a
// pointer.
func (t *Type) Value() *Type {
	if t.Kind == KPtr {
		return t.Elem
	}
	return t
}
