package chat

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRestoreContinuesAConversation(t *testing.T) {
	f := newFake(t, answer("Paris, still."))
	conv := &Conversation{Client: f.client(nil), System: "Be brief."}
	kept := []Message{
		{Role: RoleUser, Content: "Capital of France?"},
		{Role: RoleAssistant, Content: "Paris."},
	}
	conv.Restore(kept)
	kept[1].Content = "changed after Restore"
	if _, err := conv.Turn(context.Background(), "Sure?"); err != nil {
		t.Fatal(err)
	}
	want := []any{
		map[string]any{"role": "system", "content": "Be brief."},
		map[string]any{"role": "user", "content": "Capital of France?"},
		map[string]any{"role": "assistant", "content": "Paris."},
		map[string]any{"role": "user", "content": "Sure?"},
	}
	if diff := cmp.Diff(want, f.requests()[0].messages()); diff != "" {
		t.Errorf("messages sent (-want +got):\n%s", diff)
	}
	if got := len(conv.Messages()); got != 4 {
		t.Errorf("%d messages after the turn, want 4", got)
	}
}
