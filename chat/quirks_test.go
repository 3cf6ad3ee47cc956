package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// turnCalls runs one turn whose first answer is script's, followed by a
// plain answer, and returns the tool calls of the assistant message and
// the tool messages that the second request sent back.
func turnCalls(t *testing.T, first reply) (calls []any, toolMsgs []any, f *fakeServer) {
	t.Helper()
	f = newFake(t, first, answer("done"))
	conv := &Conversation{Client: f.client(nil), Tools: echoTools()}
	if _, err := conv.Turn(context.Background(), "go"); err != nil {
		t.Fatalf("Turn: %v", err)
	}
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	msgs := reqs[1].messages()
	asst := msgs[1].(map[string]any)
	calls, _ = asst["tool_calls"].([]any)
	return calls, msgs[2:], f
}

// wantCalls compares the sent-back calls and tool messages with want, a
// JSON array of calls; each call must be answered by a tool message with
// its id, in order.
func wantCalls(t *testing.T, want string, calls, toolMsgs []any) {
	t.Helper()
	if diff := cmp.Diff(mustJSON(t, want), any(calls)); diff != "" {
		t.Errorf("tool calls sent back (-want +got):\n%s", diff)
	}
	if len(toolMsgs) != len(calls) {
		t.Fatalf("%d tool messages for %d calls", len(toolMsgs), len(calls))
	}
	for i, c := range calls {
		id := c.(map[string]any)["id"]
		if got := toolMsgs[i].(map[string]any)["tool_call_id"]; got != id {
			t.Errorf("tool message %d answers %v, want %v", i, got, id)
		}
	}
}

// OpenAI can answer finish_reason "stop" with tool calls: the calls are
// run all the same.
func TestQuirkFinishReasonStopWithToolCalls(t *testing.T) {
	t.Run("stream", func(t *testing.T) {
		calls, msgs, _ := turnCalls(t, sse(callStart(0, "call_1", "echo"), callArgs(0, `{"text":"x"}`), finish("stop")))
		wantCalls(t, `[{"id":"call_1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"x\"}"}}]`, calls, msgs)
	})
	t.Run("whole", func(t *testing.T) {
		f := newFake(t,
			jsonReply(200, completion(`{"role":"assistant","content":"","tool_calls":[{"id":"call_1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"x\"}"}}]}`, "stop")),
			jsonReply(200, completion(`{"role":"assistant","content":"done"}`, "stop")),
		)
		c := f.client(nil)
		c.NoStream = true
		tools := echoTools()
		conv := &Conversation{Client: c, Tools: tools}
		if got, err := conv.Turn(context.Background(), "go"); err != nil || got != "done" {
			t.Fatalf("Turn = %q, %v", got, err)
		}
		if n := len(tools.made()); n != 1 {
			t.Errorf("%d calls run, want 1", n)
		}
	})
	t.Run("tool_calls without calls", func(t *testing.T) {
		// The converse: finish_reason "tool_calls" and no calls ends the turn.
		f := newFake(t, sse(text("just text"), finish("tool_calls")))
		conv := &Conversation{Client: f.client(nil), Tools: echoTools()}
		if got, err := conv.Turn(context.Background(), "go"); err != nil || got != "just text" {
			t.Fatalf("Turn = %q, %v", got, err)
		}
	})
}

// Deltas without "index": the continuation deltas continue the last call,
// keeping its id and name.
func TestQuirkDeltasWithoutIndex(t *testing.T) {
	calls, msgs, _ := turnCalls(t, sse(
		chunk(`{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"echo","arguments":""}}]}`),
		chunk(`{"tool_calls":[{"function":{"arguments":"{\"te"}}]}`),
		chunk(`{"tool_calls":[{"function":{"arguments":"xt\":\"x\"}"}}]}`),
		finish("tool_calls"),
	))
	wantCalls(t, `[{"id":"call_1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"x\"}"}}]`, calls, msgs)
}

