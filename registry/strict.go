package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
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
	if _, err := e.Bind(args); err != nil {
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
// its elements. A recursive type makes it a graph: the nulls of a
// definition ($defs, or the root for "$ref":"#") are shared by its uses.
type nulls struct {
	nullable bool
	props    map[string]*nulls
	items    *nulls
	// like, when set, says what props and items do: the value is an
	// anyOf of a $ref and null, and like is the referenced definition's.
	like *nulls
	// def marks a definition a $ref names: each one a value passes
	// through is a level of a recursive type.
	def bool
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
		b := nullsBuilder{root: &node, done: map[*schemaNode]*nulls{}}
		l.n = b.nulls(&node)
	})
	return l.n
}

// schemaNode is the part of a JSON Schema that says where null is allowed.
type schemaNode struct {
	Type       json.RawMessage        `json:"type"`
	Enum       []json.RawMessage      `json:"enum"`
	Properties map[string]*schemaNode `json:"properties"`
	Items      *schemaNode            `json:"items"`
	// A recursive type is a $ref to "#" or to one of $defs; a use of it
	// that carries a description or null, an anyOf of the $ref and null.
	Ref   string                 `json:"$ref"`
	AnyOf []*schemaNode          `json:"anyOf"`
	Defs  map[string]*schemaNode `json:"$defs"`
}

// nullsBuilder reads the nulls of a schema, each node once, so that a
// recursive schema makes a graph, not an endless tree.
type nullsBuilder struct {
	root *schemaNode
	done map[*schemaNode]*nulls
}

func (b *nullsBuilder) nulls(s *schemaNode) *nulls {
	if s == nil {
		return nil
	}
	if n, ok := b.done[s]; ok {
		return n
	}
	if s.Ref != "" {
		target := b.resolve(s.Ref)
		if target == nil || target == s {
			return nil
		}
		n := b.nulls(target)
		if n != nil {
			n.def = true
		}
		b.done[s] = n
		return n
	}
	n := &nulls{nullable: s.allowsNull()}
	b.done[s] = n // before the members, which may lead back here
	if len(s.Properties) > 0 {
		n.props = make(map[string]*nulls, len(s.Properties))
		for k, p := range s.Properties {
			n.props[k] = b.nulls(p)
		}
	}
	n.items = b.nulls(s.Items)
	for _, alt := range s.AnyOf {
		if alt.allowsNull() && alt.Ref == "" {
			n.nullable = true
		} else if n.like == nil {
			n.like = b.nulls(alt)
		}
	}
	return n
}

// resolve returns the schema a $ref names: the root for "#", one of its
// $defs for "#/$defs/Name"; nil for any other.
func (b *nullsBuilder) resolve(ref string) *schemaNode {
	if ref == "#" {
		return b.root
	}
	if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
		name = strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
		return b.root.Defs[name]
	}
	return nil
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
	dr := dropper{d: jsonarg.NewDecoder(text), text: text, out: make([]byte, 0, len(text))}
	if err := dr.value(n, 0); err != nil || !dr.changed {
		return args
	}
	out := dr.out
	start := len(data) - len(bytes.TrimLeft(data, jsonSpace))
	return string(data[:start]) + string(out) + string(data[start+len(text):])
}

// dropper copies a valid JSON text, without the members whose value is a
// null its nulls allow, in one pass: each byte is read once and copied
// once, however deep the schema describes the value.
type dropper struct {
	d    jsonarg.Decoder
	text []byte
	out  []byte
	// changed is set when a member was dropped; dup when an object had a
	// key twice: it is copied as it is, for the decoder to refuse (which
	// it does whatever else the arguments hold), and nothing more is
	// dropped.
	changed, dup bool
}

// value copies the value at the decoder, which n describes. depth counts
// the definitions of recursive types the value is inside: past
// jsonarg.MaxDepth, where the decoder refuses the value, it is copied as
// it is.
func (dr *dropper) value(n *nulls, depth int) error {
	for i := 0; n != nil && n.like != nil && i < 8; i++ {
		n = n.like
	}
	if n != nil && n.def {
		depth++
	}
	start := dr.valueStart()
	switch {
	case n == nil || dr.dup || depth > jsonarg.MaxDepth || start >= len(dr.text):
	case dr.text[start] == '{' && n.props != nil:
		return dr.object(n, start, depth)
	case dr.text[start] == '[' && n.items != nil:
		return dr.array(n, start, depth)
	}
	s, e, err := dr.d.Skip()
	dr.out = append(dr.out, dr.text[s:e]...)
	return err
}

// valueStart returns the offset of the next value: the decoder's, past
// white space.
func (dr *dropper) valueStart() int {
	p := dr.d.Offset()
	for p < len(dr.text) && strings.IndexByte(jsonSpace, dr.text[p]) >= 0 {
		p++
	}
	return p
}

// object copies the object at start, dropping the members whose value is
// a null n allows and copying the others through value. Each member kept
// is copied with its own text: from the end of the one before (less the
// comma) to the end of its value.
func (dr *dropper) object(n *nulls, start, depth int) error {
	if err := dr.d.ObjectStart(); err != nil {
		return err
	}
	mark := len(dr.out)
	dr.out = append(dr.out, '{')
	prev := start + 1 // the end of the member before, or of the '{'
	kept := 0
	seen := map[string]bool{}
	for {
		key, more, err := dr.d.NextField()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		k := string(key)
		if seen[k] && !dr.dup {
			// Copied as it is; the rest of the object too.
			dr.dup = true
			if _, _, err := dr.d.Skip(); err != nil {
				return err
			}
			if err := dr.rest(); err != nil {
				return err
			}
			dr.out = append(dr.out[:mark], dr.text[start:dr.d.Offset()]...)
			return nil
		}
		seen[k] = true
		p := n.props[k]
		vs := dr.valueStart()
		head := dr.text[prev:vs]
		if prev > start+1 {
			head = head[bytes.IndexByte(head, ',')+1:]
		}
		if p != nil && p.nullable && !dr.dup && bytes.HasPrefix(dr.text[vs:], []byte("null")) {
			if _, prev, err = dr.d.Skip(); err != nil {
				return err
			}
			dr.changed = true
			continue
		}
		if kept > 0 {
			dr.out = append(dr.out, ',')
		}
		kept++
		dr.out = append(dr.out, head...)
		if err := dr.value(p, depth); err != nil {
			return err
		}
		prev = dr.d.Offset()
	}
	dr.out = append(dr.out, dr.text[prev:dr.d.Offset()]...)
	return nil
}

// rest reads the members left in the object being read, after a key
// given twice, to its closing '}'.
func (dr *dropper) rest() error {
	for {
		_, more, err := dr.d.NextField()
		if err != nil || !more {
			return err
		}
		if _, _, err := dr.d.Skip(); err != nil {
			return err
		}
	}
}

// array copies the array at start, each element through value with
// n.items.
func (dr *dropper) array(n *nulls, start, depth int) error {
	if err := dr.d.ArrayStart(); err != nil {
		return err
	}
	last := start
	for {
		more, err := dr.d.NextItem()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		vs := dr.valueStart()
		dr.out = append(dr.out, dr.text[last:vs]...)
		if err := dr.value(n.items, depth); err != nil {
			return err
		}
		last = dr.d.Offset()
	}
	dr.out = append(dr.out, dr.text[last:dr.d.Offset()]...)
	return nil
}
