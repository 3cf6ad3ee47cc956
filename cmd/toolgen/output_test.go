package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// wherePoint and tempCelsius mirror the result types of the found tools
// where and temp (testdata/mod/found/toolbox), which write themselves.
type wherePoint struct{ X, Y int }

func (p wherePoint) MarshalJSON() ([]byte, error) { return json.Marshal([]int{p.X, p.Y}) }

type tempCelsius float64

func (tempCelsius) MarshalText() ([]byte, error) { return []byte("20C"), nil }

// TestOutputSchemaAsEncoded checks that a tool's output schema describes
// what encoding/json writes of its result: a time.Duration is its
// nanoseconds, a nil slice, map or pointer is null, and a type with MarshalJSON or MarshalText writes what the
// method says, which its fields or kind do not describe, so such a result
// has no output schema rather than a wrong one.
func TestOutputSchemaAsEncoded(t *testing.T) {
	t.Parallel()
	res, err := generated(t, "found")
	if err != nil {
		t.Fatal(err)
	}
	answers := map[string]any{
		"took": struct {
			Took  time.Duration   `json:"took"`
			Steps []time.Duration `json:"steps"`
		}{time.Second, []time.Duration{time.Millisecond}},
		"where": struct {
			At wherePoint `json:"at"`
		}{wherePoint{1, 2}},
		"temp": struct {
			Now tempCelsius `json:"now"`
		}{20},
		// encoding/json writes a nil slice, map or pointer as null.
		"hits": struct {
			Hits []struct {
				Title string   `json:"title"`
				Tags  []string `json:"tags"`
			} `json:"hits"`
			Best   *struct{}          `json:"best"`
			Scores map[string]float64 `json:"scores"`
			Ranks  []*int             `json:"ranks"`
			Next   *string            `json:"next"`
			Groups map[string][]int   `json:"groups"`
		}{Hits: []struct {
			Title string   `json:"title"`
			Tags  []string `json:"tags"`
		}{{Title: "t"}}, Ranks: []*int{nil}, Groups: map[string][]int{"g": nil}},
	}
	for _, tl := range res.Tools {
		answer, ok := answers[tl.Name]
		if !ok {
			continue
		}
		delete(answers, tl.Name)
		if tl.Output == "" {
			continue // no schema: nothing to contradict
		}
		b, err := json.Marshal(answer)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tl.Output))
		if err != nil {
			t.Fatalf("%s: output schema is not JSON: %v", tl.Name, err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource("mem:///out.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("mem:///out.json")
		if err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s answers %s, which its output schema %s refuses: %v", tl.Name, b, tl.Output, err)
		}
	}
	for name := range answers {
		t.Errorf("tool %s was not generated", name)
	}
}