// Qwen (DashScope) repeats "id":"" (and sometimes "name":"") on the
// continuation deltas: they must not overwrite the call's id and name.
func TestQuirkQwenEmptyIDOnContinuation(t *testing.T) {
	calls, msgs, _ := turnCalls(t, sse(
		chunk(`{"tool_calls":[{"id":"call_a1ad8367","type":"function","index":0,"function":{"name":"echo","arguments":""}}]}`),
		chunk(`{"tool_calls":[{"id":"","type":"function","index":0,"function":{"arguments":"{\"text\": "}}]}`),
		chunk(`{"tool_calls":[{"id":"","type":"function","index":0,"function":{"name":"","arguments":"\"q\"}"}}]}`),
		chunk(`{"tool_calls":[{"id":"call_b2","type":"function","index":1,"function":{"name":"add","arguments":""}}]}`),
		chunk(`{"tool_calls":[{"id":"","type":"function","index":1,"function":{"arguments":"{\"a\":1,\"b\":2}"}}]}`),
		finish("tool_calls"),
	))
	wantCalls(t, `[
		{"id":"call_a1ad8367","type":"function","function":{"name":"echo","arguments":"{\"text\": \"q\"}"}},
		{"id":"call_b2","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}]`, calls, msgs)
	if got := msgs[0].(map[string]any)["content"]; got != "q" {
		t.Errorf("echo answered %q", got)
	}
}

// Ollama sends each call whole in one delta; older versions send no index,
// and parallel calls either share one delta or come one per chunk, or all
// carry index 0.
func TestQuirkOllamaWholeCalls(t *testing.T) {
	ollama := func(delta string) string {
		return fmt.Sprintf(`{"id":"chatcmpl-42","object":"chat.completion.chunk","created":1700000000,"model":"qwen3:8b","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":%s,"finish_reason":null}]}`, delta)
	}
	want := `[
		{"id":"call_p1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"a\"}"}},
		{"id":"call_p2","type":"function","function":{"name":"echo","arguments":"{\"text\":\"b\"}"}}]`
	for _, tc := range []struct {
		name   string
		chunks []string
	}{
		{"one delta, no index", []string{
			ollama(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"a\"}"}},{"id":"call_p2","type":"function","function":{"name":"echo","arguments":"{\"text\":\"b\"}"}}]}`),
		}},
		{"one chunk each, no index", []string{
			ollama(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"a\"}"}}]}`),
			ollama(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p2","type":"function","function":{"name":"echo","arguments":"{\"text\":\"b\"}"}}]}`),
		}},
		{"index 0 reused", []string{
			ollama(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p1","index":0,"type":"function","function":{"name":"echo","arguments":"{\"text\":\"a\"}"}}]}`),
			ollama(`{"role":"assistant","content":"","tool_calls":[{"id":"call_p2","index":0,"type":"function","function":{"name":"echo","arguments":"{\"text\":\"b\"}"}}]}`),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunks := append(tc.chunks, ollama(`{"role":"assistant","content":""}`), finish("tool_calls"))
			calls, msgs, _ := turnCalls(t, sse(chunks...))
			wantCalls(t, want, calls, msgs)
		})
	}
	t.Run("no ids, same name", func(t *testing.T) {
		calls, msgs, _ := turnCalls(t, sse(
			ollama(`{"tool_calls":[{"type":"function","function":{"name":"echo","arguments":"{\"text\":\"a\"}"}}]}`),
			ollama(`{"tool_calls":[{"type":"function","function":{"name":"echo","arguments":"{\"text\":\"b\"}"}}]}`),
			finish("tool_calls"),
		))
		if len(calls) != 2 {
			t.Fatalf("%d calls, want 2: %v", len(calls), calls)
		}
		for i, arg := range []string{`{"text":"a"}`, `{"text":"b"}`} {
			c := calls[i].(map[string]any)
			if got := c["function"].(map[string]any)["arguments"]; got != arg {
				t.Errorf("call %d arguments = %v, want %s", i, got, arg)
			}
		}
		wantCalls(t, fmt.Sprint(jsonText(t, calls)), calls, msgs)
	})
}

