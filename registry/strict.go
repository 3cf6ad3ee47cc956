package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/sashabaranov/go-openai"

	"github.com/toolreg/toolreg/jsonarg"
)

// Strict function calling (OpenAI's "strict": true and the providers that
// follow it) makes a model's arguments match the schema exactly, under
// rules of its own: every property is required, and an optional one is a
// union with null. A model in strict mode sends null for an optional field
// it leaves out. The generated decoders refuse null; a strict registry
// reads such a null as the field left out, so the default applies, before
// the decoder runs. Nothing changes for a registry that is not strict.

// WithStrict returns a copy of r that, when strict is true, offers the
// strict variant of each tool's schema (Specs returns each tool's spec
// with its StrictParameters and Strict set, or the table's StrictSpecs
// when it came with them; a tool without StrictParameters, such as a
// mounted one, keeps its spec) and reads a null argument as the field
// left out exactly where the strict schema allows null. Arguments are
// otherwise decoded as strictly as ever: a null where the strict schema
// does not allow one (a required field, an array element, an unknown key)
// is still refused.
func (r *Registry) WithStrict(strict bool) *Registry {
	c := *r
	c.strict = strict
	return &c
}

// Strict reports whether r is strict (see WithStrict).
func (r *Registry) Strict() bool { return r.strict }

// Check decodes and checks args for the named tool without running it, as
// Call would (a strict registry reads nulls as WithStrict says), and
// returns the error Call would answer for them, or nil: it binds them with
// the tool's Bind and drops the Run. A mounted tool's arguments are
// checked only as far as its Bind does; its server checks the rest.
func (r *Registry) Check(name, args string) error {
	if EmptyArgs(args) {
		args = "{}"
	}
	i := r.lookup(name)
	if i < 0 {
		return &Error{Tool: name, Kind: KindUnknownTool, Err: fmt.Errorf("available tools: %v", r.Names())}
	}
	e := &r.set.entries[i]
	if r.strict {
		args = r.set.dropNulls(i, args)
	}
	if _, err := e.Bind([]byte(args)); err != nil {
		return asError(e.Name, err)
	}
	return nil
}

// strictSpecOf is the strict spec of an entry that has no generated one.
func strictSpecOf(e Entry) openai.Tool {
	s := specOf(e)
	if e.StrictParameters != "" {
		s.Function.Parameters = json.RawMessage(e.StrictParameters)
		s.Function.Strict = true
	}
	return s
}

// nulls is what a strict schema says of a JSON value: whether it may be
// null, and, for an object, the same of each property; for an array, of
// its elements.
type nulls struct {
	nullable bool
	props    map[string]*nulls
	items    *nulls
}

// lazyNulls reads an entry's StrictParameters when a strict call of it
// first needs them, and keeps what they say of nulls (nil when the entry
// has none, or they cannot be read: then no null is dropped and the
// decoder refuses every null). A set has one per entry, made in one
// allocation, so that a registry of many tools costs nothing here at start.
type lazyNulls struct {
	once sync.Once
	n    *nulls
}

func (l *lazyNulls) get(schema string) *nulls {
	l.once.Do(func() {
		if schema == "" {
			return
		}
		var node schemaNode
		if err := json.Unmarshal([]byte(schema), &node); err != nil {
			return
		}
		l.n = node.nulls()
	})
	return l.n
}

// schemaNode is the part of a JSON Schema that says where null is allowed.
type schemaNode struct {
	Type       json.RawMessage        `json:"type"`
	Enum       []json.RawMessage      `json:"enum"`
	Properties map[string]*schemaNode `json:"properties"`
	Items      *schemaNode            `json:"items"`
}

func (s *schemaNode) nulls() *nulls {
	if s == nil {
		return nil
	}
	n := &nulls{nullable: s.allowsNull()}
	if len(s.Properties) > 0 {
		n.props = make(map[string]*nulls, len(s.Properties))
		for k, p := range s.Properties {
			n.props[k] = p.nulls()
		}
	}
	n.items = s.Items.nulls()
	return n
}

// allowsNull reports whether the type is null or a union with null, and
// the enum, if any, lists null.
func (s *schemaNode) allowsNull() bool {
	var one string
	var many []string
	switch {
	case json.Unmarshal(s.Type, &one) == nil:
		many = []string{one}
	case json.Unmarshal(s.Type, &many) == nil:
	default:
		return false
	}
	typed := false
	for _, t := range many {
		typed = typed || t == "null"
	}
	if !typed {
		return false
	}
	if s.Enum == nil {
		return true
	}
	for _, e := range s.Enum {
		if string(bytes.TrimSpace(e)) == "null" {
			return true
		}
	}
	return false
}

// dropNulls returns args without the members whose value is null where the
// strict schema of entry i allows null, at any depth; args as they are
// when nothing is dropped, when they are not valid JSON (the decoder
// explains), or when the entry has no strict schema.
func (s *set) dropNulls(i int, args string) string {
	n := s.nulls[i].get(s.entries[i].StrictParameters)
	if n == nil || n.props == nil || !bytes.Contains([]byte(args), []byte("null")) {
		return args
	}
	data := []byte(args)
	text := bytes.Trim(data, jsonSpace)
	if len(text) == 0 || text[0] != '{' || !jsonarg.Valid(text) {
		return args
	}
	out, changed := n.dropValue(text)
	if !changed {
		return args
	}
	start := len(data) - len(bytes.TrimLeft(data, jsonSpace))
	return string(data[:start]) + string(out) + string(data[start+len(text):])
}

// dropValue drops the nullable null members of value, a valid JSON value
// that n describes, and reports whether it dropped any.
func (n *nulls) dropValue(value []byte) ([]byte, bool) {
	switch {
	case len(value) == 0 || n == nil:
		return value, false
	case value[0] == '{' && n.props != nil:
		return n.dropObject(value)
	case value[0] == '[' && n.items != nil:
		elems := arrayElements(value)
		var out []byte
		last, changed := 0, false
		for _, el := range elems {
			v, ok := n.items.dropValue(value[el.start:el.end])
			if !ok {
				continue
			}
			out = append(append(out, value[last:el.start]...), v...)
			last, changed = el.end, true
		}
		if !changed {
			return value, false
		}
		return append(out, value[last:]...), true
	}
	return value, false
}

// dropObject drops the members of obj whose value is null where n allows
// it, and recurses into the others. An object with a key given twice is
// left as it is, for the decoder to refuse.
func (n *nulls) dropObject(obj []byte) ([]byte, bool) {
	members := objectMembers(obj)
	seen := make(map[string]bool, len(members))
	for _, m := range members {
		if seen[m.key] {
			return obj, false
		}
		seen[m.key] = true
	}
	// Each member is spliced with its own text: from the end of the one
	// before (less the comma) to the end of its value.
	out := []byte{'{'}
	changed, kept, prev := false, 0, 1
	for _, m := range members {
		head := obj[prev:m.start]
		if prev > 1 {
			head = head[bytes.IndexByte(head, ',')+1:]
		}
		prev = m.end
		p := n.props[m.key]
		value := obj[m.start:m.end]
		if p != nil && p.nullable && string(value) == "null" {
			changed = true
			continue
		}
		if v, ok := p.dropValue(value); ok {
			value, changed = v, true
		}
		if kept > 0 {
			out = append(out, ',')
		}
		kept++
		out = append(append(out, head...), value...)
	}
	if !changed {
		return obj, false
	}
	return append(out, obj[prev:]...), true
}
