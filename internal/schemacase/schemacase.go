// Package schemacase derives, from a tool's JSON Schema, the arguments
// that test its generated decoder at every limit the schema sets, and
// checks that the decoder accepts exactly what the schema accepts, as an
// independent validator (santhosh-tekuri/jsonschema, draft 2020-12) judges.
//
// The values tried for a property come from its schema: minimum and
// maximum and their neighbours (one apart for integers, the next float64
// for numbers, a fraction for both); strings of minLength and maxLength
// characters and one fewer and one more, in ASCII, in two-byte and in
// four-byte characters; each enum value and near misses of it; arrays of
// minItems and maxItems elements and one fewer and one more; and, for an
// object, each of its own properties varied in the same way, each required
// property left out and an unknown one added. Every value is tried in
// place over a base where all other properties are valid, so a refusal is
// the value's own.
//
// A recursive schema ("$ref" to "#" or to one of "$defs", alone or in an
// anyOf with null) is followed three levels deep for the values tried, and to its
// least valid value below that: the cases nest a recursive type a few
// levels, not to a decoder's depth limit, which the schema cannot state.
//
// Tests use it; it is not part of any program.
package schemacase

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolreg/toolreg/jsonarg"
)

// Case is one arguments text and whether the schema accepts it.
type Case struct {
	Args  string
	Valid bool
}

// Cases returns the cases derived from the parameters schema of a tool.
func Cases(schema string) ([]Case, error) {
	root, err := parse([]byte(schema))
	if err != nil {
		return nil, err
	}
	top, err := compile(schema)
	if err != nil {
		return nil, err
	}
	d := &deriver{root: root, text: schema, compiled: map[string]*jsonschema.Schema{"": top}}
	vals, err := d.values(root, "", "")
	if err != nil {
		return nil, err
	}
	vals = append(vals, "null", "[]", `"{}"`, "{} {}", `{"no_such_field":1}`)
	seen := map[string]bool{}
	var cases []Case
	for _, v := range vals {
		if seen[v] {
			continue
		}
		seen[v] = true
		// A key given twice is refused on purpose (see package jsonarg),
		// where a validator reading parsed JSON sees the last value only.
		cases = append(cases, Case{Args: v, Valid: !duplicateKey(v) && valid(top, v)})
	}
	return cases, nil
}

// Mismatch reports a case whose decoding disagrees with the schema.
type Mismatch struct {
	Case
	Err error // the decoder's error, nil when it accepted
}

func (m Mismatch) String() string {
	return fmt.Sprintf("arguments %.300s: schema accepts: %v, decoder accepts: %v (%v)", m.Args, m.Valid, m.Err == nil, m.Err)
}

// Compare runs check on every case and returns the cases where it
// disagrees with the schema, and how many cases the schema accepted and
// refused (a test checks that both are tried).
func Compare(cases []Case, check func([]byte) error) (bad []Mismatch, accepted, refused int) {
	for _, c := range cases {
		err := check([]byte(c.Args))
		if (err == nil) != c.Valid {
			bad = append(bad, Mismatch{c, err})
		}
		if c.Valid {
			accepted++
		} else {
			refused++
		}
	}
	return bad, accepted, refused
}

// duplicateKey reports whether an object in text, at any depth, has a key
// twice.
func duplicateKey(text string) bool {
	dec := json.NewDecoder(strings.NewReader(text))
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token of an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &frame{object: v == '{', keys: map[string]bool{}, key: true})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if top != nil && top.object && top.key {
				if top.keys[v] {
					return true
				}
				top.keys[v] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true
		}
	}
}

type node = map[string]any

func parse(b []byte) (node, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var n node
	if err := dec.Decode(&n); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return n, nil
}

func compile(schema string) (*jsonschema.Schema, error) {
	return compileAt(schema, "")
}

// compileAt compiles the subschema of schema at the JSON pointer ptr, in
// the whole document, so that its $refs resolve.
func compileAt(schema, ptr string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem:///s.json", doc); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	s, err := c.Compile("mem:///s.json#" + ptr)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return s, nil
}

func valid(s *jsonschema.Schema, text string) bool {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	return err == nil && s.Validate(v) == nil
}

