package registry

import (
	"flag"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/jsonarg"
)

// repairTestShape has a property of each kind that repairArgs reads, as
// toolgen would describe (or leave out) each of these JSON Schemas:
//
//	"name":     {"type":"string"}                                  left out
//	"count":    {"type":"integer"}                                 left out
//	"tags":     {"type":"array","items":{"type":"string"}}
//	"filter":   {"type":"object","properties":{
//	              "tags":{"type":"array",…},
//	              "range":{"type":"object","properties":{"min":{"type":"number"}}}}}
//	"rows":     {"type":"array","items":{"type":"object","properties":{"labels":{"type":"array"}}}}
//	"matrix":   an array of arrays of the objects of rows
//	"either":   {"type":["array","string"]}                        neither array nor object
//	"shape":    {"type":["array","object"]}
//	"free":     {"type":"object"}
//	"anything": true                                               neither array nor object
var repairTestShape = &Shape{Object: true, Props: []Prop{
	{Name: "tags", Shape: Shape{Array: true}},
	{Name: "filter", Shape: Shape{Object: true, Props: []Prop{
		{Name: "tags", Shape: Shape{Array: true}},
		{Name: "range", Shape: Shape{Object: true}},
	}}},
	{Name: "rows", Shape: Shape{Array: true, Items: &rowShape}},
	{Name: "matrix", Shape: Shape{Array: true, Items: &Shape{Array: true, Items: &rowShape}}},
	{Name: "either", Shape: Shape{}},
	{Name: "shape", Shape: Shape{Array: true, Object: true}},
	{Name: "free", Shape: Shape{Object: true}},
	{Name: "anything", Shape: Shape{}},
}}

var rowShape = Shape{Object: true, Props: []Prop{{Name: "labels", Shape: Shape{Array: true}}}}

