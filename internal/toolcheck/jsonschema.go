package toolcheck

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/toolreg/toolreg/jsonarg"
)

// SchemaJSON returns the JSON Schema of an args struct as compact JSON,
// with properties in field order. It says exactly what the generated
// decoder accepts: required fields, types, Constraints, and no other
// properties.
//
// A recursive struct type (see Type.Recursive) is described once, in
// "$defs" at the root, named for the Go type, and each use of it is a
// "$ref" to it ("#" when the arguments struct itself is recursive); every
// other struct is written in place, as often as it is used.
func SchemaJSON(t *Type) string {
	w := newSchemaWriter(t)
	w.object(t)
	w.defs(false)
	return w.buf.String()
}

// OutputSchemaJSON returns the JSON Schema of a result struct as compact
// JSON, as SchemaJSON does, describing what encoding/json writes of it: a
// slice, map or pointer, which it writes as null when nil, may be null.
func OutputSchemaJSON(t *Type) string {
	w := newSchemaWriter(t)
	w.output = true
	w.object(t)
	w.defs(false)
	return w.buf.String()
}

type schemaWriter struct {
	buf bytes.Buffer
	// output marks the schema of a result, where a nil slice, map or
	// pointer is null.
	output bool
	// refs maps the ID of each recursive type to its $ref; defs lists the
	// definitions to write, each once, in the order first met.
	refs    map[string]string
	defList []*Type
}

// newSchemaWriter returns a writer for the schema of the args struct
// root, with the recursive types it holds named: each for its Go type,
// with a number added when two of one name are from different packages.
func newSchemaWriter(root *Type) *schemaWriter {
	w := &schemaWriter{}
	taken := map[string]bool{}
	var walk func(t *Type)
	walk = func(t *Type) {
		if t == nil {
			return
		}
		if t.Recursive {
			if _, ok := w.refs[t.ID()]; !ok {
				if w.refs == nil {
					w.refs = map[string]string{}
				}
				if t == root {
					w.refs[t.ID()] = "#"
				} else {
					name := t.Name
					for i := 2; taken[name]; i++ {
						name = t.Name + strconv.Itoa(i)
					}
					taken[name] = true
					w.refs[t.ID()] = "#/$defs/" + name
					w.defList = append(w.defList, t)
				}
			}
		}
		walk(t.Elem)
		walk(t.Key)
		for _, f := range t.Fields {
			walk(f.Type)
		}
	}
	walk(root)
	return w
}

// defs writes "$defs", the definitions of the recursive types, as the
// last key of the root object, whose closing brace it moves after them.
// Every definition of one type describes the same Go type, so the first
// met stands for all.
func (w *schemaWriter) defs(strict bool) {
	if len(w.defList) == 0 {
		return
	}
	w.buf.Truncate(w.buf.Len() - 1) // the root's '}'
	w.key("$defs")
	w.buf.WriteByte('{')
	for _, t := range w.defList {
		w.key(strings.TrimPrefix(w.refs[t.ID()], "#/$defs/"))
		if strict {
			w.strictObject(t, "", false)
		} else {
			w.object(t)
		}
	}
	w.buf.WriteString("}}")
}

// ref writes the use of a recursive type: its $ref, with the description
// beside it.
func (w *schemaWriter) ref(t *Type, desc string) {
	w.buf.WriteByte('{')
	if desc != "" {
		w.key("description")
		w.str(desc)
	}
	w.key("$ref")
	w.str(w.refs[t.ID()])
	w.buf.WriteByte('}')
}

