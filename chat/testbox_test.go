package chat

import (
	"context"
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