// deriver derives the values of the schema text, parsed as root. Each
// subschema is passed with its JSON pointer in the document, to compile
// it where its $refs resolve.
type deriver struct {
	root     node
	text     string
	compiled map[string]*jsonschema.Schema
	// refs counts the $refs followed to the value being derived.
	refs int
}

// maxRefs is how many $refs deep the values tried follow a recursive
// schema; below, a recursive value is its base.
const maxRefs = 3

func (d *deriver) compiledAt(ptr string) (*jsonschema.Schema, error) {
	if s, ok := d.compiled[ptr]; ok {
		return s, nil
	}
	s, err := compileAt(d.text, ptr)
	if err != nil {
		return nil, err
	}
	d.compiled[ptr] = s
	return s, nil
}

// deref returns the schema s names with "$ref" and its pointer, or s and
// ptr when it has none.
func (d *deriver) deref(s node, ptr string) (node, string, error) {
	ref, ok := s["$ref"].(string)
	if !ok {
		return s, ptr, nil
	}
	if ref == "#" {
		return d.root, "", nil
	}
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	defs, _ := d.root["$defs"].(node)
	target, _ := defs[name].(node)
	if !ok || target == nil {
		return nil, "", fmt.Errorf("%s: $ref %q names neither the root nor a definition", ptr, ref)
	}
	return target, "/$defs/" + escape(name), nil
}

