package anthropictools_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/adapters/anthropictools"
	"github.com/toolreg/toolreg/internal/testbox"
)

// A message as the Messages API sends it, with text and four tool_use
// blocks: one that answers, one whose array argument is sent as a JSON
// string (which the tool set repairs), one that fails and one that does
// not exist.
const toolUseReply = `{
  "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
  "content": [
    {"type": "text", "text": "Let me check."},
    {"type": "tool_use", "id": "toolu_1", "name": "echo", "input": {"text": "hi"}},
    {"type": "tool_use", "id": "toolu_2", "name": "tag", "input": {"tags": "[\"a\",\"b\"]"}},
    {"type": "tool_use", "id": "toolu_3", "name": "fail", "input": {}},
    {"type": "tool_use", "id": "toolu_4", "name": "nope", "input": {}}
  ],
  "stop_reason": "tool_use", "stop_sequence": null,
  "usage": {"input_tokens": 50, "output_tokens": 40}
}`

const answerReply = `{
  "id": "msg_02", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
  "content": [{"type": "text", "text": "Done."}],
  "stop_reason": "end_turn", "stop_sequence": null,
  "usage": {"input_tokens": 120, "output_tokens": 2}
}`

// server is a Messages endpoint on loopback that answers with the given
// bodies in turn and keeps the request bodies.
type server struct {
	mu      sync.Mutex
	replies []string
	bodies  []map[string]any
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	if r.URL.Path != "/v1/messages" || json.Unmarshal(b, &body) != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies = append(s.bodies, body)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, s.replies[0])
	s.replies = s.replies[1:]
}

func unmarshal(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestRoundTrip(t *testing.T) {
	reg := testbox.Toolbox()
	s := &server{replies: []string{toolUseReply, answerReply}}
	hs := httptest.NewServer(s)
	defer hs.Close()
	client := anthropic.NewClient(option.WithBaseURL(hs.URL), option.WithAPIKey("sk-ant-test"),
		option.WithHTTPClient(hs.Client()), option.WithMaxRetries(0))

	tools, err := anthropictools.Params(reg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	params := anthropic.MessageNewParams{
		Model:     "claude-sonnet-4-5",
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("go"))},
		Tools:     tools,
	}
	first, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	reply, ok := anthropictools.Run(ctx, reg, first)
	if !ok {
		t.Fatal("Run found no tool_use block")
	}
	params.Messages = append(params.Messages, first.ToParam(), reply)
	second, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := second.Content[0].Text; got != "Done." {
		t.Errorf("answer %q, want %q", got, "Done.")
	}

	// The tools on the wire: each tool's schema as input_schema.
	var wantTools []any
	for _, e := range reg.Tools() {
		wantTools = append(wantTools, map[string]any{
			"name": e.Name, "description": e.Description, "input_schema": unmarshal(t, e.Parameters),
		})
	}
	if diff := cmp.Diff(wantTools, s.bodies[0]["tools"]); diff != "" {
		t.Errorf("tools sent (-want +got):\n%s", diff)
	}
	// The tool_result blocks on the wire, in the order of the tool_use
	// blocks, is_error on the failures.
	msgs := s.bodies[1]["messages"].([]any)
	want := unmarshal(t, `{"role":"user","content":[
		{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"echo: hi"}],"is_error":false},
		{"type":"tool_result","tool_use_id":"toolu_2","content":[{"type":"text","text":"a,b"}],"is_error":false},
		{"type":"tool_result","tool_use_id":"toolu_3","content":[{"type":"text","text":"Error: fail: disk on fire"}],"is_error":true},
		{"type":"tool_result","tool_use_id":"toolu_4","content":[{"type":"text","text":"Error: unknown tool \"nope\"; available tools: count, echo, fail, tag"}],"is_error":true}
	]}`)
	if diff := cmp.Diff(want, msgs[2]); diff != "" {
		t.Errorf("tool results (-want +got):\n%s", diff)
	}
	if got := msgs[1].(map[string]any)["content"].([]any); len(got) != 5 {
		t.Errorf("the assistant message was sent back with %d blocks, want 5", len(got))
	}
}

func TestRunNoToolUse(t *testing.T) {
	var msg anthropic.Message
	if err := json.Unmarshal([]byte(answerReply), &msg); err != nil {
		t.Fatal(err)
	}
	if _, ok := anthropictools.Run(context.Background(), testbox.Toolbox(), &msg); ok {
		t.Error("Run of a message without tool_use blocks reports ok")
	}
}
