package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestWholeAnswerCallType gives a non-streamed tool call without a "type"
// the type "function", as streamed calls have.
func TestWholeAnswerCallType(t *testing.T) {
	f := newFake(t, jsonReply(200, completion(`{"role":"assistant","content":null,"tool_calls":[
		{"id":"call_1","function":{"name":"echo","arguments":"{\"text\":\"x\"}"}},
		{"id":"call_2","type":"function","function":{"name":"add","arguments":""}}]}`, "tool_calls")))
	c := f.client(nil)
	c.NoStream = true
	resp, err := c.Complete(context.Background(), Request{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{
		{ID: "call_1", Type: "function", Function: FunctionCall{Name: "echo", Arguments: `{"text":"x"}`}},
		{ID: "call_2", Type: "function", Function: FunctionCall{Name: "add", Arguments: "{}"}},
	}
	if diff := cmp.Diff(want, resp.Message.ToolCalls); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
}

// TestStreamedModelAndFinishReason keeps the model and finish reason of a
// stream against later chunks that send them empty, as some servers do
// with their usage chunk.
func TestStreamedModelAndFinishReason(t *testing.T) {
	f := newFake(t, rawSSE(`data: {"object":"chat.completion.chunk","model":"served-1","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}

data: {"object":"chat.completion.chunk","model":"served-1","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}

data: {"object":"chat.completion.chunk","model":"","choices":[{"index":0,"delta":{},"finish_reason":""}],"usage":{"prompt_tokens":4,"completion_tokens":1,"total_tokens":5}}

data: [DONE]

`))
	resp, err := f.client(nil).Complete(context.Background(), Request{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{
		Message:      Message{Role: RoleAssistant, Content: "hi"},
		FinishReason: "length",
		Usage:        &Usage{PromptTokens: 4, CompletionTokens: 1, TotalTokens: 5},
		Model:        "served-1",
	}
	if diff := cmp.Diff(want, resp); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
}

// TestStrayJSONLinesInStream passes over JSON objects sent outside of data
// lines that are not errors: only an "error" that is not null, or
// "object":"error", makes one an error answer.
func TestStrayJSONLinesInStream(t *testing.T) {
	for _, stray := range []string{`{"object":"chat.completion.chunk"}`, `{"error":null}`, `{}`} {
		f := newFake(t, rawSSE(stray+"\n\ndata: "+text("hi")+"\n\ndata: [DONE]\n\n"))
		resp, err := f.client(nil).Complete(context.Background(), Request{}, nil)
		if err != nil {
			t.Errorf("%s: %v", stray, err)
			continue
		}
		if resp.Message.Content != "hi" {
			t.Errorf("%s: content %q, want %q", stray, resp.Message.Content, "hi")
		}
	}
}

// TestNoIdleBound streams an answer with the idle watchdog off
// (StreamIdleTimeout below zero): a watchdog with no time would cancel
// the request at once. The server sends each piece of the answer only
// once the sink has received the one before, so the request lasts.
func TestNoIdleBound(t *testing.T) {
	const pieces = 20
	got := make(chan struct{}, pieces)
	paced := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range pieces {
			fmt.Fprintf(w, "data: %s\n\n", text(fmt.Sprint(i)))
			w.(http.Flusher).Flush()
			select {
			case <-got:
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", finish("stop"))
	}
	f := newFake(t, paced)
	c := f.client(nil)
	c.StreamIdleTimeout = -1
	c.Retry.MaxRetries = -1
	resp, err := c.Complete(context.Background(), Request{}, func(ev Event) {
		if ev.Type == EventText {
			got <- struct{}{}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := range pieces {
		fmt.Fprint(&want, i)
	}
	if resp.Message.Content != want.String() {
		t.Errorf("content %q, want %q", resp.Message.Content, want.String())
	}
}

// cutShort answers a whole answer whose body ends before its
// Content-Length: reading it fails with an unexpected EOF.
func cutShort(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", "1000")
	w.WriteHeader(200)
	w.Write([]byte(`{"id":"chatcmpl-1","choi`))
}

// TestWholeAnswerCutShortRetried retries a non-streamed answer whose body
// was cut: nothing of it reached the sink.
func TestWholeAnswerCutShortRetried(t *testing.T) {
	f := newFake(t, cutShort, jsonReply(200, completion(`{"role":"assistant","content":"hi"}`, "stop")))
	s := &sleeps{}
	c := f.client(s)
	c.NoStream = true
	c.Retry.BaseDelay = time.Millisecond
	c.Retry.MaxDelay = time.Millisecond
	var ev events
	resp, err := c.Complete(context.Background(), Request{}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "hi" || len(f.requests()) != 2 {
		t.Errorf("content %q after %d requests, want %q after 2", resp.Message.Content, len(f.requests()), "hi")
	}
	retries := ev.ofType(EventRetry)
	if len(retries) != 1 || !strings.Contains(retries[0].Error, "connection: unexpected EOF") {
		t.Errorf("retry events %+v, want one for an unexpected EOF", retries)
	}
}

// attemptLog is the timings of a "chat request" log record.
type attemptLog struct {
	Status     int           `json:"status"`
	Duration   time.Duration `json:"duration"`
	FirstByte  time.Duration `json:"first_byte"`
	FirstToken time.Duration `json:"first_token"`
	Error      string        `json:"error"`
}

// attemptLogs returns the "chat request" records of a JSON log.
func attemptLogs(t *testing.T, log []byte) []attemptLog {
	t.Helper()
	var out []attemptLog
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var rec struct {
			Msg string `json:"msg"`
			attemptLog
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("log line %s: %v", line, err)
		}
		if rec.Msg == "chat request" {
			out = append(out, rec.attemptLog)
		}
	}
	return out
}

// TestFirstTokenLogged logs the time to the first token of an answer,
// streamed or whole, measured from the same start as the time to the first
// byte and the whole duration, so it lies between them; a failed answer
// has none.
func TestFirstTokenLogged(t *testing.T) {
	whole := jsonReply(200, completion(`{"role":"assistant","content":"hi"}`, "stop"))
	for _, tc := range []struct {
		name     string
		noStream bool
		replies  []reply
	}{
		{"stream", false, []reply{answer("hi")}},
		{"stream of a tool call", false, []reply{toolAnswer("call_1", "echo", `{}`)}},
		{"whole", true, []reply{whole}},
		{"whole after a cut", true, []reply{cutShort, whole}},
	} {
		f := newFake(t, tc.replies...)
		c := f.client(nil)
		c.NoStream = tc.noStream
		var buf bytes.Buffer
		c.Logger = slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
		if _, err := c.Complete(context.Background(), Request{}, nil); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		logs := attemptLogs(t, buf.Bytes())
		if len(logs) != len(tc.replies) {
			t.Fatalf("%s: %d attempts logged, want %d:\n%s", tc.name, len(logs), len(tc.replies), buf.Bytes())
		}
		for i, l := range logs {
			failed := i < len(logs)-1
			if l.Status != 200 || l.FirstByte <= 0 || l.Duration < l.FirstByte || failed != (l.Error != "") {
				t.Errorf("%s: attempt %d logged %+v", tc.name, i+1, l)
			}
			switch {
			case failed && l.FirstToken != 0:
				t.Errorf("%s: failed attempt %d logged first_token %v, want none", tc.name, i+1, l.FirstToken)
			case !failed && (l.FirstToken < l.FirstByte || l.FirstToken > l.Duration):
				t.Errorf("%s: attempt %d logged first_token %v, not between first_byte %v and duration %v", tc.name, i+1, l.FirstToken, l.FirstByte, l.Duration)
			}
		}
	}
}

// TestIdleStreamRetried retries a stream that went silent before any text:
// the second attempt's answer is the turn's.
func TestIdleStreamRetried(t *testing.T) {
	stall := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	f := newFake(t, stall, answer("hi"))
	s := &sleeps{}
	c := f.client(s)
	c.StreamIdleTimeout = 20 * time.Millisecond
	c.Retry = RetryPolicy{MaxRetries: 1, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
	var ev events
	resp, err := c.Complete(context.Background(), Request{}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "hi" || len(f.requests()) != 2 {
		t.Errorf("content %q after %d requests, want %q after 2", resp.Message.Content, len(f.requests()), "hi")
	}
	want := []Event{
		{Type: EventRetry, Attempt: 1, Duration: s.all()[0], Error: "no data from the server for 20ms"},
		{Type: EventText, Text: "hi"},
	}
	if diff := cmp.Diff(want, ev.all()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
