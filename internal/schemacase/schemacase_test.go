package schemacase

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCasesAtLimitsOfArraysAndObjects derives cases from schemas whose
// base value needs items or properties: an array of objects with
// minItems, nested arrays, an object holding such an array. Each must give
// cases, with the valid base among them and the limits tried on both
// sides.
func TestCasesAtLimitsOfArraysAndObjects(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema string
		valid  []string // cases that must be there and accepted
		refuse []string // cases that must be there and refused
	}{
		{
			name: "array of objects, minItems 1",
			schema: `{"type":"object","properties":{"rows":{"type":"array","minItems":1,"maxItems":2,
				"items":{"type":"object","properties":{"k":{"type":"string","minLength":1}},"required":["k"],"additionalProperties":false}}},
				"required":["rows"],"additionalProperties":false}`,
			valid:  []string{`{"rows":[{"k":"a"}]}`, `{"rows":[{"k":"a"},{"k":"a"}]}`},
			refuse: []string{`{"rows":[]}`, `{"rows":[{"k":"a"},{"k":"a"},{"k":"a"}]}`, `{"rows":[{}]}`, `{"rows":[{"k":""}]}`, `{}`},
		},
		{
			name: "array of arrays, minItems 2 and 1",
			schema: `{"type":"object","properties":{"grid":{"type":"array","minItems":2,
				"items":{"type":"array","minItems":1,"items":{"type":"integer","minimum":0}}}},
				"required":["grid"],"additionalProperties":false}`,
			valid:  []string{`{"grid":[[0],[0]]}`},
			refuse: []string{`{"grid":[[0]]}`, `{"grid":[[0],[]]}`, `{"grid":[[0],[-1]]}`},
		},
		{
			name: "optional array with minItems",
			schema: `{"type":"object","properties":{"tags":{"type":"array","minItems":3,"items":{"type":"string","enum":["a","b"]}}},
				"additionalProperties":false}`,
			valid:  []string{`{}`, `{"tags":["a","a","a"]}`},
			refuse: []string{`{"tags":["a","a"]}`, `{"tags":["a","a","ax"]}`},
		},
		{
			name: "recursive, in $defs, through an array and a description",
			schema: `{"type":"object","properties":{"root":{"description":"d","$ref":"#/$defs/Node"}},"required":["root"],"additionalProperties":false,
				"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string","minLength":1},"kids":{"type":"array","maxItems":2,"items":{"$ref":"#/$defs/Node"}}},
				"required":["name"],"additionalProperties":false}}}`,
			valid:  []string{`{"root":{"name":"a"}}`, `{"root":{"kids":[{"name":"a"}],"name":"a"}}`, `{"root":{"kids":[{"kids":[{"name":"a"}],"name":"a"}],"name":"a"}}`},
			refuse: []string{`{"root":{}}`, `{"root":{"kids":[{"name":""}],"name":"a"}}`, `{"root":{"kids":[{"name":"a"},{"name":"a"},{"name":"a"}],"name":"a"}}`, `{"root":{"kids":[{"kids":[{"name":""}],"name":"a"}],"name":"a"}}`},
		},
		{
			name:   "recursive at the root, strict: anyOf with null",
			schema: `{"type":"object","properties":{"name":{"type":"string"},"not":{"description":"d","anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["name","not"],"additionalProperties":false}`,
			valid:  []string{`{"name":"","not":null}`, `{"name":"","not":{"name":"","not":null}}`, `{"name":"","not":{"name":"","not":{"name":"","not":null}}}`},
			refuse: []string{`{"name":""}`, `{"name":"","not":{"name":""}}`, `{"name":"","not":{"name":1,"not":null}}`},
		},
		{
			name: "recursive through a map",
			schema: `{"type":"object","properties":{"items":{"type":"object","additionalProperties":{"$ref":"#/$defs/Item"}}},"required":["items"],"additionalProperties":false,
				"$defs":{"Item":{"type":"object","properties":{"label":{"type":"string"},"sub":{"type":"object","additionalProperties":{"$ref":"#/$defs/Item"}}},"required":["label"],"additionalProperties":false}}}`,
			valid:  []string{`{"items":{}}`, `{"items":{"k":{"label":""}}}`, `{"items":{"k":{"label":"","sub":{"k":{"label":""}}}}}`},
			refuse: []string{`{"items":{"k":{}}}`, `{"items":{"k":{"label":"","sub":{"k":{"label":1}}}}}`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := strings.Join(strings.Fields(tc.schema), "")
			cases, err := Cases(schema)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, c := range cases {
				got[c.Args] = c.Valid
			}
			var missing []string
			for _, want := range []struct {
				args  []string
				valid bool
			}{{tc.valid, true}, {tc.refuse, false}} {
				for _, a := range want.args {
					v, ok := got[a]
					if !ok {
						missing = append(missing, a+": not derived")
					} else if v != want.valid {
						missing = append(missing, a+": judged the other way")
					}
				}
			}
			slices.Sort(missing)
			if d := cmp.Diff([]string(nil), missing); d != "" {
				t.Errorf("cases (-want +got):\n%s", d)
			}
		})
	}
}