// escape escapes a JSON pointer token.
func escape(tok string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

// alternatives returns the schemas of an anyOf, each with its pointer, or
// nil.
func alternatives(s node, ptr string) ([]node, []string) {
	alts, _ := s["anyOf"].([]any)
	var out []node
	var ptrs []string
	for i, a := range alts {
		if n, ok := a.(node); ok {
			out = append(out, n)
			ptrs = append(ptrs, fmt.Sprintf("%s/anyOf/%d", ptr, i))
		}
	}
	return out, ptrs
}

// generic are values of every type, tried for every property.
var generic = []string{`"x"`, `""`, `0`, `1`, `-1`, `1.5`, `true`, `false`, `null`, `[]`, `{}`, `["a"]`, `[1]`, `{"a":1}`}

// base returns a value s accepts: for an object, its required properties
// each at its base; for an array, its fewest items each at its base; else
// the first of its derived values that its own schema validates.
func (d *deriver) base(s node, ptr, path string) (string, error) {
	sch, err := d.compiledAt(ptr)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if _, ok := s["$ref"]; ok {
		if d.refs > 16 {
			return "", fmt.Errorf("%s: no finite value: a recursive type requires itself", path)
		}
		t, tptr, err := d.deref(s, ptr)
		if err != nil {
			return "", err
		}
		d.refs++
		defer func() { d.refs-- }()
		return d.base(t, tptr, path)
	}
	if alts, ptrs := alternatives(s, ptr); len(alts) > 0 {
		// null where it is allowed, else the first alternative's base.
		if valid(sch, "null") {
			return "null", nil
		}
		return d.base(alts[0], ptrs[0], path)
	}
	text, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	if t, _ := s["type"].(string); t == "array" {
		// The fewest items the array takes, each at its base.
		items, _ := s["items"].(node)
		if items == nil {
			items = node{}
		}
		n, _ := intOf(s["minItems"])
		a := make([]string, max(n, 0))
		for i := range a {
			v, err := d.base(items, ptr+"/items", path+"[]")
			if err != nil {
				return "", err
			}
			a[i] = v
		}
		if v := array(a); valid(sch, v) {
			return v, nil
		}
		return "", fmt.Errorf("%s: no valid array of %d items at the base value of its items", path, len(a))
	}
	if t, _ := s["type"].(string); t == "object" {
		// Required properties only, each at its base.
		props, _ := s["properties"].(node)
		m := map[string]string{}
		for _, r := range required(s) {
			p, _ := props[r].(node)
			v, err := d.base(p, ptr+"/properties/"+escape(r), path+"."+r)
			if err != nil {
				return "", err
			}
			m[r] = v
		}
		if o := object(m); valid(sch, o) {
			return o, nil
		}
		return "", fmt.Errorf("%s: no valid object from the base values of its required properties", path)
	}
	for _, v := range d.leaf(s) {
		if valid(sch, v) {
			return v, nil
		}
	}
	for _, v := range generic {
		if valid(sch, v) {
			return v, nil
		}
	}
	return "", fmt.Errorf("%s: no derived value satisfies the schema %s", path, text)
}

// values returns the values tried for s: valid and invalid ones.
func (d *deriver) values(s node, ptr, path string) ([]string, error) {
	if _, ok := s["$ref"]; ok {
		if d.refs >= maxRefs {
			v, err := d.base(s, ptr, path)
			return append([]string{v}, generic...), err
		}
		t, tptr, err := d.deref(s, ptr)
		if err != nil {
			return nil, err
		}
		d.refs++
		defer func() { d.refs-- }()
		return d.values(t, tptr, path)
	}
	if alts, ptrs := alternatives(s, ptr); len(alts) > 0 {
		var out []string
		for i, a := range alts {
			vals, err := d.values(a, ptrs[i], path)
			if err != nil {
				return nil, err
			}
			out = append(out, vals...)
		}
		return out, nil
	}
	switch t, _ := s["type"].(string); t {
	case "object":
		return d.objectValues(s, ptr, path)
	case "array":
		return d.arrayValues(s, ptr, path)
	}
	if ap, ok := s["additionalProperties"].(node); ok {
		// A map, typed ["object","null"] or "object" with a description:
		// a key of each value of its values, and none.
		vals, err := d.values(ap, ptr+"/additionalProperties", path+".*")
		if err != nil {
			return nil, err
		}
		out := []string{"{}"}
		for _, v := range vals {
			out = append(out, `{"k":`+v+`}`)
		}
		return append(out, generic...), nil
	}
	return append(d.leaf(s), generic...), nil
}

func (d *deriver) objectValues(s node, ptr, path string) ([]string, error) {
	props, _ := s["properties"].(node)
	base := map[string]string{}
	for _, r := range required(s) {
		p, _ := props[r].(node)
		v, err := d.base(p, ptr+"/properties/"+escape(r), path+"."+r)
		if err != nil {
			return nil, err
		}
		base[r] = v
	}
	out := []string{object(base), "{}", `{"no_such_field":1}`}
	if ap, ok := s["additionalProperties"].(node); ok && len(props) == 0 {
		// A map: a key of each value of its values.
		vals, err := d.values(ap, ptr+"/additionalProperties", path+".*")
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			out = append(out, `{"k":`+v+`}`, `{"k":`+v+`,"l":`+v+`}`)
		}
	}
	for _, name := range slices.Sorted(mapsKeys(props)) {
		p, _ := props[name].(node)
		vals, err := d.values(p, ptr+"/properties/"+escape(name), path+"."+name)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			out = append(out, object(with(base, name, v)))
		}
		// The same key twice.
		if b, ok := base[name]; ok {
			o := object(base)
			out = append(out, o[:len(o)-1]+fmt.Sprintf(",%q:%s}", name, b))
		}
	}
	for _, r := range required(s) {
		out = append(out, object(without(base, r)))
	}
	return out, nil
}

func (d *deriver) arrayValues(s node, ptr, path string) ([]string, error) {
	items, _ := s["items"].(node)
	if items == nil {
		items = node{}
	}
	item, err := d.base(items, ptr+"/items", path+"[]")
	if err != nil {
		return nil, err
	}
	var counts []int
	for _, k := range []string{"minItems", "maxItems"} {
		if n, ok := intOf(s[k]); ok {
			counts = append(counts, n-1, n, n+1)
		}
	}
	counts = append(counts, 0, 1, 2)
	var out []string
	for _, n := range counts {
		if n >= 0 {
			out = append(out, array(slices.Repeat([]string{item}, n)))
		}
	}
	// Each value of an item, in an array of otherwise valid items of the
	// least count the array takes.
	n, _ := intOf(s["minItems"])
	n = max(n, 1)
	vals, err := d.values(items, ptr+"/items", path+"[]")
	if err != nil {
		return nil, err
	}
	for _, v := range vals {
		a := slices.Repeat([]string{item}, n)
		a[n-1] = v
		out = append(out, array(a))
	}
	return append(out, generic...), nil
}

