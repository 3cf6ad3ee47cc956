package openaitools_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/toolreg/toolreg/adapters/openaitools"
	"github.com/toolreg/toolreg/internal/testbox"
)

// A chat completion as the OpenAI API sends it, calling four tools: one
// that answers, one whose array argument is sent as a JSON string (which
// the tool set repairs), one that fails and one that does not exist.
const toolCallsReply = `{
  "id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-4.1-mini",
  "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null, "message": {
    "role": "assistant", "content": null, "refusal": null, "annotations": [],
    "tool_calls": [
      {"id": "call_1", "type": "function", "function": {"name": "echo", "arguments": "{\"text\":\"hi\"}"}},
      {"id": "call_2", "type": "function", "function": {"name": "tag", "arguments": "{\"tags\":\"[\\\"a\\\",\\\"b\\\"]\"}"}},
      {"id": "call_3", "type": "function", "function": {"name": "fail", "arguments": "{}"}},
      {"id": "call_4", "type": "function", "function": {"name": "nope", "arguments": "{}"}}
    ]}}],
  "usage": {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}
}`

const answerReply = `{
  "id": "chatcmpl-2", "object": "chat.completion", "created": 1700000001, "model": "gpt-4.1-mini",
  "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null, "message": {
    "role": "assistant", "content": "Done.", "refusal": null, "annotations": []}}],
  "usage": {"prompt_tokens": 90, "completion_tokens": 2, "total_tokens": 92}
}`

// server is a chat completions endpoint on loopback that answers with the
// given bodies in turn and keeps the request bodies.
type server struct {
	mu      sync.Mutex
	replies []string
	bodies  []map[string]any
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(b, &body) != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies = append(s.bodies, body)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, s.replies[0])
	s.replies = s.replies[1:]
}

func unmarshal(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

func TestRoundTrip(t *testing.T) {
	reg := testbox.Toolbox()
	s := &server{replies: []string{toolCallsReply, answerReply}}
	hs := httptest.NewServer(s)
	defer hs.Close()
	client := openai.NewClient(option.WithBaseURL(hs.URL+"/v1/"), option.WithAPIKey("sk-test"),
		option.WithHTTPClient(hs.Client()), option.WithMaxRetries(0))

	tools, err := openaitools.Params(reg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	params := openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("go")},
		Tools:    tools,
	}
	first, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	msg := first.Choices[0].Message
	results := openaitools.Run(ctx, reg, msg)
	params.Messages = append(params.Messages, msg.ToParam())
	params.Messages = append(params.Messages, results...)
	second, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := second.Choices[0].Message.Content; got != "Done." {
		t.Errorf("answer %q, want %q", got, "Done.")
	}

	// The tools on the wire are the spec table.
	specs, err := json.Marshal(reg.Specs())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(unmarshal(t, specs), s.bodies[0]["tools"]); diff != "" {
		t.Errorf("tools sent (-want +got):\n%s", diff)
	}
	// The tool messages on the wire, in the order of the calls.
	msgs := s.bodies[1]["messages"].([]any)
	want := unmarshal(t, []byte(`[
		{"role":"tool","tool_call_id":"call_1","content":"echo: hi"},
		{"role":"tool","tool_call_id":"call_2","content":"a,b"},
		{"role":"tool","tool_call_id":"call_3","content":"Error: fail: disk on fire"},
		{"role":"tool","tool_call_id":"call_4","content":"Error: unknown tool \"nope\"; available tools: count, echo, fail, tag"}
	]`))
	if diff := cmp.Diff(want, any(msgs[2:])); diff != "" {
		t.Errorf("tool messages (-want +got):\n%s", diff)
	}
	if got := msgs[1].(map[string]any)["tool_calls"].([]any); len(got) != 4 {
		t.Errorf("the assistant message was sent back with %d tool calls, want 4", len(got))
	}
}

func TestRunNoCalls(t *testing.T) {
	if got := openaitools.Run(context.Background(), testbox.Toolbox(), openai.ChatCompletionMessage{Content: "hi"}); got != nil {
		t.Errorf("Run of a message without tool calls = %v, want nil", got)
	}
}

func TestRunCustomCall(t *testing.T) {
	var msg openai.ChatCompletionMessage
	if err := json.Unmarshal([]byte(`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"custom","custom":{"name":"grammar","input":"x"}}]}`), &msg); err != nil {
		t.Fatal(err)
	}
	out := openaitools.Run(context.Background(), testbox.Toolbox(), msg)
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	want := unmarshal(t, []byte(`[{"role":"tool","tool_call_id":"c1","content":"Error: unknown tool \"grammar\"; only function tools are offered, not \"custom\" tools"}]`))
	if diff := cmp.Diff(want, unmarshal(t, b)); diff != "" {
		t.Errorf("tool messages (-want +got):\n%s", diff)
	}
}
