package chat

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUsageSums adds and subtracts usages field by field.
func TestUsageSums(t *testing.T) {
	u := Usage{PromptTokens: 30, CompletionTokens: 7, TotalTokens: 37}
	v := Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}
	if diff := cmp.Diff(Usage{PromptTokens: 20, CompletionTokens: 2, TotalTokens: 22}, u.sub(v)); diff != "" {
		t.Errorf("sub (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Usage{PromptTokens: 40, CompletionTokens: 12, TotalTokens: 52}, u.Add(v)); diff != "" {
		t.Errorf("Add (-want +got):\n%s", diff)
	}
}

// TestTelemetrySecondTurnTokens records on a second turn's span the tokens
// of that turn only, not those of the conversation so far.
func TestTelemetrySecondTurnTokens(t *testing.T) {
	f := newFake(t, sse(text("one"), finish("stop"), usage(10, 5)), sse(text("two"), finish("stop"), usage(20, 2)))
	rec := newTelemetryRecorder(false)
	conv := &Conversation{Client: f.client(nil), Telemetry: rec.p}
	for _, q := range []string{"a", "b"} {
		if _, err := conv.Turn(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, s := range rec.spans.Ended() {
		if s.Name() != "invoke_agent" {
			continue
		}
		m := map[string]string{}
		for _, a := range s.Attributes() {
			m[string(a.Key)] = a.Value.String()
		}
		got = append(got, m["gen_ai.usage.input_tokens"]+" "+m["gen_ai.usage.output_tokens"])
	}
	if diff := cmp.Diff([]string{"10 5", "20 2"}, got); diff != "" {
		t.Errorf("turn spans' input and output tokens (-want +got):\n%s", diff)
	}
}
