package toolreg

import (
	"encoding/json"
	"fmt"
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

// candidates are values tried for every property of every tool.
var candidates = []string{
	`"x"`, `""`, `"celsius"`, `"fahrenheit"`, `"kelvin"`, `"https://example.com"`, `"Europe/Berlin"`,
	`"/"`, `"2+2"`, `"日本語"`, `"` + strings.Repeat("a", 5000) + `"`,
	`0`, `1`, `3`, `10`, `16`, `17`, `-1`, `1.5`, `1e1`, `3.0`, `-0`, `9007199254740993`,
	`true`, `false`, `null`, `[]`, `{}`, `["a"]`, `[1]`,
}

// TestDecoderAgreesWithSchema tries each tool's generated decoder on
// arguments built from the candidates, one property at a time over a valid
// base, and checks that it accepts exactly what the tool's JSON Schema
// accepts.
func TestDecoderAgreesWithSchema(t *testing.T) {
	for _, e := range Toolbox().Tools() {
		t.Run(e.Name, func(t *testing.T) {
			sch := compileSchema(t, e.Name, e.Parameters)
			var s struct {
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			if err := json.Unmarshal([]byte(e.Parameters), &s); err != nil {
				t.Fatal(err)
			}
			valid := func(args string) bool {
				v, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
				return err == nil && sch.Validate(v) == nil
			}
			// A valid base: each required property with the first candidate
			// the schema takes for it.
			base := map[string]string{}
			for _, name := range s.Required {
				for _, c := range candidates {
					if valid(objectText(mergeArg(base, name, c))) {
						base[name] = c
						break
					}
				}
				if _, ok := base[name]; !ok {
					t.Fatalf("no candidate value satisfies required property %q", name)
				}
			}
			inputs := []string{objectText(base), `{}`, `null`, `[]`, `"{}"`, objectText(base) + ` {}`, `{"no_such_field":1}`}
			for name := range s.Properties {
				for _, c := range candidates {
					inputs = append(inputs, objectText(mergeArg(base, name, c)))
				}
			}
			for name := range s.Required {
				without := map[string]string{}
				for k, v := range base {
					if k != s.Required[name] {
						without[k] = v
					}
				}
				inputs = append(inputs, objectText(without))
			}
			if !valid(objectText(base)) || e.Check([]byte(objectText(base))) != nil {
				t.Fatalf("base arguments %s are not accepted", objectText(base))
			}
			for _, in := range inputs {
				want := valid(in)
				err := e.Check([]byte(in))
				if got := err == nil; got != want {
					t.Errorf("arguments %.200s: schema accepts: %v, decoder accepts: %v (%v)", in, want, got, err)
				}
			}
		})
	}
}

func mergeArg(base map[string]string, name, value string) map[string]string {
	m := map[string]string{name: value}
	for k, v := range base {
		if k != name {
			m[k] = v
		}
	}
	return m
}

// objectText writes a JSON object with its keys in a fixed order.
func objectText(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", k, m[k])
	}
	b.WriteByte('}')
	return b.String()
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
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
		err := e.Check([]byte(in))
		if err == nil {
			t.Errorf("%s: accepted, want %q", in, want)
			continue
		}
		if diff := cmp.Diff(want, err.Error()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", in, diff)
		}
	}
}
