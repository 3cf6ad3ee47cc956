package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sashabaranov/go-openai"
	"github.com/toolreg/toolreg/registry"
)

// fixedTools answers each tool with a fixed result, as a registry.ToolSet that
// measures its own calls would.
type fixedTools map[string]registry.Result

func (fixedTools) Specs() []openai.Tool { return nil }

func (f fixedTools) Call(_ context.Context, name, _ string) registry.Result { return f[name] }

// TestToolResultsAsGiven runs three calls in one step and checks their
// tool messages, result events and log records: a result is passed on
// with the duration the ToolSet measured, and a failure whose text does not
// begin "Error:", breaking the ToolSet contract, gets the text of its error.
func TestToolResultsAsGiven(t *testing.T) {
	tools := fixedTools{
		"ok":     {Text: "fine", Duration: 7 * time.Millisecond},
		"failed": {Text: "Error: the tool's own words", Err: errBoom, Duration: 3 * time.Millisecond},
		"broken": {Text: "oops", Err: errBoom, Duration: 5 * time.Millisecond},
	}
	f := newFake(t,
		sse(callStart(0, "call_1", "ok"), callArgs(0, `{}`),
			callStart(1, "call_2", "failed"), callArgs(1, `{}`),
			callStart(2, "call_3", "broken"), callArgs(2, `{}`), finish("tool_calls")),
		answer("done"))
	c := f.client(nil)
	var buf bytes.Buffer
	c.Logger = slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var ev events
	conv := &Conversation{Client: c, Tools: tools, Sink: ev.sink}
	if _, err := conv.Turn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}

	wantMsgs := mustJSON(t, `[
		{"role":"tool","content":"fine","tool_call_id":"call_1"},
		{"role":"tool","content":"Error: the tool's own words","tool_call_id":"call_2"},
		{"role":"tool","content":"Error: boom","tool_call_id":"call_3"}]`)
	if diff := cmp.Diff(wantMsgs, any(f.requests()[1].messages()[2:])); diff != "" {
		t.Errorf("tool messages (-want +got):\n%s", diff)
	}

	byID := map[string]Event{}
	for _, e := range ev.ofType(EventToolResult) {
		byID[e.CallID] = e
	}
	wantEvents := map[string]Event{
		"call_1": {Type: EventToolResult, Step: 1, CallID: "call_1", Tool: "ok", Args: "{}", Result: "fine", Duration: 7 * time.Millisecond},
		"call_2": {Type: EventToolResult, Step: 1, CallID: "call_2", Tool: "failed", Args: "{}", Result: "Error: the tool's own words", Error: "boom", Duration: 3 * time.Millisecond},
		"call_3": {Type: EventToolResult, Step: 1, CallID: "call_3", Tool: "broken", Args: "{}", Result: "Error: boom", Error: "boom", Duration: 5 * time.Millisecond},
	}
	if diff := cmp.Diff(wantEvents, byID); diff != "" {
		t.Errorf("tool result events (-want +got):\n%s", diff)
	}

	type toolLog struct {
		Tool     string        `json:"tool"`
		ID       string        `json:"id"`
		Duration time.Duration `json:"duration"`
		Failed   bool          `json:"failed"`
	}
	logs := map[string]toolLog{}
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var rec struct {
			Msg string `json:"msg"`
			toolLog
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("log line %s: %v", line, err)
		}
		if rec.Msg == "chat: tool call" {
			logs[rec.ID] = rec.toolLog
		}
	}
	wantLogs := map[string]toolLog{
		"call_1": {Tool: "ok", ID: "call_1", Duration: 7 * time.Millisecond},
		"call_2": {Tool: "failed", ID: "call_2", Duration: 3 * time.Millisecond, Failed: true},
		"call_3": {Tool: "broken", ID: "call_3", Duration: 5 * time.Millisecond, Failed: true},
	}
	if diff := cmp.Diff(wantLogs, logs); diff != "" {
		t.Errorf("tool call log records (-want +got):\n%s", diff)
	}
}
