package toolcheck

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// StrictSchemaJSON returns the strict variant of the JSON Schema of an args
// struct, for providers' strict function calling (OpenAI's "strict": true,
// Structured Outputs): every property is listed in required, an optional
// one is typed as a union with null (and null joins its enum), every object
// has "additionalProperties": false, and the keywords strict mode does not
// support are moved into the description as text: default ("Default when
// null: 3."), minLength and maxLength ("From 1 to 200 characters."). The
// decoder still enforces them all. The keywords kept are those the
// providers document as supported: type, description, properties,
// required, additionalProperties, items, enum, minimum, maximum, pattern,
// minItems and maxItems.
//
// A strict call sends null for an optional field it leaves out; the
// registry in strict mode reads such a null as the field left out, exactly
// where this schema allows null (see registry.Registry.WithStrict).
//
// A recursive type is described once in "$defs" (every object there as
// strict as the others), each use a "$ref" alone, or, to carry a
// description or null, inside an anyOf (see strictRef), as strict mode
// allows no keyword beside "$ref".
//
// Strict mode has no free-form values: a map (an object of any keys) or a
// value of any type cannot be stated. For arguments that hold one,
// StrictSchemaJSON returns "", and a strict registry offers the tool's
// plain schema, without strict (see Strictable).
func StrictSchemaJSON(t *Type) string {
	if !Strictable(t) {
		return ""
	}
	w := newSchemaWriter(t)
	w.strictObject(t, "", false)
	w.defs(true)
	return w.buf.String()
}

// strictObject writes an object schema; a nullable one is typed
// ["object","null"].
func (w *schemaWriter) strictObject(t *Type, desc string, nullable bool) {
	w.buf.WriteByte('{')
	if desc != "" {
		w.key("description")
		w.str(desc)
	}
	w.key("type")
	if nullable {
		w.buf.WriteString(`["object","null"]`)
	} else {
		w.str("object")
	}
	w.key("properties")
	w.buf.WriteByte('{')
	for _, f := range t.Fields {
		w.key(f.JSONName)
		if f.Quoted {
			w.quoted(f, true, !f.Required)
			continue
		}
		w.strictValue(f.Type, f.Doc, f.C, !f.Required)
	}
	w.buf.WriteByte('}')
	w.key("required")
	w.buf.WriteByte('[')
	for i, f := range t.Fields {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.str(f.JSONName)
	}
	w.buf.WriteByte(']')
	w.key("additionalProperties")
	w.buf.WriteString("false")
	w.buf.WriteByte('}')
}

// strictValue writes the strict schema of one value.
func (w *schemaWriter) strictValue(t *Type, desc string, c Constraints, nullable bool) {
	t = t.Value()
	desc = strictDescription(durationDescription(desc, t, c), c)
	if t.ByRef() {
		w.strictRef(t, desc, nullable)
		return
	}
	if t.Kind == KStruct {
		w.strictObject(t, desc, nullable)
		return
	}
	w.buf.WriteByte('{')
	w.key("type")
	if nullable {
		w.buf.WriteString(`["` + jsonType(t) + `","null"]`)
	} else {
		w.str(jsonType(t))
	}
	if desc != "" {
		w.key("description")
		w.str(desc)
	}
	w.stringFormat(t)
	if len(c.Enum) > 0 {
		w.key("enum")
		w.buf.WriteByte('[')
		w.buf.WriteString(strings.Join(c.Enum, ","))
		if nullable {
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
	if c.Pattern != "" {
		w.key("pattern")
		w.str(c.Pattern)
	}
	w.count("minItems", c.MinItems)
	w.count("maxItems", c.MaxItems)
	if t.Kind == KSlice {
		w.key("items")
		w.strictValue(t.Elem, "", NoConstraints(), false)
	}
	w.buf.WriteByte('}')
}

// strictRef writes the use of a recursive type. Strict mode allows no
// keyword beside "$ref", so a description, or null for an optional field,
// goes around it, in an anyOf: {"description":…,"anyOf":[{"$ref":…},
// {"type":"null"}]}, as OpenAI documents a nullable reference.
func (w *schemaWriter) strictRef(t *Type, desc string, nullable bool) {
	if desc == "" && !nullable {
		w.ref(t, "")
		return
	}
	w.buf.WriteByte('{')
	if desc != "" {
		w.key("description")
		w.str(desc)
	}
	w.key("anyOf")
	w.buf.WriteByte('[')
	w.ref(t, "")
	if nullable {
		w.buf.WriteString(`,{"type":"null"}`)
	}
	w.buf.WriteString("]}")
}

// strictDescription adds to desc, as sentences, the keywords of c that a
// strict schema leaves out: the lengths of a string and the default.
func strictDescription(desc string, c Constraints) string {
	var notes []string
	switch lo, hi := c.MinLength, c.MaxLength; {
	case lo > 0 && hi >= 0:
		notes = append(notes, fmt.Sprintf("From %d to %s.", lo, plural(hi, "character")))
	case lo > 0:
		notes = append(notes, fmt.Sprintf("At least %s.", plural(lo, "character")))
	case hi >= 0:
		notes = append(notes, fmt.Sprintf("At most %s.", plural(hi, "character")))
	}
	if c.Default != "" {
		notes = append(notes, "Default when null: "+c.Default+".")
	}
	return joinSentences(desc, notes)
}

// joinSentences adds notes, sentences, to desc, ending desc with a full
// stop first when it has none.
func joinSentences(desc string, notes []string) string {
	if len(notes) == 0 {
		return desc
	}
	if desc != "" {
		if r, _ := utf8.DecodeLastRuneInString(desc); !strings.ContainsRune(".!?。！？", r) {
			desc += "."
		}
		desc += " "
	}
	return desc + strings.Join(notes, " ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Strictable reports whether strict mode can state the type t: whether it
// holds no map and no value of any type.
func Strictable(t *Type) bool {
	return freeForm(t) == ""
}

// freeForm names the first kind of value in t that strict mode cannot
// state, or returns "".
func freeForm(t *Type) string {
	if t == nil {
		return ""
	}
	switch t.Kind {
	case KMap:
		return "a map"
	case KAny, KRaw:
		return "a value of any type"
	}
	if why := freeForm(t.Elem); why != "" {
		return why
	}
	for _, f := range t.Fields {
		if why := freeForm(f.Type); why != "" {
			return why
		}
	}
	return ""
}