func (w *schemaWriter) str(s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	w.buf.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

func (w *schemaWriter) key(k string) {
	if last := w.buf.Bytes(); len(last) > 0 && last[len(last)-1] != '{' && last[len(last)-1] != '[' {
		w.buf.WriteByte(',')
	}
	w.str(k)
	w.buf.WriteByte(':')
}

func (w *schemaWriter) object(t *Type) { w.objectOrNull(t, false) }

// objectOrNull writes the schema of a struct, which may be null when
// null is set.
func (w *schemaWriter) objectOrNull(t *Type, null bool) {
	w.buf.WriteByte('{')
	w.key("type")
	w.typeName("object", null)
	w.key("properties")
	w.buf.WriteByte('{')
	for _, f := range t.Fields {
		w.key(f.JSONName)
		if f.Quoted {
			w.quoted(f, false, false)
			continue
		}
		w.value(f.Type, f.Doc, f.C)
	}
	w.buf.WriteByte('}')
	var req []string
	for _, f := range t.Fields {
		if f.Required {
			req = append(req, f.JSONName)
		}
	}
	if len(req) > 0 {
		w.key("required")
		w.buf.WriteByte('[')
		for i, r := range req {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			w.str(r)
		}
		w.buf.WriteByte(']')
	}
	w.key("additionalProperties")
	w.buf.WriteString("false")
	w.buf.WriteByte('}')
}

// value writes the schema of one value with its description and
// Constraints.
func (w *schemaWriter) value(t *Type, desc string, c Constraints) {
	null := w.output && (t.Kind == KPtr || t.Kind == KSlice || t.Kind == KMap)
	t = t.Value()
	null = null || w.output && (t.Kind == KSlice || t.Kind == KMap)
	switch t.Kind {
	case KAny, KRaw: // any JSON value: the empty schema
		w.buf.WriteByte('{')
		if desc != "" {
			w.key("description")
			w.str(desc)
		}
		w.buf.WriteByte('}')
		return
	case KMap:
		w.buf.WriteByte('{')
		w.key("type")
		w.typeName("object", null)
		if desc != "" {
			w.key("description")
			w.str(desc)
		}
		w.key("additionalProperties")
		w.value(t.Elem, "", NoConstraints())
		w.buf.WriteByte('}')
		return
	}
	if t.ByRef() {
		if null {
			w.strictRef(t, desc, true) // the reference or null, as strict mode writes it
			return
		}
		w.ref(t, desc)
		return
	}
	if t.Kind == KStruct {
		// Put the description first, then the object's own keys.
		inner := schemaWriter{refs: w.refs, output: w.output}
		inner.objectOrNull(t, null)
		w.buf.WriteByte('{')
		if desc != "" {
			w.key("description")
			w.str(desc)
			w.buf.WriteByte(',')
		}
		w.buf.Write(inner.buf.Bytes()[1:])
		return
	}
	desc = durationDescription(desc, t, c)
	w.buf.WriteByte('{')
	w.key("type")
	w.typeName(jsonType(t), null)
	if desc != "" {
		w.key("description")
		w.str(desc)
	}
	w.stringFormat(t)
	if len(c.Enum) > 0 {
		w.key("enum")
		w.buf.WriteByte('[')
		for i, e := range c.Enum {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			w.buf.WriteString(e)
		}
		if null {
			w.buf.WriteString(",null")
		}
		w.buf.WriteByte(']')
	}
	lo, hi := bounds(t, c)
	if lo != "" {
		w.key("minimum")
		w.buf.WriteString(lo)
	}
	if hi != "" {
		w.key("maximum")
		w.buf.WriteString(hi)
	}
	w.count("minLength", c.MinLength)
	w.count("maxLength", c.MaxLength)
	if c.Pattern != "" {
		w.key("pattern")
		w.str(c.Pattern)
	}
	w.count("minItems", c.MinItems)
	w.count("maxItems", c.MaxItems)
	if c.Default != "" {
		w.key("default")
		w.buf.WriteString(c.Default)
	}
	if t.Kind == KSlice {
		w.key("items")
		w.value(t.Elem, "", NoConstraints())
	}
	w.buf.WriteByte('}')
}

// typeName writes the value of "type": name, or name and "null".
func (w *schemaWriter) typeName(name string, null bool) {
	if !null {
		w.str(name)
		return
	}
	w.buf.WriteByte('[')
	w.str(name)
	w.buf.WriteString(`,"null"]`)
}

func (w *schemaWriter) count(key string, n int) {
	if n >= 0 {
		w.key(key)
		w.buf.WriteString(strconv.Itoa(n))
	}
}

// quotedPatterns are the patterns of a number and a boolean sent inside a
// string (json:",string"): the JSON literal alone.
var quotedPatterns = map[Kind]string{
	KInt:   `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`,
	KUint:  `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`,
	KFloat: `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`,
	KBool:  `^(true|false)$`,
}

// quoted writes the schema of a field tagged json:",string": a string
// holding the JSON literal, whose kind and bounds the description states
// and the decoder enforces. In a strict schema, nullable adds null and a
// default is a sentence of the description.
func (w *schemaWriter) quoted(f *Field, strict, nullable bool) {
	t, c := f.Type, f.C
	what := map[Kind]string{KInt: "An integer", KUint: "A non-negative integer", KFloat: "A number", KBool: "true or false"}[t.Kind]
	notes := []string{what + ", sent as a string (" + map[bool]string{true: `"true"`, false: `"42"`}[t.Kind == KBool] + ")."}
	lo, hi := bounds(t, c)
	switch {
	case lo != "" && hi != "":
		notes = append(notes, "From "+lo+" to "+hi+".")
	case lo != "":
		notes = append(notes, "At least "+lo+".")
	case hi != "":
		notes = append(notes, "At most "+hi+".")
	}
	if strict && c.Default != "" {
		notes = append(notes, "Default when null: \""+c.Default+"\".")
	}
	w.buf.WriteByte('{')
	w.key("type")
	if nullable {
		w.buf.WriteString(`["string","null"]`)
	} else {
		w.str("string")
	}
	w.key("description")
	w.str(joinSentences(f.Doc, notes))
	w.key("pattern")
	w.str(quotedPatterns[t.Kind])
	if !strict && c.Default != "" {
		w.key("default")
		w.str(c.Default)
	}
	w.buf.WriteByte('}')
}

// stringFormat writes the pattern of a duration and the format of a
// time.
func (w *schemaWriter) stringFormat(t *Type) {
	switch t.Kind {
	case KDuration:
		w.key("pattern")
		w.str(jsonarg.DurationPattern)
	case KTime:
		w.key("format")
		w.str("date-time")
	}
}

// durationDescription adds to the description of a duration what it is
// and its bounds, which JSON Schema cannot state of a string.
func durationDescription(desc string, t *Type, c Constraints) string {
	if t.Kind != KDuration {
		return desc
	}
	notes := []string{`A duration such as "90s", "1m30s" or "1.5h".`}
	lo, hi := nanos(c.Minimum), nanos(c.Maximum)
	switch {
	case lo != "" && hi != "":
		notes = append(notes, "From "+lo+" to "+hi+".")
	case lo != "":
		notes = append(notes, "At least "+lo+".")
	case hi != "":
		notes = append(notes, "At most "+hi+".")
	}
	return joinSentences(desc, notes)
}

// nanos writes a bound in nanoseconds as a duration, or "" for none.
func nanos(lit string) string {
	n, err := strconv.ParseInt(lit, 10, 64)
	if err != nil {
		return ""
	}
	return time.Duration(n).String()
}

func jsonType(t *Type) string {
	switch t.Kind {
	case KDuration, KTime:
		return "string"
	case KString:
		return "string"
	case KBool:
		return "boolean"
	case KInt, KUint:
		return "integer"
	case KFloat:
		return "number"
	case KSlice:
		return "array"
	}
	return "object"
}

// bounds returns the minimum and maximum of a number: the tag's, or else
// the limits of an integer type narrower than 64 bits (and 0 for unsigned
// types) or of a float32, so that the schema says what the decoder
// accepts.
func bounds(t *Type, c Constraints) (lo, hi string) {
	lo, hi = c.Minimum, c.Maximum
	switch t.Kind {
	case KDuration:
		return "", "" // a string: its bounds are in the description
	case KInt:
		if t.Bits < 64 {
			if lo == "" {
				lo = strconv.FormatInt(-1<<(t.Bits-1), 10)
			}
			if hi == "" {
				hi = strconv.FormatInt(1<<(t.Bits-1)-1, 10)
			}
		}
	case KUint:
		if lo == "" {
			lo = "0"
		}
		if hi == "" && t.Bits < 64 {
			hi = strconv.FormatUint(1<<t.Bits-1, 10)
		}
	case KFloat:
		if t.Bits == 32 {
			if lo == "" {
				lo = strconv.FormatFloat(-math.MaxFloat32, 'g', -1, 64)
			}
			if hi == "" {
				hi = strconv.FormatFloat(math.MaxFloat32, 'g', -1, 64)
			}
		}
	}
	return lo, hi
}
