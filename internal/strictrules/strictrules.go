// Package strictrules holds the documented rules of strict function calling
// (OpenAI's "strict": true, Structured Outputs), as a check the tests run
// on every strict schema toolgen writes. It is written from the provider's
// documentation, not from toolgen's code, so that it checks toolgen
// independently.
//
// Source: https://platform.openai.com/docs/guides/function-calling (strict
// mode) and https://platform.openai.com/docs/guides/structured-outputs
// ("Supported schemas"). The rules, as documented:
//
//  1. The root is an object, not anyOf.
//  2. Every object has "additionalProperties": false.
//  3. Every property of every object is listed in "required"; an optional
//     field is emulated with a union with null.
//  4. Only the supported keywords are used: type (string, number, boolean,
//     integer, object, array, null, or a union of them), description,
//     title, properties, required, additionalProperties, items, enum,
//     const, anyOf, $ref, $defs and definitions; for strings pattern and
//     format; for numbers minimum, maximum, exclusiveMinimum,
//     exclusiveMaximum and multipleOf; for arrays minItems and maxItems.
//     Not supported, among others: default, minLength, maxLength,
//     patternProperties, propertyNames, minProperties, maxProperties,
//     unevaluatedProperties, unevaluatedItems, contains, uniqueItems,
//     allOf, not, if/then/else.
//  5. Size limits. The documentation has raised them over time (from 100
//     object properties and 5 levels of nesting to 5000 and 10; from 15,000
//     to 120,000 characters of names and enum values; from 500 to 1000
//     enum values). The check holds the first, stricter figures, which
//     every version accepts: at most 100 properties in all, 5 levels of
//     nested objects, 15,000 characters of property names, enum values and
//     const values, and 500 enum values in all.
//  6. Definitions and recursion: "$defs" (or "definitions") at the root
//     holds schemas that follow the same rules, every object in them too;
//     "$ref" names the root ("#", root recursion) or one of them
//     ("#/$defs/name"), and stands alone: the API refuses a keyword beside
//     it ("$ref cannot have keywords {'description'}"), so a description
//     or null goes around it in an anyOf. Nesting is counted within each
//     definition, a $ref not followed.
package strictrules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// The size limits (rule 5), at their strictest documented values.
const (
	MaxProperties  = 100
	MaxDepth       = 5
	MaxStringChars = 15000
	MaxEnumValues  = 500
)

// supported are the keywords strict mode documents (rule 4).
var supported = map[string]bool{
	"type": true, "description": true, "title": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "enum": true, "const": true, "anyOf": true,
	"$ref": true, "$defs": true, "definitions": true,
	"pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true,
}

var types = map[string]bool{"string": true, "number": true, "boolean": true, "integer": true, "object": true, "array": true, "null": true}

// Check returns every way schema, a tool's parameters as JSON text, breaks
// the rules of strict mode, each with its JSON pointer; none for a schema
// strict mode accepts.
func Check(schema string) []string {
	var root map[string]json.RawMessage
	d := json.NewDecoder(bytes.NewReader([]byte(schema)))
	d.UseNumber()
	if err := d.Decode(&root); err != nil {
		// The message is ours, not encoding/json's, whose wording
		// changes between releases.
		if !json.Valid([]byte(schema)) {
			return []string{"not JSON"}
		}
		return []string{"not a JSON object"}
	}
	c := &checker{defs: map[string]bool{}}
	for _, key := range []string{"$defs", "definitions"} {
		var defs map[string]json.RawMessage
		if raw, ok := root[key]; ok && json.Unmarshal(raw, &defs) != nil {
			c.problem("/"+key, "not an object of schemas")
		}
		for name := range defs {
			c.defs["#/"+key+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(name)] = true
		}
	}
	if _, ok := root["anyOf"]; ok {
		c.problem("", "the root is anyOf; it must be an object")
	}
	if !c.hasType(root, "object") {
		c.problem("", "the root is not of type object")
	}
	c.schema("", root, 0)
	for _, key := range []string{"$defs", "definitions"} {
		var defs map[string]map[string]json.RawMessage
		if json.Unmarshal(root[key], &defs) != nil {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(defs)) {
			c.schema("/"+key+"/"+name, defs[name], 0)
		}
	}
	if c.props > MaxProperties {
		c.problem("", fmt.Sprintf("%d properties in all, more than %d", c.props, MaxProperties))
	}
	if c.chars > MaxStringChars {
		c.problem("", fmt.Sprintf("%d characters of names and enum values, more than %d", c.chars, MaxStringChars))
	}
	if c.enums > MaxEnumValues {
		c.problem("", fmt.Sprintf("%d enum values in all, more than %d", c.enums, MaxEnumValues))
	}
	return c.out
}

