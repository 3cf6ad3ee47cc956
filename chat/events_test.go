package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// eventTurn runs a turn with a text delta, a successful and a failed tool
// call, a retry and usage, sending its events to sink.
func eventTurn(t *testing.T, sink Sink) {
	t.Helper()
	f := newFake(t,
		jsonReply(503, `{"error":{"message":"overloaded"}}`, "Retry-After", "1"),
		sse(text("Checking"),
			callStart(0, "call_1", "echo"), callArgs(0, `{"text":"line one\nline two"}`),
			callStart(1, "call_2", "nope"), callArgs(1, `{}`),
			finish("tool_calls"), usage(10, 5)),
		sse(text("Done."), finish("stop"), usage(20, 2)),
	)
	conv := &Conversation{Client: f.client(nil), Tools: echoTools(), Sink: sink}
	if _, err := conv.Turn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
}

func TestJSONLines(t *testing.T) {
	var buf bytes.Buffer
	eventTurn(t, JSONLines(&buf))
	noKey(t, "the events", buf.String())
	var got []map[string]any
	for _, line := range readLines(buf.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line is not one JSON object: %q", line)
		}
		if _, ok := m["duration_ms"].(float64); ok {
			m["duration_ms"] = "set"
		}
		got = append(got, m)
	}
	// Results come as the calls finish: put them in call order.
	if len(got) > 6 && got[5]["id"] == "call_2" {
		got[5], got[6] = got[6], got[5]
	}
	want := mustJSON(t, `[
		{"type":"retry","step":1,"attempt":1,"duration_ms":"set","error":"HTTP 503 Service Unavailable: overloaded"},
		{"type":"text","step":1,"text":"Checking"},
		{"type":"usage","step":1,"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}},
		{"type":"tool_call","step":1,"id":"call_1","tool":"echo","args":"{\"text\":\"line one\\nline two\"}"},
		{"type":"tool_call","step":1,"id":"call_2","tool":"nope","args":"{}"},
		{"type":"tool_result","step":1,"id":"call_1","tool":"echo","args":"{\"text\":\"line one\\nline two\"}","result":"line one\nline two","duration_ms":"set"},
		{"type":"tool_result","step":1,"id":"call_2","tool":"nope","args":"{}","result":"Error: unknown tool \"nope\"; available tools: add, echo","error":"unknown tool \"nope\"; available tools: add, echo","duration_ms":"set"},
		{"type":"text","step":2,"text":"Done."},
		{"type":"usage","step":2,"usage":{"prompt_tokens":20,"completion_tokens":2,"total_tokens":22}},
		{"type":"answer","step":2,"text":"Done."}]`)
	var gotAny []any
	for _, m := range got {
		gotAny = append(gotAny, m)
	}
	if diff := cmp.Diff(want, any(gotAny)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestEventJSON(t *testing.T) {
	b, err := json.Marshal(Event{Type: EventToolResult, CallID: "c", Tool: "t", Result: "r", Duration: 1500 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"type":"tool_result","id":"c","tool":"t","result":"r","duration_ms":1.5}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestJSONLinesEscapesTerminalControls: the events' strings are JSON,
// whose encoder leaves the C1 controls (U+0080–U+009F) and the controls of
// bidirectional text as they are, and a terminal that reads UTF-8 C1 acts
// on them: a model's text "\u009d52;c;…\u009c" wrote the clipboard of
// whoever watched agent -json on a terminal, and "\u009b2J" cleared the
// screen. They are written as \u escapes, which decode to the same text.
func TestJSONLinesEscapesTerminalControls(t *testing.T) {
	text := "a\u009b2J \u009d52;c;Y3VybA==\u009c b\u202e\u2066c\u2069 é – \u0080\u009f"
	var buf bytes.Buffer
	JSONLines(&buf)(Event{Type: EventText, Text: text})
	out := buf.String()
	for _, r := range out {
		if r >= 0x80 && r < 0xa0 || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' {
			t.Fatalf("the event holds %U as it is: %q", r, out)
		}
	}
	var e Event
	if err := json.Unmarshal(buf.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(text, e.Text); diff != "" {
		t.Errorf("decoded text (-want +got):\n%s", diff)
	}
}
