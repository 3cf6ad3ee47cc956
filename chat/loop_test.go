package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolreg/toolreg/tool"
)

func TestMultiStepConversation(t *testing.T) {
	f := newFake(t,
		// Turn 1: the model calls add, then answers.
		sse(text("Let me add."), callStart(0, "call_1", "add"), callArgs(0, `{"a":2,`), callArgs(0, `"b":3}`), finish("tool_calls"), usage(20, 7)),
		sse(text("2 + 3 = "), text("5."), finish("stop"), usage(40, 4)),
		// Turn 2: a plain answer.
		answer("You're welcome."),
	)
	tools := echoTools()
	var ev events
	conv := &Conversation{Client: f.client(nil), Tools: tools, System: "Be brief.", Session: "s-1", Sink: ev.sink}

	got, err := conv.Turn(context.Background(), "What is 2+3?")
	if err != nil {
		t.Fatal(err)
	}
	if got != "2 + 3 = 5." {
		t.Errorf("answer = %q", got)
	}
	got, err = conv.Turn(context.Background(), "Thanks")
	if err != nil {
		t.Fatal(err)
	}
	if got != "You're welcome." {
		t.Errorf("answer = %q", got)
	}

	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		if got, want := r.Header.Get("Authorization"), "Bearer "+testKey; got != want {
			t.Errorf("request %d: Authorization = %q, want %q", i, got, want)
		}
		if r.Body["model"] != testModel || r.Body["stream"] != true {
			t.Errorf("request %d: model %v stream %v", i, r.Body["model"], r.Body["stream"])
		}
		if diff := cmp.Diff(mustJSON(t, `{"include_usage":true}`), r.Body["stream_options"]); diff != "" {
			t.Errorf("request %d: stream_options (-want +got):\n%s", i, diff)
		}
		wantTools := mustJSON(t, `[
			{"type":"function","function":{"name":"add","description":"the add tool","parameters":{"type":"object","properties":{}}}},
			{"type":"function","function":{"name":"echo","description":"the echo tool","parameters":{"type":"object","properties":{}}}}]`)
		if diff := cmp.Diff(wantTools, r.Body["tools"]); diff != "" {
			t.Errorf("request %d: tools (-want +got):\n%s", i, diff)
		}
	}
	turn1 := `
		{"role":"system","content":"Be brief."},
		{"role":"user","content":"What is 2+3?"},
		{"role":"assistant","content":"Let me add.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":2,\"b\":3}"}}]},
		{"role":"tool","content":"5","tool_call_id":"call_1"}`
	want := []string{
		`[{"role":"system","content":"Be brief."},{"role":"user","content":"What is 2+3?"}]`,
		`[` + turn1 + `]`,
		`[` + turn1 + `,
			{"role":"assistant","content":"2 + 3 = 5."},
			{"role":"user","content":"Thanks"}]`,
	}
	for i, w := range want {
		if diff := cmp.Diff(mustJSON(t, w), any(reqs[i].messages())); diff != "" {
			t.Errorf("request %d: messages (-want +got):\n%s", i, diff)
		}
	}

	wantCalls := []madeCall{{Name: "add", Args: `{"a":2,"b":3}`, HasCall: true,
		Call: tool.Call{ID: "call_1", Tool: "add", Caller: "agent", Session: "s-1"}}}
	if diff := cmp.Diff(wantCalls, tools.made()); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
	if got, want := conv.Usage(), (Usage{PromptTokens: 60, CompletionTokens: 11, TotalTokens: 71}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
	if n := len(conv.Messages()); n != 6 {
		t.Errorf("%d messages kept, want 6", n)
	}

	// The events of the first turn, in order, results without durations.
	var got1 []Event
	for _, e := range ev.all() {
		e.Duration = 0
		got1 = append(got1, e)
		if e.Type == EventAnswer {
			break
		}
	}
	wantEv := []Event{
		{Type: EventText, Step: 1, Text: "Let me add."},
		{Type: EventUsage, Step: 1, Usage: &Usage{20, 7, 27}},
		{Type: EventToolCall, Step: 1, CallID: "call_1", Tool: "add", Args: `{"a":2,"b":3}`},
		{Type: EventToolResult, Step: 1, CallID: "call_1", Tool: "add", Args: `{"a":2,"b":3}`, Result: "5"},
		{Type: EventText, Step: 2, Text: "2 + 3 = "},
		{Type: EventText, Step: 2, Text: "5."},
		{Type: EventUsage, Step: 2, Usage: &Usage{40, 4, 44}},
		{Type: EventAnswer, Step: 2, Text: "2 + 3 = 5."},
	}
	if diff := cmp.Diff(wantEv, got1); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestParallelToolCallsWithSplitArguments(t *testing.T) {
	// Two calls whose arguments arrive in pieces cut mid-JSON, the pieces
	// of the two calls interleaved.
	f := newFake(t,
		sse(
			callStart(0, "call_a", "slow"),
			callArgs(0, `{"te`),
			callStart(1, "call_b", "fast"),
			callArgs(1, `{"text":"b`),
			callArgs(0, `xt":"a"`),
			callArgs(1, `"}`),
			callArgs(0, `}`),
			finish("tool_calls"),
		),
		answer("done"),
	)
	// slow finishes only after fast's result is reported: run one after
	// the other in the model's order, they would deadlock (bounded by the
	// timeout); run at once, fast's result is reported first.
	fastReported := make(chan struct{})
	var ev events
	sink := func(e Event) {
		ev.sink(e)
		if e.Type == EventToolResult && e.CallID == "call_b" {
			close(fastReported)
		}
	}
	tools := &fakeTools{fns: map[string]func(context.Context, map[string]any) (string, error){
		"slow": func(ctx context.Context, a map[string]any) (string, error) {
			select {
			case <-fastReported:
				return "slow:" + a["text"].(string), nil
			case <-time.After(10 * time.Second):
				return "", errors.New("fast never finished: calls are not concurrent")
			}
		},
		"fast": func(ctx context.Context, a map[string]any) (string, error) {
			return "fast:" + a["text"].(string), nil
		},
	}}
	conv := &Conversation{Client: f.client(nil), Tools: tools, Sink: sink}
	if _, err := conv.Turn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	msgs := f.requests()[1].messages()
	want := mustJSON(t, `[
		{"role":"user","content":"go"},
		{"role":"assistant","content":"","tool_calls":[
			{"id":"call_a","type":"function","function":{"name":"slow","arguments":"{\"text\":\"a\"}"}},
			{"id":"call_b","type":"function","function":{"name":"fast","arguments":"{\"text\":\"b\"}"}}]},
		{"role":"tool","content":"slow:a","tool_call_id":"call_a"},
		{"role":"tool","content":"fast:b","tool_call_id":"call_b"}]`)
	if diff := cmp.Diff(want, any(msgs)); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	// Results are reported as they finish: fast first.
	var order []string
	for _, e := range ev.ofType(EventToolResult) {
		order = append(order, e.CallID)
	}
	if diff := cmp.Diff([]string{"call_b", "call_a"}, order); diff != "" {
		t.Errorf("result events order (-want +got):\n%s", diff)
	}
}

func TestAllToolCallsInFlightAtOnce(t *testing.T) {
	const n = 8
	var chunks []string
	for i := range n {
		chunks = append(chunks, callStart(i, fmt.Sprintf("call_%d", i), "wait"), callArgs(i, "{}"))
	}
	f := newFake(t, sse(append(chunks, finish("tool_calls"))...), answer("ok"))

	// A barrier: each call returns only once all n are in flight.
	var arrived sync.WaitGroup
	arrived.Add(n)
	all := make(chan struct{})
	go func() { arrived.Wait(); close(all) }()
	tools := &fakeTools{fns: map[string]func(context.Context, map[string]any) (string, error){
		"wait": func(ctx context.Context, _ map[string]any) (string, error) {
			arrived.Done()
			select {
			case <-all:
				return "in flight together", nil
			case <-time.After(10 * time.Second):
				return "", errors.New("not all calls were in flight at once")
			}
		},
	}}
	conv := &Conversation{Client: f.client(nil), Tools: tools}
	if _, err := conv.Turn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	for i, m := range f.requests()[1].messages()[2:] {
		mm := m.(map[string]any)
		if mm["content"] != "in flight together" || mm["tool_call_id"] != fmt.Sprintf("call_%d", i) {
			t.Errorf("tool message %d = %v", i, mm)
		}
	}
}

func TestUnknownToolAndMalformedArguments(t *testing.T) {
	f := newFake(t,
		sse(
			callStart(0, "call_x", "no_such_tool"), callArgs(0, `{}`),
			callStart(1, "call_y", "echo"), callArgs(1, `{"text": "unterminated`),
			finish("tool_calls"),
		),
		answer("Sorry, I could not."),
	)
	var ev events
	conv := &Conversation{Client: f.client(nil), Tools: echoTools(), Sink: ev.sink}
	got, err := conv.Turn(context.Background(), "try")
	if err != nil {
		t.Fatalf("the turn failed: %v", err)
	}
	if got != "Sorry, I could not." {
		t.Errorf("answer = %q", got)
	}
	msgs := f.requests()[1].messages()
	for i, id := range []string{"call_x", "call_y"} {
		m := msgs[2+i].(map[string]any)
		if m["tool_call_id"] != id || !strings.HasPrefix(m["content"].(string), "Error:") {
			t.Errorf("tool message %d = %v, want an Error: for %s", i, m, id)
		}
	}
	if !strings.Contains(msgs[2].(map[string]any)["content"].(string), "unknown tool") {
		t.Errorf("unknown tool message: %v", msgs[2])
	}
	if !strings.Contains(msgs[3].(map[string]any)["content"].(string), "bad arguments") {
		t.Errorf("bad arguments message: %v", msgs[3])
	}
	// The malformed arguments are sent back as the model wrote them.
	calls := msgs[1].(map[string]any)["tool_calls"].([]any)
	if got := calls[1].(map[string]any)["function"].(map[string]any)["arguments"]; got != `{"text": "unterminated` {
		t.Errorf("arguments sent back = %q", got)
	}
	for _, e := range ev.ofType(EventToolResult) {
		if e.Error == "" {
			t.Errorf("result event without error: %+v", e)
		}
	}
}

func TestMaxStepsReached(t *testing.T) {
	f := newFake(t,
		toolAnswer("c1", "echo", `{"text":"1"}`),
		toolAnswer("c2", "echo", `{"text":"2"}`),
		toolAnswer("c3", "echo", `{"text":"3"}`),
	)
	tools := echoTools()
	var ev events
	conv := &Conversation{Client: f.client(nil), Tools: tools, MaxSteps: 3, Sink: ev.sink}
	_, err := conv.Turn(context.Background(), "loop")
	if !errors.Is(err, ErrMaxSteps) {
		t.Fatalf("err = %v, want ErrMaxSteps", err)
	}
	if !strings.Contains(err.Error(), "3 requests") {
		t.Errorf("error does not say the bound: %v", err)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	// The calls of the last answer are not run: nobody would read them.
	if n := len(tools.made()); n != 2 {
		t.Errorf("%d tool calls run, want 2", n)
	}
	if n := len(conv.Messages()); n != 0 {
		t.Errorf("the failed turn left %d messages", n)
	}
	if errs := ev.ofType(EventError); len(errs) != 1 || !strings.Contains(errs[0].Error, "MaxSteps") {
		t.Errorf("error events = %+v", errs)
	}
}

func TestMaxToolCallsPerTurn(t *testing.T) {
	f := newFake(t,
		sse(callStart(0, "c1", "echo"), callArgs(0, `{"text":"a"}`), callStart(1, "c2", "echo"), callArgs(1, `{"text":"b"}`), finish("tool_calls")),
		toolAnswer("c3", "echo", `{"text":"c"}`),
		answer("enough"),
	)
	tools := echoTools()
	conv := &Conversation{Client: f.client(nil), Tools: tools, MaxToolCalls: 2}
	if _, err := conv.Turn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if n := len(tools.made()); n != 2 {
		t.Errorf("%d calls run, want 2", n)
	}
	last := f.requests()[2].messages()
	m := last[len(last)-1].(map[string]any)
	if m["tool_call_id"] != "c3" || !strings.Contains(m["content"].(string), "limit of tool calls") {
		t.Errorf("the call past the limit answered %v", m)
	}
}

func TestConversationIntactAfterFailedTurn(t *testing.T) {
	f := newFake(t,
		answer("Hello."),
		// Turn 2 fails after a tool step: the server goes bad.
		toolAnswer("c1", "echo", `{"text":"x"}`),
		jsonReply(400, `{"error":{"message":"something is wrong","type":"invalid_request_error"}}`),
		// The same turn, tried again, succeeds.
		answer("Fine now."),
	)
	conv := &Conversation{Client: f.client(nil), Tools: echoTools()}
	if _, err := conv.Turn(context.Background(), "Hi"); err != nil {
		t.Fatal(err)
	}
	before := conv.Messages()
	if _, err := conv.Turn(context.Background(), "Again"); err == nil {
		t.Fatal("the turn did not fail")
	}
	if diff := cmp.Diff(before, conv.Messages()); diff != "" {
		t.Errorf("the failed turn changed the conversation (-before +after):\n%s", diff)
	}
	got, err := conv.Turn(context.Background(), "Again")
	if err != nil || got != "Fine now." {
		t.Fatalf("retried turn = %q, %v", got, err)
	}
	want := mustJSON(t, `[
		{"role":"user","content":"Hi"},
		{"role":"assistant","content":"Hello."},
		{"role":"user","content":"Again"}]`)
	if diff := cmp.Diff(want, any(f.requests()[3].messages())); diff != "" {
		t.Errorf("retried turn sent (-want +got):\n%s", diff)
	}
}

func TestReset(t *testing.T) {
	f := newFake(t, answer("one"), answer("two"))
	conv := &Conversation{Client: f.client(nil)}
	if _, err := conv.Turn(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	conv.Reset()
	if _, err := conv.Turn(context.Background(), "second"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(mustJSON(t, `[{"role":"user","content":"second"}]`), any(f.requests()[1].messages())); diff != "" {
		t.Errorf("after Reset (-want +got):\n%s", diff)
	}
	// No tools: no tools field at all.
	if _, ok := f.requests()[0].Body["tools"]; ok {
		t.Error("a conversation without tools sent a tools field")
	}
}

func TestCancelDuringTools(t *testing.T) {
	f := newFake(t, toolAnswer("c1", "block", `{}`))
	ctx, cancel := context.WithCancel(context.Background())
	tools := &fakeTools{fns: map[string]func(context.Context, map[string]any) (string, error){
		"block": func(ctx context.Context, _ map[string]any) (string, error) {
			cancel()
			<-ctx.Done()
			return "", ctx.Err()
		},
	}}
	conv := &Conversation{Client: f.client(nil), Tools: tools}
	_, err := conv.Turn(ctx, "go")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := len(conv.Messages()); n != 0 {
		t.Errorf("%d messages kept after a cancelled turn", n)
	}
}

func TestToolPanicBecomesError(t *testing.T) {
	f := newFake(t, toolAnswer("c1", "bad", `{}`), answer("ok"))
	tools := &fakeTools{fns: map[string]func(context.Context, map[string]any) (string, error){
		"bad": func(context.Context, map[string]any) (string, error) { panic("oops") },
	}}
	conv := &Conversation{Client: f.client(nil), Tools: tools}
	if _, err := conv.Turn(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	m := f.requests()[1].messages()[2].(map[string]any)
	if c := m["content"].(string); !strings.HasPrefix(c, "Error: bad: panic: oops") {
		t.Errorf("tool message = %q", c)
	}
}

func TestNonStreaming(t *testing.T) {
	f := newFake(t,
		jsonReply(200, completion(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"hi\"}"}}]}`, "tool_calls")),
		jsonReply(200, completion(`{"role":"assistant","content":"It said hi."}`, "stop")),
	)
	c := f.client(nil)
	c.NoStream = true
	var ev events
	conv := &Conversation{Client: c, Tools: echoTools(), Sink: ev.sink}
	got, err := conv.Turn(context.Background(), "say hi")
	if err != nil || got != "It said hi." {
		t.Fatalf("Turn = %q, %v", got, err)
	}
	for i, r := range f.requests() {
		if r.Body["stream"] != false {
			t.Errorf("request %d: stream = %v", i, r.Body["stream"])
		}
		if _, ok := r.Body["stream_options"]; ok {
			t.Errorf("request %d: stream_options sent without streaming", i)
		}
		if r.Header.Get("Accept") != "application/json" {
			t.Errorf("request %d: Accept = %q", i, r.Header.Get("Accept"))
		}
	}
	want := mustJSON(t, `[
		{"role":"user","content":"say hi"},
		{"role":"assistant","content":"","tool_calls":[{"id":"call_1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"hi\"}"}}]},
		{"role":"tool","content":"hi","tool_call_id":"call_1"}]`)
	if diff := cmp.Diff(want, any(f.requests()[1].messages())); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if texts := ev.ofType(EventText); len(texts) != 1 || texts[0].Text != "It said hi." {
		t.Errorf("text events = %+v", texts)
	}
	if got := conv.Usage(); got.TotalTokens != 30 {
		t.Errorf("usage = %+v", got)
	}
}
