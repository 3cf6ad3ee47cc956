package chat

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/internal/testbox"
)

// TestGeneratedTools runs a turn against a generated registry (the test
// toolbox), so that what the model reads in its tool messages is what the
// runtime writes: a text answer, a struct encoded as JSON, an array sent as
// a string and repaired, a tool's own error, bad arguments and an unknown
// tool.
func TestGeneratedTools(t *testing.T) {
	f := newFake(t,
		sse(
			callStart(0, "c1", "echo"), callArgs(0, `{"text":"hi"}`),
			callStart(1, "c2", "count"), callArgs(1, `{"text":"a b c"}`),
			callStart(2, "c3", "tag"), callArgs(2, `{"tags":"[\"x\",\"y\"]"}`),
			callStart(3, "c4", "fail"), callArgs(3, `{}`),
			callStart(4, "c5", "count"), callArgs(4, `{"txt":1}`),
			callStart(5, "c6", "nope"), callArgs(5, `{}`),
			finish("tool_calls")),
		answer("done"),
	)
	conv := &Conversation{Client: f.client(nil), Tools: testbox.Toolbox()}
	got, err := conv.Turn(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if got != "done" {
		t.Errorf("answer = %q, want %q", got, "done")
	}
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	var results []string
	for _, m := range reqs[1].messages() {
		if m, ok := m.(map[string]any); ok && m["role"] == "tool" {
			results = append(results, m["content"].(string))
		}
	}
	want := []string{
		"echo: hi",
		`{"words":3,"characters":5}`,
		"x,y",
		"Error: fail: disk on fire",
		`Error: count: bad arguments: field "txt": unknown field; expected one of "text"`,
		`Error: unknown tool "nope"; available tools: count, echo, fail, tag`,
	}
	if diff := cmp.Diff(want, results); diff != "" {
		t.Errorf("tool messages (-want +got):\n%s", diff)
	}
}

// TestStrictConversation runs a turn in strict mode against the fake
// server: the request carries the strict schemas, the model sends null for
// the optional fields it leaves out, as strict mode makes it do, and the
// turn completes with the tools' answers, the defaults applied. A null
// where the strict schema allows none is still refused, for the model to
// correct.
func TestStrictConversation(t *testing.T) {
	f := newFake(t,
		sse(
			callStart(0, "c1", "tag"), callArgs(0, `{"tags":["x","y"],"target":null}`),
			callStart(1, "c2", "tag"), callArgs(1, `{"tags":["x"],"target":{"name":"box","labels":null}}`),
			callStart(2, "c3", "echo"), callArgs(2, `{"text":null}`),
			finish("tool_calls")),
		answer("done"),
	)
	conv := &Conversation{Client: f.client(nil), Tools: testbox.Toolbox().WithStrict(true)}
	got, err := conv.Turn(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if got != "done" {
		t.Errorf("answer = %q, want %q", got, "done")
	}
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	var sent struct {
		Tools []struct {
			Function struct {
				Name       string         `json:"name"`
				Strict     bool           `json:"strict"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0].Raw, &sent); err != nil {
		t.Fatal(err)
	}
	for _, tl := range sent.Tools {
		if !tl.Function.Strict {
			t.Errorf("tool %s was sent without strict", tl.Function.Name)
		}
		if tl.Function.Name == "tag" {
			if diff := cmp.Diff([]any{"tags", "target"}, tl.Function.Parameters["required"]); diff != "" {
				t.Errorf("tag's strict schema: required (-want +got):\n%s", diff)
			}
		}
	}
	var results []string
	for _, m := range reqs[1].messages() {
		if m, ok := m.(map[string]any); ok && m["role"] == "tool" {
			results = append(results, m["content"].(string))
		}
	}
	want := []string{
		"x,y",
		"x for box []",
		`Error: echo: bad arguments: field "text": expected string, got null (null is not accepted: send a value, or leave an optional field out)`,
	}
	if diff := cmp.Diff(want, results); diff != "" {
		t.Errorf("tool messages (-want +got):\n%s", diff)
	}
}
