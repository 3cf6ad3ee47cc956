package chat

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestFreshIDsOnOpenArguments: an endpoint that sends a fresh id on every
// delta of a call whose arguments never close costs time in proportion
// to its stream's size. Each delta made the assembler validate all the arguments
// so far: 8,000 deltas (2.6 MB) took 7.4 s, 4,000 took 1.9 s (quadratic;
// 16 MiB, the default bound of a stream, would take minutes of a core).
func TestFreshIDsOnOpenArguments(t *testing.T) {
	const n = 4000
	piece := strings.Repeat("x", 90)
	var b strings.Builder
	b.WriteString("data: " + callStart(0, "c0", "echo") + "\n\n")
	b.WriteString("data: " + callArgs(0, `{"a":"`) + "\n\n")
	for i := range n {
		b.WriteString("data: " + chunk(fmt.Sprintf(`{"tool_calls":[{"index":0,"id":"x%d","function":{"arguments":%q}}]}`, i, piece)) + "\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	body := b.String()
	s := &streamReader{client: &Client{}, touch: func() {}, sink: func(Event) {}}
	resp, err := s.read(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(resp.Message.ToolCalls); got != 1 {
		t.Fatalf("%d calls, want 1", got)
	}
	if got := len(resp.Message.ToolCalls[0].Function.Arguments); got != 6+n*len(piece) {
		t.Errorf("arguments of %d bytes, want %d", got, 6+n*len(piece))
	}
	read := 0
	for _, p := range s.calls.calls {
		read += p.shape.validated
	}
	if read > len(body) {
		t.Errorf("reading a stream of %d bytes validated %d bytes of arguments", len(body), read)
	}
}

// FuzzArgsShape: whether arguments fed piece by piece are whole is what
// json.Valid says of them, at every piece.
func FuzzArgsShape(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":"}"} `, `[1,2]x`, `"\"}"`, `{"a":"\\"}`, ` {} `, `12`, `true `, `{]`, `{"a":[}`, `{"a":tru}`, `{}{}`, `"a`, `{"\u00e9":"é"}`} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, args string, step uint8) {
		if len(args) > maxScalarArgs {
			return
		}
		k := int(step%7) + 1
		p := &partialCall{name: "x"}
		for i := 0; i < len(args); i += k {
			p.write(args[i:min(i+k, len(args))])
			want := json.Valid([]byte(p.args.String()))
			if got := p.complete(); got != want {
				t.Fatalf("after %q: complete %v, json.Valid %v", p.args.String(), got, want)
			}
		}
	})
}

// FuzzStream reads arbitrary bytes as a streamed answer. The reader never
// panics and answers a response or an error, never both; an error never
// shows the API key; an answer's text is what the sink was sent, and its
// tool calls are at most MaxAnswerToolCalls, each with a unique id, type
// "function" and arguments that are not blank.
func FuzzStream(f *testing.F) {
	for _, s := range []string{
		"data: " + text("hi") + "\n\ndata: [DONE]\n\n",
		"data: " + callStart(0, "a", "echo") + "\n\ndata: " + callArgs(0, `{"x":`) + "\n\ndata: " + callArgs(0, `1}`) + "\n\ndata: [DONE]\n\n",
		"data: " + callStart(3, "a", "echo") + "\n\ndata: " + callStart(3, "a", "echo") + "\n\ndata: " + callArgs(7, `{}`) + "\n\ndata: [DONE]\n",
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"x","function":{"name":"a","arguments":{"k":1}}},{"id":"x","function":{"name":"b","arguments":"{}"}}]}}]}` + "\ndata: [DONE]\n",
		"event: error\ndata: {\"error\":{\"message\":\"" + testKey + "\"}}\n\n",
		": keep-alive\r\n\r\nid: 1\r\nretry: 5\r\ndata: " + text("x") + "\r\n\r\ndata: [DONE]\r\n",
		`{"error":{"message":"bad key ` + testKey + `"}}` + "\n",
		"<html>" + testKey + "\n",
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + testKey[:8] + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var sent strings.Builder
		s := &streamReader{client: &Client{APIKey: testKey, MaxStreamBytes: 1 << 16}, touch: func() {}, sink: func(e Event) {
			if e.Type == EventText {
				sent.WriteString(e.Text)
			}
		}}
		resp, err := s.read(strings.NewReader(string(body)))
		if (resp == nil) == (err == nil) {
			t.Fatalf("response %v and error %v", resp, err)
		}
		if err != nil {
			if strings.Contains(err.Error(), testKey) {
				t.Fatalf("the error shows the key: %v", err)
			}
			return
		}
		if resp.Message.Content != sent.String() {
			t.Fatalf("content %q, sent %q", resp.Message.Content, sent.String())
		}
		calls := resp.Message.ToolCalls
		if len(calls) > MaxAnswerToolCalls {
			t.Fatalf("%d tool calls", len(calls))
		}
		seen := map[string]bool{}
		for _, c := range calls {
			if c.ID == "" || seen[c.ID] || c.Type != "function" || strings.TrimSpace(c.Function.Arguments) == "" {
				t.Fatalf("call %+v (ids so far %v)", c, seen)
			}
			seen[c.ID] = true
		}
	})
}
