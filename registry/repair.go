package registry

import (
	"bytes"
	"strconv"

	"github.com/toolreg/toolreg/jsonarg"
)

// Shape is what the argument repair knows of a JSON value that a tool's
// parameters describe: whether it takes an array or an object (and not a
// string), the shapes of the properties of an object that hold arrays or
// objects, and the shape of the elements of an array. toolgen generates
// it from the tool's argument types (Entry.Shape), so that nothing reads
// the JSON Schema at run time. It is static data: Props is a slice, not a
// map, so a generated table needs no code at init.
type Shape struct {
	// Array and Object report that the value may be an array or an
	// object, and may not be a string: only then is a string holding one
	// decoded.
	Array, Object bool
	// Props are the shapes of the properties of an object that hold
	// arrays or objects; properties that hold neither are left out.
	Props []Prop
	// Items is the shape of the elements of an array, or nil when they
	// hold no objects.
	Items *Shape
}

// Prop is a property of an object and its shape.
type Prop struct {
	Name  string
	Shape Shape
}

// prop returns the shape of the named property, or nil.
func (s *Shape) prop(name []byte) *Shape {
	for i := range s.Props {
		if s.Props[i].Name == string(name) {
			return &s.Props[i].Shape
		}
	}
	return nil
}

// repairArgs repairs the arguments args that a model sent for a tool whose
// parameters have the shape root, when they show one of the known mistakes
// whose intent is unambiguous:
//
//   - a property that takes an array or an object (and not also a string)
//     was sent as a JSON string whose content is JSON of that type, as
//     DeepSeek and Claude sometimes do: {"tags":"[\"a\"]"} becomes
//     {"tags":["a"]}. This is repaired at the top level and in the nested
//     objects the shape describes (under Props, and under Items for the
//     objects of an array); the elements of an array are not properties
//     and are not repaired.
//   - the whole arguments were sent as a JSON string whose content is a
//     JSON object: "{\"a\":1}" becomes {"a":1}, and that object is then
//     repaired as above.
//
// A nil root is an object none of whose properties can be repaired: only
// the second mistake is.
//
// It returns the repaired arguments, one note per repair for the log (such
// as `field "tags": decoded an array sent as a string`), and ok true; or
// nil, nil and false when it repaired nothing. Nothing else is repaired,
// and anything ambiguous is left as it is for the decoder to report:
// arguments that are not valid JSON, an object with a key given twice (its
// members are left as they are), a number or boolean sent as a string, a
// string property holding "[1,2]", a property that takes an array or a
// string, a string that is not valid JSON, or content of the wrong type (an
// object in a string where the schema wants an array).
//
// The repair is a splice: every byte outside the repaired values is kept
// as it was, including the order of the keys and the white space. A
// repaired value is replaced by the content of its string, the model's own
// text, with the surrounding white space trimmed; escapes are decoded and
// invalid UTF-8 in that string becomes U+FFFD, as encoding/json reads it.
// The JSON is read with jsonarg's scanner, the one the decoders use.
func repairArgs(root *Shape, args []byte) (fixed []byte, notes []string, ok bool) {
	if root == nil {
		root = &Shape{Object: true}
	}
	text := bytes.Trim(args, jsonSpace)
	if len(text) == 0 || !jsonarg.Valid(text) {
		return nil, nil, false
	}
	start := len(args) - len(bytes.TrimLeft(args, jsonSpace))
	end := start + len(text)
	if text[0] == '"' {
		inner, ok := stringContent(text, '{')
		if !ok {
			return nil, nil, false
		}
		notes = append(notes, "arguments: decoded an object sent as a string")
		out, more := root.repairObject(inner, "")
		return out, append(notes, more...), true
	}
	if text[0] != '{' {
		return nil, nil, false
	}
	out, notes := root.repairObject(text, "")
	if len(notes) == 0 {
		return nil, nil, false
	}
	fixed = make([]byte, 0, len(args)-len(text)+len(out))
	fixed = append(fixed, args[:start]...)
	fixed = append(fixed, out...)
	fixed = append(fixed, args[end:]...)
	return fixed, notes, true
}

// jsonSpace is the white space of JSON.
const jsonSpace = " \t\r\n"