func TestRepairArgs(t *testing.T) {
	tests := []struct {
		name  string
		args  string
		want  string // "" when nothing is repaired
		notes []string
	}{
		// Repaired.
		{
			name:  "array sent as a string",
			args:  `{"tags":"[\"a\",\"b\"]"}`,
			want:  `{"tags":["a","b"]}`,
			notes: []string{`field "tags": decoded an array sent as a string`},
		},
		{
			name:  "object sent as a string",
			args:  `{"filter":"{\"tags\":[\"x\"]}"}`,
			want:  `{"filter":{"tags":["x"]}}`,
			notes: []string{`field "filter": decoded an object sent as a string`},
		},
		{
			name:  "key order, white space and other fields kept byte for byte",
			args:  "{ \"name\" : \"a\\u00e9\",\n  \"tags\" : \"[1, 2]\" ,\"count\":1e2 }\n",
			want:  "{ \"name\" : \"a\\u00e9\",\n  \"tags\" : [1, 2] ,\"count\":1e2 }\n",
			notes: []string{`field "tags": decoded an array sent as a string`},
		},
		{
			name:  "white space around the content is trimmed",
			args:  `{"tags":" \n[\"a\"]\t "}`,
			want:  `{"tags":["a"]}`,
			notes: []string{`field "tags": decoded an array sent as a string`},
		},
		{
			name:  "nested property",
			args:  `{"filter":{"tags":"[\"x\"]","range":"{\"min\":1}"}}`,
			want:  `{"filter":{"tags":["x"],"range":{"min":1}}}`,
			notes: []string{`field "filter.tags": decoded an array sent as a string`, `field "filter.range": decoded an object sent as a string`},
		},
		{
			name:  "nested property inside a repaired object",
			args:  `{"filter":"{\"tags\":\"[\\\"x\\\"]\"}"}`,
			want:  `{"filter":{"tags":["x"]}}`,
			notes: []string{`field "filter": decoded an object sent as a string`, `field "filter.tags": decoded an array sent as a string`},
		},
		{
			name:  "property of the objects of an array",
			args:  `{"rows":[{"labels":"[1]"},{"labels":[2]},{"labels":"[3]"}]}`,
			want:  `{"rows":[{"labels":[1]},{"labels":[2]},{"labels":[3]}]}`,
			notes: []string{`field "rows[0].labels": decoded an array sent as a string`, `field "rows[2].labels": decoded an array sent as a string`},
		},
		{
			name:  "property of the objects of an array of arrays",
			args:  `{"matrix":[[],[{"labels":"[]"}]]}`,
			want:  `{"matrix":[[],[{"labels":[]}]]}`,
			notes: []string{`field "matrix[1][0].labels": decoded an array sent as a string`},
		},
		{
			name:  "an array or an object: either content",
			args:  `{"shape":"{\"a\":1}","tags":"[]"}`,
			want:  `{"shape":{"a":1},"tags":[]}`,
			notes: []string{`field "shape": decoded an object sent as a string`, `field "tags": decoded an array sent as a string`},
		},
		{
			name:  "object without properties in the schema",
			args:  `{"free":"{\"k\":[1,{\"z\":null}]}"}`,
			want:  `{"free":{"k":[1,{"z":null}]}}`,
			notes: []string{`field "free": decoded an object sent as a string`},
		},
		{
			name:  "whole arguments sent as a string",
			args:  `"{\"name\":\"a\",\"count\":2}"`,
			want:  `{"name":"a","count":2}`,
			notes: []string{"arguments: decoded an object sent as a string"},
		},
		{
			name:  "whole arguments sent as a string, with white space",
			args:  " \"  {\\\"name\\\":\\\"a\\\"}\\n\" \n",
			want:  `{"name":"a"}`,
			notes: []string{"arguments: decoded an object sent as a string"},
		},
		{
			name: "whole arguments sent as a string, holding an array sent as a string",
			args: `"{\"tags\":\"[\\\"a\\\"]\"}"`,
			want: `{"tags":["a"]}`,
			notes: []string{
				"arguments: decoded an object sent as a string",
				`field "tags": decoded an array sent as a string`,
			},
		},
		{
			name:  "unknown fields are left for the decoder to report",
			args:  `{"nope":"[1]","tags":"[1]"}`,
			want:  `{"nope":"[1]","tags":[1]}`,
			notes: []string{`field "tags": decoded an array sent as a string`},
		},
		{
			name:  "content items of the wrong type are left for the decoder to report",
			args:  `{"tags":"[1,{}]"}`,
			want:  `{"tags":[1,{}]}`,
			notes: []string{`field "tags": decoded an array sent as a string`},
		},
		{
			name:  "escapes in the content",
			args:  `{"tags":"[\"\\u00e9\\n\", \"\u00e9\"]"}`,
			want:  `{"tags":["\u00e9\n", "é"]}`,
			notes: []string{`field "tags": decoded an array sent as a string`},
		},

		// Not repaired.
		{name: "valid arguments", args: `{"name":"a","tags":["x"],"filter":{"tags":[]}}`},
		{name: "a string property holding an array", args: `{"name":"[1,2]"}`},
		{name: "a string property holding an object", args: `{"name":"{\"a\":1}"}`},
		{name: "an array or a string property holding an array", args: `{"either":"[1,2]"}`},
		{name: "a string that is not valid JSON", args: `{"tags":"[1,2"}`},
		{name: "a string that is JSON with trailing data", args: `{"tags":"[1] [2]"}`},
		{name: "a plain string for an array", args: `{"tags":"a, b"}`},
		{name: "a number sent as a string", args: `{"count":"3"}`},
		{name: "an object sent for an array", args: `{"tags":"{\"a\":1}"}`},
		{name: "an array sent for an object", args: `{"filter":"[1]"}`},
		{name: "null sent as a string", args: `{"tags":"null"}`},
		{name: "an empty string", args: `{"tags":""}`},
		{name: "a string twice encoded", args: `{"tags":"\"[1]\""}`},
		{name: "a property without a type", args: `{"anything":"[1]"}`},
		{name: "a key given twice", args: `{"tags":"[1]","tags":"[2]"}`},
		{name: "an element of an array sent as a string", args: `{"rows":["{\"labels\":[1]}"]}`},
		{name: "invalid JSON", args: `{"tags":"[1]"`},
		{name: "trailing garbage", args: `{"tags":"[1]"} x`},
		{name: "empty", args: ``},
		{name: "null", args: `null`},
		{name: "an array", args: `[{"tags":"[1]"}]`},
		{name: "whole arguments: a string holding an array", args: `"[1]"`},
		{name: "whole arguments: a string that is not JSON", args: `"{name: a}"`},
		{name: "whole arguments: a string holding a string", args: `"\"{}\""`},
		{name: "a byte order mark", args: "\xef\xbb\xbf{\"tags\":\"[1]\"}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fixed, notes, ok := repairArgs(repairTestShape, []byte(tt.args))
			if tt.want == "" {
				if ok || fixed != nil || notes != nil {
					t.Errorf("repairArgs(%s) = %s, %q, %v; want nothing repaired", tt.args, fixed, notes, ok)
				}
				return
			}
			if !ok {
				t.Fatalf("repairArgs(%s): nothing repaired, want %s", tt.args, tt.want)
			}
			if diff := cmp.Diff(tt.want, string(fixed)); diff != "" {
				t.Errorf("repairArgs(%s) arguments (-want +got):\n%s", tt.args, diff)
			}
			if diff := cmp.Diff(tt.notes, notes); diff != "" {
				t.Errorf("repairArgs(%s) notes (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

// TestRepairArgsNilShape checks that a tool without a shape (written by
// hand, say) gets only its whole arguments decoded from a string.
func TestRepairArgsNilShape(t *testing.T) {
	if fixed, notes, ok := repairArgs(nil, []byte(`{"tags":"[1]"}`)); ok {
		t.Errorf("repaired a property to %s (%q), want nothing repaired", fixed, notes)
	}
	fixed, notes, ok := repairArgs(nil, []byte(`"{\"tags\":\"[1]\"}"`))
	if !ok || string(fixed) != `{"tags":"[1]"}` {
		t.Errorf("whole arguments: %s, %q, %v; want them decoded, the property left", fixed, notes, ok)
	}
}

// FuzzRepair checks that repairArgs never panics, that whatever it repairs
// becomes valid JSON with a note per repair, and that a repair is final:
// repairing the repaired arguments again changes nothing.
func FuzzRepair(f *testing.F) {
	seeds := []string{
		`{"tags":"[\"a\"]"}`, `{"filter":"{\"tags\":\"[1]\"}"}`, `"{\"rows\":[{\"labels\":\"[]\"}]}"`,
		`{"matrix":[[{"labels":"[1]"}]]}`, `{"name":"[1]","count":"3"}`, `{"tags":"[1]","tags":"[2]"}`,
		`{"shape":"{}"}`, `"` + strings.Repeat("[", 1000) + `"`,
	}
	if f := flag.Lookup("test.fuzz"); f == nil || f.Value.String() == "" { // Too big to fuzz with.
		deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
		seeds = append(seeds, `{"tags":"`+deep+`"}`, `"{\"tags\":\"`+deep+`\"}"`)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		fixed, notes, ok := repairArgs(repairTestShape, []byte(args))
		if !ok {
			if fixed != nil || notes != nil {
				t.Fatalf("repairArgs(%q) = %q, %q, false", args, fixed, notes)
			}
			return
		}
		if !jsonarg.Valid(fixed) || len(notes) == 0 { // No depth limit, unlike encoding/json.
			t.Fatalf("repairArgs(%q) = %q, %q: want valid JSON and notes", args, fixed, notes)
		}
		if again, notes, ok := repairArgs(repairTestShape, fixed); ok {
			t.Fatalf("repairArgs(%q) = %q, which is repaired again to %q (%q)", args, fixed, again, notes)
		}
	})
}