type checker struct {
	out                 []string
	props, chars, enums int
	// defs holds the $ref of each definition at the root.
	defs map[string]bool
}

func (c *checker) problem(ptr, msg string) {
	if ptr == "" {
		ptr = "/"
	}
	c.out = append(c.out, ptr+": "+msg)
}

// hasType reports whether the schema's type is t or a union holding t.
func (c *checker) hasType(s map[string]json.RawMessage, t string) bool {
	ts, _ := typesOf(s["type"])
	return slices.Contains(ts, t)
}

func typesOf(raw json.RawMessage) ([]string, bool) {
	if raw == nil {
		return nil, true
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, true
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many, true
	}
	return nil, false
}

// schema checks one schema at ptr; depth counts the objects around it.
func (c *checker) schema(ptr string, s map[string]json.RawMessage, depth int) {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !supported[k] {
			c.problem(ptr, fmt.Sprintf("keyword %q is not supported in strict mode", k))
		}
		if (k == "$defs" || k == "definitions") && ptr != "" {
			c.problem(ptr, fmt.Sprintf("%s is not at the root", k))
		}
	}
	if raw, ok := s["$ref"]; ok {
		var ref string
		if json.Unmarshal(raw, &ref) != nil || ref != "#" && !c.defs[ref] {
			c.problem(ptr, fmt.Sprintf("$ref %s names neither the root nor a definition", raw))
		}
		for _, k := range keys {
			if k != "$ref" {
				c.problem(ptr, fmt.Sprintf("keyword %q beside $ref (a $ref stands alone in strict mode)", k))
			}
		}
		return
	}
	ts, ok := typesOf(s["type"])
	if !ok {
		c.problem(ptr, "type is neither a string nor an array of strings")
	}
	for _, t := range ts {
		if !types[t] {
			c.problem(ptr, fmt.Sprintf("type %q is not supported", t))
		}
	}
	if raw, ok := s["enum"]; ok {
		var values []json.RawMessage
		if json.Unmarshal(raw, &values) != nil {
			c.problem(ptr, "enum is not an array")
		}
		c.enums += len(values)
		for _, v := range values {
			var str string
			if json.Unmarshal(v, &str) == nil {
				c.chars += len([]rune(str))
			}
			if string(v) == "null" && !slices.Contains(ts, "null") {
				c.problem(ptr, "enum has null, but the type does not")
			}
		}
	}
	if raw, ok := s["anyOf"]; ok {
		var subs []map[string]json.RawMessage
		if json.Unmarshal(raw, &subs) != nil {
			c.problem(ptr, "anyOf is not an array of schemas")
		}
		for i, sub := range subs {
			c.schema(fmt.Sprintf("%s/anyOf/%d", ptr, i), sub, depth)
		}
	}
	if raw, ok := s["items"]; ok {
		var sub map[string]json.RawMessage
		if json.Unmarshal(raw, &sub) != nil {
			c.problem(ptr, "items is not one schema")
		} else {
			c.schema(ptr+"/items", sub, depth)
		}
	}
	_, hasProps := s["properties"]
	if !slices.Contains(ts, "object") && !hasProps {
		return
	}
	c.object(ptr, s, depth+1)
}

// object checks the object rules (2, 3 and the nesting of 5).
func (c *checker) object(ptr string, s map[string]json.RawMessage, depth int) {
	if depth > MaxDepth {
		c.problem(ptr, fmt.Sprintf("objects nested %d deep, more than %d", depth, MaxDepth))
	}
	if string(s["additionalProperties"]) != "false" {
		c.problem(ptr, `additionalProperties is not false`)
	}
	var props map[string]map[string]json.RawMessage
	if raw, ok := s["properties"]; ok && json.Unmarshal(raw, &props) != nil {
		c.problem(ptr, "properties is not an object of schemas")
	}
	var required []string
	if raw, ok := s["required"]; ok && json.Unmarshal(raw, &required) != nil {
		c.problem(ptr, "required is not an array of strings")
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	c.props += len(names)
	for _, name := range names {
		c.chars += len([]rune(name))
		if !slices.Contains(required, name) {
			c.problem(ptr+"/properties/"+name, "not listed in required (every property must be; make an optional one nullable)")
		}
		c.schema(ptr+"/properties/"+name, props[name], depth)
	}
	for _, r := range required {
		if _, ok := props[r]; !ok {
			c.problem(ptr, fmt.Sprintf("required lists %q, which is not a property", r))
		}
	}
}