// repairObject repairs the members of obj, a valid JSON object, that the
// shape s describes; path locates obj in the arguments. It returns obj
// itself when nothing was repaired.
func (s *Shape) repairObject(obj []byte, path string) ([]byte, []string) {
	if len(s.Props) == 0 {
		return obj, nil
	}
	members := objectMembers(obj)
	seen := make(map[string]bool, len(members))
	for _, m := range members {
		if seen[m.key] {
			return obj, nil // Which of the two was meant is not clear.
		}
		seen[m.key] = true
	}
	var out []byte
	var notes []string
	last := 0
	for _, m := range members {
		sub := s.prop([]byte(m.key))
		if sub == nil {
			continue // Nothing to repair, or an unknown field the decoder reports.
		}
		fieldPath := joinPath(path, m.key)
		value := obj[m.start:m.end]
		repaired := value
		var more []string
		if value[0] == '"' {
			for _, kind := range []struct {
				ok   bool
				name string
				open byte
			}{{sub.Array, "an array", '['}, {sub.Object, "an object", '{'}} {
				if !kind.ok {
					continue
				}
				if inner, ok := stringContent(value, kind.open); ok {
					repaired = inner
					more = append(more, "field "+strconv.Quote(fieldPath)+": decoded "+kind.name+" sent as a string")
					break
				}
			}
		}
		repaired, nested := sub.repairValue(repaired, fieldPath)
		more = append(more, nested...)
		if len(more) == 0 {
			continue
		}
		out = append(out, obj[last:m.start]...)
		out = append(out, repaired...)
		last = m.end
		notes = append(notes, more...)
	}
	if len(notes) == 0 {
		return obj, nil
	}
	return append(out, obj[last:]...), notes
}

// repairValue repairs the objects inside value, a valid JSON value that the
// shape s describes: value itself when it is an object, or the objects of
// an array, however deeply nested, that s describes under Items.
func (s *Shape) repairValue(value []byte, path string) ([]byte, []string) {
	switch value[0] {
	case '{':
		return s.repairObject(value, path)
	case '[':
		if s.Items == nil {
			return value, nil
		}
		var out []byte
		var notes []string
		last := 0
		for i, e := range arrayElements(value) {
			repaired, more := s.Items.repairValue(value[e.start:e.end], path+"["+strconv.Itoa(i)+"]")
			if len(more) == 0 {
				continue
			}
			out = append(out, value[last:e.start]...)
			out = append(out, repaired...)
			last = e.end
			notes = append(notes, more...)
		}
		if len(notes) == 0 {
			return value, nil
		}
		return append(out, value[last:]...), notes
	}
	return value, nil
}

// joinPath appends a field name to a path, as jsonarg writes paths:
// "filter.tags", "items[2].labels".
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// stringContent returns the content of str, a valid JSON string, with
// its surrounding white space trimmed, when that content is valid JSON
// beginning with open ('[' or '{').
func stringContent(str []byte, open byte) ([]byte, bool) {
	d := jsonarg.NewDecoder(str)
	s, err := d.String()
	if err != nil {
		return nil, false
	}
	inner := bytes.Trim([]byte(s), jsonSpace)
	if len(inner) == 0 || inner[0] != open || !jsonarg.Valid(inner) {
		return nil, false
	}
	return inner, true
}

// span locates a JSON value in its container; key is the decoded key of
// an object member.
type span struct {
	key        string
	start, end int
}

// objectMembers returns the members of obj, a valid JSON object.
func objectMembers(obj []byte) []span {
	var out []span
	d := jsonarg.NewDecoder(obj)
	if d.ObjectStart() != nil {
		return nil
	}
	for {
		key, ok, err := d.NextField()
		if err != nil || !ok {
			return out
		}
		k := string(key) // Valid until the next call only.
		start, end, err := d.Skip()
		if err != nil {
			return out
		}
		out = append(out, span{key: k, start: start, end: end})
	}
}

// arrayElements returns the elements of arr, a valid JSON array.
func arrayElements(arr []byte) []span {
	var out []span
	d := jsonarg.NewDecoder(arr)
	if d.ArrayStart() != nil {
		return nil
	}
	for {
		ok, err := d.NextItem()
		if err != nil || !ok {
			return out
		}
		start, end, err := d.Skip()
		if err != nil {
			return out
		}
		out = append(out, span{start: start, end: end})
	}
}
