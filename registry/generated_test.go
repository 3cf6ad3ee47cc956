package registry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/internal/testbox"
	"github.com/toolreg/toolreg/registry"
)

// schemaShape derives from a JSON Schema the shape toolgen should have
// generated, reading the schema as the repair once did at run time.
func schemaShape(t *testing.T, schema json.RawMessage) *registry.Shape {
	t.Helper()
	var s struct {
		Type       any                        `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Items      json.RawMessage            `json:"items"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	out := &registry.Shape{Array: s.Type == "array", Object: s.Type == "object"}
	if !out.Array && !out.Object {
		return nil
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range s.Properties {
			if !yield(k) {
				return
			}
		}
	}) {
		if sub := schemaShape(t, s.Properties[name]); sub != nil {
			out.Props = append(out.Props, registry.Prop{Name: name, Shape: *sub})
		}
	}
	if s.Items != nil {
		if items := schemaShape(t, s.Items); items != nil && (items.Items != nil || len(items.Props) > 0) {
			out.Items = items
		}
	}
	return out
}

// TestGeneratedShapes checks that the shape toolgen wrote for each tool of
// the test toolbox says what its parameters' schema says.
func TestGeneratedShapes(t *testing.T) {
	sortProps := cmp.Transformer("sortProps", func(ps []registry.Prop) []registry.Prop {
		out := slices.Clone(ps)
		slices.SortFunc(out, func(a, b registry.Prop) int { return strings.Compare(a.Name, b.Name) })
		return out
	})
	withShape := 0
	for _, e := range testbox.Toolbox().Tools() {
		want := schemaShape(t, json.RawMessage(e.Parameters))
		if len(want.Props) == 0 {
			want = nil // Nothing inside to repair: toolgen writes no shape.
		}
		if e.Shape != nil {
			withShape++
		}
		if diff := cmp.Diff(want, e.Shape, sortProps); diff != "" {
			t.Errorf("%s: Shape (-want +got):\n%s", e.Name, diff)
		}
	}
	if withShape == 0 {
		t.Error("no tool of the test toolbox has a shape: the repair is not exercised")
	}
}

// TestGeneratedRepair calls a generated tool with an array and a nested
// array sent as strings: the repair, guided by the generated shape, mends
// both, and the tool runs once with the mended arguments.
func TestGeneratedRepair(t *testing.T) {
	var logs bytes.Buffer
	reg := testbox.Toolbox().WithLogger(slog.New(slog.NewTextHandler(&logs, nil)))
	res := reg.Call(context.Background(), "tag", `{"tags":"[\"a\",\"b\"]","target":{"name":"x","labels":"[\"l\"]"}}`)
	if res.Failed() || res.Text != "a,b for x [l]" {
		t.Errorf("repaired call = %q (%v), want %q", res.Text, res.Err, "a,b for x [l]")
	}
	for _, w := range []string{`msg="tool arguments repaired" tool=tag`, `field \"tags\": decoded an array sent as a string`, `field \"target.labels\"`} {
		if !strings.Contains(logs.String(), w) {
			t.Errorf("log lacks %s:\n%s", w, logs.String())
		}
	}
	// A string that is not an array is not repaired: the decoder's error stands.
	res = reg.Call(context.Background(), "tag", `{"tags":"a,b"}`)
	if want := `Error: tag: bad arguments: field "tags": expected array, got string "a,b"`; res.Text != want {
		t.Errorf("unrepairable call = %q, want %q", res.Text, want)
	}
}

// TestGeneratedCallAllocations checks the allocations of a call of a
// generated tool through Call: the call's context, the Run that Bind
// returns and the tool's answer ("echo: " and the text), three, the text
// itself being part of the arguments, not a copy; and of its Bind and Run
// alone, the last two. A copied string is one more each.
func TestGeneratedCallAllocations(t *testing.T) {
	reg := testbox.Toolbox()
	ctx := context.Background()
	const args = `{"text":"a text that no tool changes"}`
	e, ok := reg.Lookup("echo")
	if !ok {
		t.Fatal("testbox has no echo")
	}
	for _, c := range []struct {
		name string
		want float64
		call func() (string, error)
	}{
		{"Call", 3, func() (string, error) { res := reg.Call(ctx, "echo", args); return res.Text, res.Err }},
		{"Bind and Run", 2, func() (string, error) {
			run, err := e.Bind(args)
			if err != nil {
				return "", err
			}
			return run(ctx)
		}},
	} {
		if got, err := c.call(); err != nil || got != "echo: a text that no tool changes" {
			t.Fatalf("%s: answered %q, %v", c.name, got, err)
		}
		if n := testing.AllocsPerRun(100, func() { c.call() }); n != c.want {
			t.Errorf("%s: %v allocations, want %v", c.name, n, c.want)
		}
	}
}