// Some servers send a fresh id on every delta of one call: while the
// arguments are incomplete, a new id does not start a new call.
func TestQuirkFreshIDOnEveryDelta(t *testing.T) {
	calls, msgs, _ := turnCalls(t, sse(
		chunk(`{"tool_calls":[{"index":0,"id":"call_x1","type":"function","function":{"name":"echo","arguments":""}}]}`),
		chunk(`{"tool_calls":[{"index":0,"id":"call_x2","function":{"arguments":"{\"text\":"}}]}`),
		chunk(`{"tool_calls":[{"index":0,"id":"call_x3","function":{"arguments":"\"z\"}"}}]}`),
		finish("tool_calls"),
	))
	wantCalls(t, `[{"id":"call_x1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"z\"}"}}]`, calls, msgs)
}

// Empty arguments become "{}", for the tool and in the message sent back.
func TestQuirkEmptyArguments(t *testing.T) {
	for _, tc := range []struct {
		name string
		rep  reply
	}{
		{"stream", sse(callStart(0, "call_e", "echo"), finish("tool_calls"))},
		{"stream null", sse(chunk(`{"tool_calls":[{"index":0,"id":"call_e","type":"function","function":{"name":"echo","arguments":null}}]}`), finish("tool_calls"))},
		{"whole", jsonReply(200, completion(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_e","type":"function","function":{"name":"echo","arguments":""}}]}`, "tool_calls"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.rep, answer("done"))
			tools := echoTools()
			conv := &Conversation{Client: f.client(nil), Tools: tools}
			if _, err := conv.Turn(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if made := tools.made(); len(made) != 1 || made[0].Args != "{}" {
				t.Errorf("the tool got %+v, want arguments {}", made)
			}
			calls := f.requests()[1].messages()[1].(map[string]any)["tool_calls"].([]any)
			wantCalls(t, `[{"id":"call_e","type":"function","function":{"name":"echo","arguments":"{}"}}]`, calls, f.requests()[1].messages()[2:])
		})
	}
}

// A call without an id gets a generated one, used for the assistant
// message, the tool message and the tool's context alike.
func TestQuirkMissingToolCallID(t *testing.T) {
	for _, tc := range []struct {
		name string
		rep  reply
	}{
		{"stream", sse(chunk(`{"tool_calls":[{"index":0,"type":"function","function":{"name":"echo","arguments":"{\"text\":\"a\"}"}}]}`), finish("tool_calls"))},
		{"whole", jsonReply(200, completion(`{"role":"assistant","content":"","tool_calls":[{"type":"function","function":{"name":"echo","arguments":"{\"text\":\"a\"}"}}]}`, "tool_calls"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.rep, answer("done"), answer("again"))
			tools := echoTools()
			conv := &Conversation{Client: f.client(nil), Tools: tools}
			for _, q := range []string{"go", "more"} {
				if _, err := conv.Turn(context.Background(), q); err != nil {
					t.Fatal(err)
				}
			}
			for _, r := range f.requests()[1:] {
				msgs := r.messages()
				id, _ := msgs[1].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)["id"].(string)
				if !strings.HasPrefix(id, "call_") || len(id) < 10 {
					t.Errorf("generated id = %q", id)
				}
				if got := msgs[2].(map[string]any)["tool_call_id"]; got != id {
					t.Errorf("tool message answers %v, want %v", got, id)
				}
				if made := tools.made(); made[0].Call.ID != id {
					t.Errorf("the tool's context has id %q, want %q", made[0].Call.ID, id)
				}
			}
		})
	}
}

// Every assistant and tool message has a "content" key, even empty:
// DeepSeek answers 422 without it.
func TestQuirkContentKeyAlwaysSent(t *testing.T) {
	f := newFake(t,
		sse(chunk(`{"role":"assistant","content":null}`), callStart(0, "call_1", "echo"), callArgs(0, `{"text":""}`), finish("tool_calls")),
		answer("done"),
	)
	conv := &Conversation{Client: f.client(nil), Tools: echoTools()}
	if _, err := conv.Turn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	r := f.requests()[1]
	for i, m := range r.messages() {
		if _, ok := m.(map[string]any)["content"]; !ok {
			t.Errorf("message %d has no content key: %v", i, m)
		}
	}
	for _, want := range []string{
		`{"role":"assistant","content":"","tool_calls":[`,
		`{"role":"tool","content":"","tool_call_id":"call_1"}`,
	} {
		if !strings.Contains(string(r.Raw), want) {
			t.Errorf("the request does not contain %s:\n%s", want, r.Raw)
		}
	}
}

// DeepSeek's thinking mode and Kimi's thinking models need the
// reasoning_content of assistant messages that made tool calls sent back
// (400 otherwise). It is left out of other messages.
func TestQuirkReasoningContentSentBack(t *testing.T) {
	f := newFake(t,
		sse(
			chunk(`{"role":"assistant","content":null,"reasoning_content":""}`),
			chunk(`{"content":null,"reasoning_content":"The user wants"}`),
			chunk(`{"content":null,"reasoning_content":" an echo."}`),
			callStart(0, "call_00_abc", "echo"), callArgs(0, `{"text":"hi"}`),
			finish("tool_calls"),
		),
		sse(
			chunk(`{"role":"assistant","content":null,"reasoning_content":"Done."}`),
			chunk(`{"content":"It said hi.","reasoning_content":null}`),
			finish("stop"),
		),
		answer("bye"),
	)
	var ev events
	conv := &Conversation{Client: f.client(nil), Tools: echoTools(), Sink: ev.sink}
	for _, q := range []string{"echo hi", "bye"} {
		if _, err := conv.Turn(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	want := mustJSON(t, `[
		{"role":"user","content":"echo hi"},
		{"role":"assistant","content":"","reasoning_content":"The user wants an echo.","tool_calls":[{"id":"call_00_abc","type":"function","function":{"name":"echo","arguments":"{\"text\":\"hi\"}"}}]},
		{"role":"tool","content":"hi","tool_call_id":"call_00_abc"},
		{"role":"assistant","content":"It said hi."},
		{"role":"user","content":"bye"}]`)
	if diff := cmp.Diff(want, any(f.requests()[2].messages())); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	var reasoning []string
	for _, e := range ev.ofType(EventReasoning) {
		reasoning = append(reasoning, e.Text)
	}
	if diff := cmp.Diff([]string{"The user wants", " an echo.", "Done."}, reasoning); diff != "" {
		t.Errorf("reasoning events (-want +got):\n%s", diff)
	}

	t.Run("empty reasoning kept", func(t *testing.T) {
		// Thinking mode with a tool call and no reasoning text: the key is
		// still sent back, empty.
		calls, _, f := turnCalls(t, sse(chunk(`{"role":"assistant","content":"","reasoning_content":""}`), callStart(0, "c1", "echo"), callArgs(0, `{}`), finish("tool_calls")))
		_ = calls
		asst := f.requests()[1].messages()[1].(map[string]any)
		if rc, ok := asst["reasoning_content"]; !ok || rc != "" {
			t.Errorf("reasoning_content = %v, %v; want present and empty", rc, ok)
		}
	})
	t.Run("absent when not thinking", func(t *testing.T) {
		_, _, f := turnCalls(t, toolAnswer("c1", "echo", `{}`))
		if rc, ok := f.requests()[1].messages()[1].(map[string]any)["reasoning_content"]; ok {
			t.Errorf("reasoning_content %v sent for a model that sent none", rc)
		}
	})
}

// SSE comments (": keep-alive") and blank lines, however many, do not end
// the stream; CRLF line ends and "data:" without a space are read too.
func TestQuirkKeepAlivesAndBlankLines(t *testing.T) {
	var sb strings.Builder
	for range 200 {
		sb.WriteString(": keep-alive\n\n")
	}
	sb.WriteString("\n\n\n\n")
	sb.WriteString("event: message\r\n")
	sb.WriteString("data: " + text("Hel") + "\r\n\r\n")
	for range 50 {
		sb.WriteString(":\n\n\n")
	}
	sb.WriteString("id: 7\nretry: 1000\n")
	sb.WriteString("data:" + text("lo") + "\n\n")
	sb.WriteString(": PROCESSING\n\n")
	sb.WriteString("data: " + finish("stop") + "\n\n\n")
	sb.WriteString(": keep-alive\n\n")
	sb.WriteString("data: [DONE]")
	f := newFake(t, rawSSE(sb.String()))
	conv := &Conversation{Client: f.client(nil)}
	got, err := conv.Turn(context.Background(), "hi")
	if err != nil || got != "Hello" {
		t.Fatalf("Turn = %q, %v", got, err)
	}
}

// An error body that is not {"error": {...}} is shown as the server sent
// it.
func TestQuirkUnwrappedErrorBody(t *testing.T) {
	vllm := `{"object":"error","message":"This model's maximum context length is 2048 tokens. However, you requested 2723 tokens.","type":"BadRequestError","param":null,"code":400}`
	for _, tc := range []struct {
		name string
		rep  reply
		want string
	}{
		{"vllm", jsonReply(400, vllm), vllm},
		{"plain text", respond(400, "text/plain; charset=utf-8", "invalid request: messages must not be empty\n"), "invalid request: messages must not be empty"},
		{"error string", jsonReply(400, `{"error":"model is loading"}`), "HTTP 400 Bad Request: model is loading"},
		{"openai", jsonReply(400, `{"error":{"message":"Invalid value for 'role'.","type":"invalid_request_error","param":"messages[0].role","code":null}}`), "HTTP 400 Bad Request: Invalid value for 'role'."},
		{"empty", respond(400, "text/plain", ""), "HTTP 400 Bad Request: (empty body)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.rep)
			conv := &Conversation{Client: f.client(nil)}
			_, err := conv.Turn(context.Background(), "hi")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %s", err, tc.want)
			}
		})
	}
}

// Providers that reject stream_options: the request is sent again without
// it, and the client stops sending it.
func TestQuirkStreamOptionsRejected(t *testing.T) {
	f := newFake(t,
		jsonReply(400, `{"error":{"message":"property 'stream_options' is unsupported, did you mean 'stream'?","type":"invalid_request_error"}}`),
		answer("one"),
		answer("two"),
	)
	s := &sleeps{}
	conv := &Conversation{Client: f.client(s)}
	for _, q := range []string{"a", "b"} {
		if _, err := conv.Turn(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	var sent []bool
	for _, r := range f.requests() {
		_, ok := r.Body["stream_options"]
		sent = append(sent, ok)
	}
	if diff := cmp.Diff([]bool{true, false, false}, sent); diff != "" {
		t.Errorf("stream_options sent (-want +got):\n%s", diff)
	}
	if len(s.all()) != 0 {
		t.Errorf("waited %v before sending again", s.all())
	}
}

// Kimi reports a streamed answer's usage inside the choice.
func TestQuirkUsageInChoice(t *testing.T) {
	f := newFake(t, sse(
		text("hi"),
		`{"id":"chatcmpl-k","object":"chat.completion.chunk","created":1,"model":"kimi-k2","choices":[{"index":0,"delta":{},"finish_reason":"stop","usage":{"prompt_tokens":8,"completion_tokens":2,"total_tokens":10}}]}`,
	))
	conv := &Conversation{Client: f.client(nil)}
	if _, err := conv.Turn(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if got, want := conv.Usage(), (Usage{8, 2, 10}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
}

// Some servers send arguments as a JSON object instead of a string, or a
// numeric id.
func TestQuirkArgumentsAsObject(t *testing.T) {
	f := newFake(t,
		jsonReply(200, completion(`{"role":"assistant","content":"","tool_calls":[{"id":7,"type":"function","function":{"name":"echo","arguments":{"text":"obj"}}}]}`, "tool_calls")),
		jsonReply(200, completion(`{"role":"assistant","content":"ok"}`, "stop")),
	)
	c := f.client(nil)
	c.NoStream = true
	tools := echoTools()
	conv := &Conversation{Client: c, Tools: tools}
	if _, err := conv.Turn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if made := tools.made(); len(made) != 1 || made[0].Args != `{"text":"obj"}` || made[0].Call.ID != "7" {
		t.Errorf("tool got %+v", made)
	}
}

// A server that ignores stream:true and answers with one JSON object.
func TestQuirkServerIgnoresStream(t *testing.T) {
	f := newFake(t, jsonReply(200, completion(`{"role":"assistant","content":"whole"}`, "stop")))
	conv := &Conversation{Client: f.client(nil)}
	if got, err := conv.Turn(context.Background(), "hi"); err != nil || got != "whole" {
		t.Fatalf("Turn = %q, %v", got, err)
	}
}

// jsonText re-encodes v, for building a want from what was got.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
