package registry

import (
	"encoding/json"
	"strconv"
	"strings"
)

// repairArgs repairs the arguments args that a model sent for a tool whose
// parameters have the JSON Schema schema, when they show one of the known
// mistakes whose intent is unambiguous:
//
//   - a property whose schema type is "array" or "object" (and not also
//     "string") was sent as a JSON string whose content is JSON of that
//     type, as DeepSeek and Claude sometimes do: {"tags":"[\"a\"]"}
//     becomes {"tags":["a"]}. This is repaired at the top level and in the
//     nested objects the schema describes (under "properties", and under
//     "items" for the objects of an array); the elements of an array are
//     not properties and are not repaired.
//   - the whole arguments were sent as a JSON string whose content is a
//     JSON object: "{\"a\":1}" becomes {"a":1}, and that object is then
//     repaired as above.
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
func repairArgs(schema string, args []byte) (fixed []byte, notes []string, ok bool) {
	root, ok := parseRepairSchema([]byte(schema))
	if !ok {
		return nil, nil, false
	}
	start := skipJSONSpace(args, 0)
	end := len(args)
	for end > start && isJSONSpace(args[end-1]) {
		end--
	}
	text := args[start:end]
	if len(text) == 0 || !json.Valid(text) {
		return nil, nil, false
	}
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

// repairSchema is the part of a JSON Schema that repairArgs reads.
type repairSchema struct {
	types []string
	props map[string]json.RawMessage
	items json.RawMessage
}

// parseRepairSchema reads a schema; a boolean schema or one that is not an
// object reads as false.
func parseRepairSchema(b []byte) (repairSchema, bool) {
	var s struct {
		Type       json.RawMessage            `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Items      json.RawMessage            `json:"items"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return repairSchema{}, false
	}
	out := repairSchema{props: s.Properties, items: s.Items}
	var one string
	if json.Unmarshal(s.Type, &one) == nil {
		out.types = []string{one}
	} else {
		_ = json.Unmarshal(s.Type, &out.types) // Absent or malformed: no types.
	}
	return out, true
}

func (s repairSchema) has(typ string) bool {
	for _, t := range s.types {
		if t == typ {
			return true
		}
	}
	return false
}

// repairObject repairs the members of obj, a valid JSON object, that the
// schema s describes; path locates obj in the arguments. It returns obj
// itself when nothing was repaired.
func (s repairSchema) repairObject(obj []byte, path string) ([]byte, []string) {
	if len(s.props) == 0 {
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
		raw, ok := s.props[m.key]
		if !ok {
			continue // An unknown field: the decoder reports it.
		}
		sub, ok := parseRepairSchema(raw)
		if !ok {
			continue
		}
		fieldPath := joinPath(path, m.key)
		value := obj[m.start:m.end]
		repaired := value
		var more []string
		if value[0] == '"' && !sub.has("string") {
			for _, kind := range []struct {
				typ, name string
				open      byte
			}{{"array", "an array", '['}, {"object", "an object", '{'}} {
				if !sub.has(kind.typ) {
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
// schema s describes: value itself when it is an object, or the objects of
// an array, however deeply nested, that s describes under "items".
func (s repairSchema) repairValue(value []byte, path string) ([]byte, []string) {
	switch value[0] {
	case '{':
		return s.repairObject(value, path)
	case '[':
		items, ok := parseRepairSchema(s.items)
		if !ok {
			return value, nil
		}
		var out []byte
		var notes []string
		last := 0
		for i, e := range arrayElements(value) {
			repaired, more := items.repairValue(value[e.start:e.end], path+"["+strconv.Itoa(i)+"]")
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
	var s string
	if err := json.Unmarshal(str, &s); err != nil {
		return nil, false
	}
	inner := []byte(strings.Trim(s, " \t\r\n"))
	if len(inner) == 0 || inner[0] != open || !json.Valid(inner) {
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
	i := skipJSONSpace(obj, 1)
	for i < len(obj) && obj[i] != '}' {
		keyEnd := jsonValueEnd(obj, i)
		var key string
		_ = json.Unmarshal(obj[i:keyEnd], &key) // Valid: obj is.
		i = skipJSONSpace(obj, keyEnd)
		i = skipJSONSpace(obj, i+1) // The ':'.
		end := jsonValueEnd(obj, i)
		out = append(out, span{key: key, start: i, end: end})
		i = skipJSONSpace(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = skipJSONSpace(obj, i+1)
		}
	}
	return out
}

// arrayElements returns the elements of arr, a valid JSON array.
func arrayElements(arr []byte) []span {
	var out []span
	i := skipJSONSpace(arr, 1)
	for i < len(arr) && arr[i] != ']' {
		end := jsonValueEnd(arr, i)
		out = append(out, span{start: i, end: end})
		i = skipJSONSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipJSONSpace(arr, i+1)
		}
	}
	return out
}

// jsonValueEnd returns the end of the valid JSON value that begins at
// b[i]. It does not recurse, so any depth is safe.
func jsonValueEnd(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			i++ // The closing quote.
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		default:
			if depth == 0 {
				// A number or a literal: it ends at a delimiter.
				for i < len(b) && !isJSONSpace(b[i]) && b[i] != ',' && b[i] != ']' && b[i] != '}' {
					i++
				}
				return i
			}
			i++
		}
		if depth == 0 {
			return i
		}
	}
	return i
}

func isJSONSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && isJSONSpace(b[i]) {
		i++
	}
	return i
}
