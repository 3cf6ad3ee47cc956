package toolcheck

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRecursiveSchemas checks how the schemas describe recursive types,
// on models built by hand: each recursive type once in $defs, named for
// its Go type and numbered when two packages' types share a name; "#" for
// the arguments struct; a struct used twice but not within itself written
// in place each time; one definition kept when two uses derived it
// differently (mutual recursion entered from both ends).
func TestRecursiveSchemas(t *testing.T) {
	str := func() *Type { return &Type{Kind: KString, Name: "string", Basic: "string"} }
	field := func(name string, typ *Type, required bool) *Field {
		return &Field{GoName: name, JSONName: name, Doc: "The " + name + ".", Required: required, Type: typ, C: NoConstraints()}
	}
	ref := func(path, name string) *Type { return &Type{Kind: KStruct, Path: path, Name: name, Ref: true} }
	node := func(path string) *Type {
		return &Type{Kind: KStruct, Path: path, Name: "Node", Recursive: true, Fields: []*Field{
			field("kids", &Type{Kind: KSlice, Elem: ref(path, "Node")}, false),
		}}
	}
	point := func() *Type {
		return &Type{Kind: KStruct, Path: "p", Name: "Point", Fields: []*Field{field("x", str(), true)}}
	}
	// Mutual recursion: A holds *B, B holds []A. From A, A is the
	// definition and B is in place; from B, the other way round.
	aFromA := &Type{Kind: KStruct, Path: "p", Name: "A", Recursive: true, Fields: []*Field{
		field("b", &Type{Kind: KPtr, Elem: &Type{Kind: KStruct, Path: "p", Name: "B", Fields: []*Field{
			field("as", &Type{Kind: KSlice, Elem: ref("p", "A")}, true),
		}}}, false),
	}}
	bFromB := &Type{Kind: KStruct, Path: "p", Name: "B", Recursive: true, Fields: []*Field{
		field("as", &Type{Kind: KSlice, Elem: &Type{Kind: KStruct, Path: "p", Name: "A", Fields: []*Field{
			field("b", &Type{Kind: KPtr, Elem: ref("p", "B")}, false),
		}}}, true),
	}}
	args := func(fields ...*Field) *Type {
		return &Type{Kind: KStruct, Path: "p", Name: "Args", Fields: fields}
	}
	nodeDef := func(ref string) string {
		return `{"type":"object","properties":{"kids":{"type":"array","description":"The kids.","items":{"$ref":"` + ref + `"}}},"additionalProperties":false}`
	}
	for _, tc := range []struct {
		name        string
		args        *Type
		plain, strc string
	}{{
		name:  "two packages' Node",
		args:  args(field("a", node("a"), true), field("b", node("b"), true)),
		plain: `{"type":"object","properties":{"a":{"description":"The a.","$ref":"#/$defs/Node"},"b":{"description":"The b.","$ref":"#/$defs/Node2"}},"required":["a","b"],"additionalProperties":false,"$defs":{"Node":` + nodeDef("#/$defs/Node") + `,"Node2":` + nodeDef("#/$defs/Node2") + `}}`,
		strc:  `{"type":"object","properties":{"a":{"description":"The a.","anyOf":[{"$ref":"#/$defs/Node"}]},"b":{"description":"The b.","anyOf":[{"$ref":"#/$defs/Node2"}]}},"required":["a","b"],"additionalProperties":false,"$defs":{"Node":{"type":"object","properties":{"kids":{"type":["array","null"],"description":"The kids.","items":{"$ref":"#/$defs/Node"}}},"required":["kids"],"additionalProperties":false},"Node2":{"type":"object","properties":{"kids":{"type":["array","null"],"description":"The kids.","items":{"$ref":"#/$defs/Node2"}}},"required":["kids"],"additionalProperties":false}}}`,
	}, {
		name:  "one Node used twice, once optional",
		args:  args(field("a", node("a"), true), field("b", &Type{Kind: KPtr, Elem: node("a")}, false)),
		plain: `{"type":"object","properties":{"a":{"description":"The a.","$ref":"#/$defs/Node"},"b":{"description":"The b.","$ref":"#/$defs/Node"}},"required":["a"],"additionalProperties":false,"$defs":{"Node":` + nodeDef("#/$defs/Node") + `}}`,
		strc:  `{"type":"object","properties":{"a":{"description":"The a.","anyOf":[{"$ref":"#/$defs/Node"}]},"b":{"description":"The b.","anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]}},"required":["a","b"],"additionalProperties":false,"$defs":{"Node":{"type":"object","properties":{"kids":{"type":["array","null"],"description":"The kids.","items":{"$ref":"#/$defs/Node"}}},"required":["kids"],"additionalProperties":false}}}`,
	}, {
		name:  "a struct used twice, not recursive, in place",
		args:  args(field("from", point(), true), field("to", point(), true)),
		plain: `{"type":"object","properties":{"from":{"description":"The from.","type":"object","properties":{"x":{"type":"string","description":"The x."}},"required":["x"],"additionalProperties":false},"to":{"description":"The to.","type":"object","properties":{"x":{"type":"string","description":"The x."}},"required":["x"],"additionalProperties":false}},"required":["from","to"],"additionalProperties":false}`,
		strc:  `{"type":"object","properties":{"from":{"description":"The from.","type":"object","properties":{"x":{"type":"string","description":"The x."}},"required":["x"],"additionalProperties":false},"to":{"description":"The to.","type":"object","properties":{"x":{"type":"string","description":"The x."}},"required":["x"],"additionalProperties":false}},"required":["from","to"],"additionalProperties":false}`,
	}, {
		name: "the arguments struct recursive",
		args: &Type{Kind: KStruct, Path: "p", Name: "Args", Recursive: true, Fields: []*Field{
			field("not", &Type{Kind: KPtr, Elem: ref("p", "Args")}, false),
		}},
		plain: `{"type":"object","properties":{"not":{"description":"The not.","$ref":"#"}},"additionalProperties":false}`,
		strc:  `{"type":"object","properties":{"not":{"description":"The not.","anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["not"],"additionalProperties":false}`,
	}, {
		name:  "mutual recursion entered from both ends",
		args:  args(field("a", aFromA, true), field("b", bFromB, true)),
		plain: `{"type":"object","properties":{"a":{"description":"The a.","$ref":"#/$defs/A"},"b":{"description":"The b.","$ref":"#/$defs/B"}},"required":["a","b"],"additionalProperties":false,"$defs":{"A":{"type":"object","properties":{"b":{"description":"The b.","type":"object","properties":{"as":{"type":"array","description":"The as.","items":{"$ref":"#/$defs/A"}}},"required":["as"],"additionalProperties":false}},"additionalProperties":false},"B":{"type":"object","properties":{"as":{"type":"array","description":"The as.","items":{"type":"object","properties":{"b":{"description":"The b.","$ref":"#/$defs/B"}},"additionalProperties":false}}},"required":["as"],"additionalProperties":false}}}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, s := range []struct{ got, want string }{{SchemaJSON(tc.args), tc.plain}, {StrictSchemaJSON(tc.args), tc.strc}} {
				if s.want == "" {
					continue
				}
				var got, want any
				if err := json.Unmarshal([]byte(s.got), &got); err != nil {
					t.Fatalf("schema is not JSON: %v\n%s", err, s.got)
				}
				if err := json.Unmarshal([]byte(s.want), &want); err != nil {
					t.Fatalf("want is not JSON: %v", err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("schema (-want +got):\n%s\n%s", diff, s.got)
				}
			}
		})
	}
}