// leaf returns the values derived from the keywords of a string, number,
// integer or boolean schema.
func (d *deriver) leaf(s node) []string {
	var out []string
	if def, ok := s["default"]; ok {
		out = append(out, marshal(def))
	}
	if enum, ok := s["enum"].([]any); ok {
		for _, e := range enum {
			out = append(out, marshal(e))
			switch v := e.(type) {
			case string:
				out = append(out, strconv.Quote(v+"x"), strconv.Quote(strings.ToUpper(v)), strconv.Quote(" "+v))
				if v != "" {
					out = append(out, strconv.Quote(v[:len(v)-1]))
				}
			case json.Number:
				out = append(out, neighbours(v, s["type"] == "integer")...)
			}
		}
	}
	t, _ := s["type"].(string)
	switch t {
	case "integer", "number":
		for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
			if v, ok := s[k].(json.Number); ok {
				out = append(out, neighbours(v, t == "integer")...)
			}
		}
		out = append(out, "0", "-0", "1", "-1", "1e1", "3.0", "9007199254740993")
	case "string":
		var lengths []int
		for _, k := range []string{"minLength", "maxLength"} {
			if n, ok := intOf(s[k]); ok {
				lengths = append(lengths, n-1, n, n+1)
			}
		}
		lengths = append(lengths, 0, 1, 3)
		for _, n := range lengths {
			if n < 0 {
				continue
			}
			for _, c := range []string{"a", "é", "😀"} {
				out = append(out, strconv.Quote(strings.Repeat(c, n)))
			}
			// Mixed, and escaped: \u00e9 is one character of six bytes.
			out = append(out, `"`+strings.Repeat(`\u00e9`, n)+`"`)
		}
		out = append(out, `"https://example.com"`, `"Europe/Berlin"`, `"/"`, `"2+2"`, `"x"`)
		if s["pattern"] == jsonarg.DurationPattern {
			// A Go duration, and two near misses; its bounds, which only
			// the description states, are not tried.
			out = append(out, `"1m30s"`, `"90"`, `"1x"`)
		}
	case "boolean":
		out = append(out, "true", "false")
	}
	return out
}

// neighbours returns a number literal, the integers next to it, a value
// half way to them, the float64 values next to it, and the same value
// written with a fraction and an exponent.
func neighbours(n json.Number, integer bool) []string {
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		return nil
	}
	one, half := big.NewRat(1, 1), big.NewRat(1, 2)
	out := []string{n.String()}
	f, _ := r.Float64()
	for _, delta := range []*big.Rat{one, half} {
		for _, m := range []*big.Rat{new(big.Rat).Add(r, delta), new(big.Rat).Sub(r, delta)} {
			// A decoder compares a number with its bounds as its nearest
			// float64: a neighbour that rounds to the bound is the bound
			// to it (3.4028234663852886e+38, a float32's maximum, plus
			// one half), which the schema's exact arithmetic is not.
			if g, _ := m.Float64(); !integer && g == f {
				continue
			}
			out = append(out, ratText(m))
		}
	}
	if r.IsInt() {
		out = append(out, r.Num().String()+".0", r.Num().String()+"e0")
	}
	if !integer {
		out = append(out,
			strconv.FormatFloat(math.Nextafter(f, math.Inf(1)), 'g', -1, 64),
			strconv.FormatFloat(math.Nextafter(f, math.Inf(-1)), 'g', -1, 64))
	}
	return out
}

func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(20)
}

func intOf(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return int(i), err == nil
}

func required(s node) []string {
	rs, _ := s["required"].([]any)
	var out []string
	for _, r := range rs {
		if name, ok := r.(string); ok {
			out = append(out, name)
		}
	}
	return out
}

func marshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func with(m map[string]string, k, v string) map[string]string {
	c := map[string]string{k: v}
	for kk, vv := range m {
		if kk != k {
			c[kk] = vv
		}
	}
	return c
}

func without(m map[string]string, k string) map[string]string {
	c := map[string]string{}
	for kk, vv := range m {
		if kk != k {
			c[kk] = vv
		}
	}
	return c
}

// object writes a JSON object with its keys sorted.
func object(m map[string]string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range slices.Sorted(mapsKeys(m)) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", k, m[k])
	}
	b.WriteByte('}')
	return b.String()
}

func array(items []string) string {
	return "[" + strings.Join(items, ",") + "]"
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
