package strictrules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheck checks each rule on a schema that keeps it and on one that
// breaks it.
func TestCheck(t *testing.T) {
	nested := func(levels int) string {
		s := `{"type":"string","description":"leaf"}`
		for range levels {
			s = `{"type":"object","properties":{"a":` + s + `},"required":["a"],"additionalProperties":false}`
		}
		return s
	}
	manyProps := func(n int) string {
		var props, req []string
		for i := range n {
			props = append(props, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
			req = append(req, fmt.Sprintf(`"p%d"`, i))
		}
		return `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `],"additionalProperties":false}`
	}
	enum := func(n int) string {
		var vals []string
		for i := range n {
			vals = append(vals, fmt.Sprint(i))
		}
		return `{"type":"object","properties":{"e":{"type":"integer","enum":[` + strings.Join(vals, ",") + `]}},"required":["e"],"additionalProperties":false}`
	}
	tests := []struct {
		name, schema string
		want         []string
	}{
		{"good", `{"type":"object","properties":{"city":{"type":"string","description":"x","pattern":"^a"},"days":{"type":["integer","null"],"minimum":1,"maximum":16},"units":{"type":["string","null"],"enum":["c","f",null]},"tags":{"type":"array","items":{"type":"string"},"maxItems":3}},"required":["city","days","units","tags"],"additionalProperties":false}`, nil},
		{"root not an object", `{"type":"string"}`, []string{"/: the root is not of type object"}},
		{"root anyOf", `{"type":"object","anyOf":[],"properties":{},"required":[],"additionalProperties":false}`, []string{"/: the root is anyOf; it must be an object"}},
		{"not an object", `[1]`, []string{"not a JSON object"}},
		{"not JSON", `{"type":`, []string{"not JSON"}},
		// Recursion (rule 6): a definition in $defs, a $ref alone or in an
		// anyOf with null, and the root named by "#".
		{"recursive", `{"type":"object","properties":{"root":{"description":"d","anyOf":[{"$ref":"#/$defs/Node"}]},"next":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]},"sub":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["root","next","sub"],"additionalProperties":false,"$defs":{"Node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["kids"],"additionalProperties":false}}}`, nil},
		{"keyword beside $ref", `{"type":"object","properties":{"root":{"description":"d","$ref":"#"}},"required":["root"],"additionalProperties":false}`, []string{`/properties/root: keyword "description" beside $ref (a $ref stands alone in strict mode)`}},
		{"$ref to nothing", `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},"required":["root"],"additionalProperties":false}`, []string{`/properties/root: $ref "#/$defs/Node" names neither the root nor a definition`}},
		{"definition not strict", `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},"required":["root"],"additionalProperties":false,"$defs":{"Node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}},"name":{"type":"string","default":"x"}},"required":["kids"]}}}`, []string{
			"/$defs/Node: additionalProperties is not false",
			`/$defs/Node/properties/name: not listed in required (every property must be; make an optional one nullable)`,
			`/$defs/Node/properties/name: keyword "default" is not supported in strict mode`,
		}},
		{"$defs not at the root", `{"type":"object","properties":{"a":{"type":"object","properties":{},"required":[],"additionalProperties":false,"$defs":{}}},"required":["a"],"additionalProperties":false}`, []string{"/properties/a: $defs is not at the root"}},
		{"additionalProperties missing", `{"type":"object","properties":{},"required":[]}`, []string{"/: additionalProperties is not false"}},
		{"nested additionalProperties true", `{"type":"object","properties":{"o":{"type":["object","null"],"properties":{},"required":[],"additionalProperties":true}},"required":["o"],"additionalProperties":false}`, []string{"/properties/o: additionalProperties is not false"}},
		{"optional property", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"],"additionalProperties":false}`, []string{"/properties/b: not listed in required (every property must be; make an optional one nullable)"}},
		{"required not a property", `{"type":"object","properties":{},"required":["x"],"additionalProperties":false}`, []string{`/: required lists "x", which is not a property`}},
		{"default", `{"type":"object","properties":{"a":{"type":["integer","null"],"default":3}},"required":["a"],"additionalProperties":false}`, []string{`/properties/a: keyword "default" is not supported in strict mode`}},
		{"lengths", `{"type":"object","properties":{"a":{"type":"string","minLength":1,"maxLength":9}},"required":["a"],"additionalProperties":false}`, []string{`/properties/a: keyword "maxLength" is not supported in strict mode`, `/properties/a: keyword "minLength" is not supported in strict mode`}},
		{"items keyword", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","maxLength":2}}},"required":["a"],"additionalProperties":false}`, []string{`/properties/a/items: keyword "maxLength" is not supported in strict mode`}},
		{"unknown type", `{"type":"object","properties":{"a":{"type":"date"}},"required":["a"],"additionalProperties":false}`, []string{`/properties/a: type "date" is not supported`}},
		{"null in enum, not in type", `{"type":"object","properties":{"a":{"type":"string","enum":["x",null]}},"required":["a"],"additionalProperties":false}`, []string{"/properties/a: enum has null, but the type does not"}},
		{"nesting at the limit", nested(MaxDepth), nil},
		{"nesting past the limit", nested(MaxDepth + 1), []string{fmt.Sprintf("/properties/a/properties/a/properties/a/properties/a/properties/a: objects nested %d deep, more than %d", MaxDepth+1, MaxDepth)}},
		{"properties at the limit", manyProps(MaxProperties), nil},
		{"properties past the limit", manyProps(MaxProperties + 1), []string{fmt.Sprintf("/: %d properties in all, more than %d", MaxProperties+1, MaxProperties)}},
		{"enum values at the limit", enum(MaxEnumValues), nil},
		{"enum values past the limit", enum(MaxEnumValues + 1), []string{fmt.Sprintf("/: %d enum values in all, more than %d", MaxEnumValues+1, MaxEnumValues)}},
		{"characters past the limit", `{"type":"object","properties":{"a":{"type":"string","enum":["` + strings.Repeat("x", MaxStringChars) + `"]}},"required":["a"],"additionalProperties":false}`, []string{fmt.Sprintf("/: %d characters of names and enum values, more than %d", MaxStringChars+1, MaxStringChars)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Check(tc.schema)); diff != "" {
				t.Errorf("Check (-want +got):\n%s", diff)
			}
		})
	}
}
