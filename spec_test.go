package toolreg

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileSchema compiles a tool's parameters schema as draft 2020-12, which
// also validates it against the draft's meta-schema.
func compileSchema(t *testing.T, name, schema string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatalf("%s: parameters are not JSON: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "mem:///" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: parameters are not a valid JSON Schema (draft 2020-12): %v", name, err)
	}
	return sch
}

var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// TestSpecTable checks the spec table sent to the model: the OpenAI
// function-tool shape, valid names, and parameters that are valid JSON
// Schema, judged by an independent validator.
func TestSpecTable(t *testing.T) {
	reg := Toolbox()
	specs := reg.Specs()
	if len(specs) == 0 {
		t.Fatal("no tools in the spec table")
	}
	b, err := json.Marshal(specs)
	if err != nil {
		t.Fatal(err)
	}
	var wire []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		t.Fatal(err)
	}
	entries := reg.Tools()
	for i, w := range wire {
		e := entries[i]
		if w.Type != "function" || w.Function.Name != e.Name || w.Function.Description != e.Description || w.Function.Description == "" {
			t.Errorf("spec %d = %+v, want a function named %q with the entry's description", i, w, e.Name)
		}
		if !toolNameRE.MatchString(w.Function.Name) {
			t.Errorf("tool name %q does not match %s", w.Function.Name, toolNameRE)
		}
		if string(w.Function.Parameters) != e.Parameters {
			t.Errorf("%s: spec parameters differ from the entry's:\n%s\n%s", e.Name, w.Function.Parameters, e.Parameters)
		}
		compileSchema(t, e.Name, e.Parameters)
		var top struct {
			Type                 string         `json:"type"`
			Properties           map[string]any `json:"properties"`
			AdditionalProperties *bool          `json:"additionalProperties"`
		}
		if err := json.Unmarshal([]byte(e.Parameters), &top); err != nil {
			t.Fatal(err)
		}
		if top.Type != "object" || top.Properties == nil || top.AdditionalProperties == nil || *top.AdditionalProperties {
			t.Errorf("%s: parameters %s: want an object with properties and additionalProperties false", e.Name, e.Parameters)
		}
	}
}

// TestArgumentErrorsNameTheField checks the messages a model reads when
// its arguments are wrong.
func TestArgumentErrorsNameTheField(t *testing.T) {
	e, ok := Toolbox().Lookup("word_count")
	if !ok {
		t.Fatal("no word_count tool")
	}
	tests := map[string]string{
		`{"text":5}`:              `field "text": expected string, got number 5`,
		`{}`:                      `field "text": required, but missing`,
		`{"text":"a","x":1}`:      `field "x": unknown field; expected one of "text"`,
		`{"text":"a","text":"b"}`: `field "text": given more than once`,
		`{"text":"a"} x`:          `invalid JSON at offset 13: unexpected data after the arguments object`,
		`{"text":null}`:           `field "text": expected string, got null (null is not accepted: send a value, or leave an optional field out)`,
		`{"text":"a`:              `invalid JSON at offset 10: unterminated string`,
	}
	for in, want := range tests {
		err := checkArgs(e, []byte(in))
		if err == nil {
			t.Errorf("%s: accepted, want %q", in, want)
			continue
		}
		if diff := cmp.Diff(want, err.Error()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", in, diff)
		}
	}
}
