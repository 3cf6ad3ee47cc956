package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sashabaranov/go-openai"
	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// testKey is the API key of the fake server's clients. Tests check that it
// never shows in errors, events or logs.
const testKey = "sk-test-4f9c2b7e1d8a"

const testModel = "test-model"

// fakeServer is an OpenAI-compatible chat completions endpoint on loopback
// that answers each request with the next reply of its script and records
// what it was sent.
type fakeServer struct {
	t   testing.TB
	srv *httptest.Server

	mu     sync.Mutex
	script []reply
	reqs   []recorded
}

// reply writes the answer to one request.
type reply func(w http.ResponseWriter, r *http.Request)

// recorded is one request as the server received it.
type recorded struct {
	Path   string
	Header http.Header
	Raw    []byte
	// Body is the generic decoding of the body, so tests see which keys
	// were sent.
	Body map[string]any
}

// messages returns the "messages" of the request.
func (r recorded) messages() []any {
	m, _ := r.Body["messages"].([]any)
	return m
}

func newFake(t testing.TB, script ...reply) *fakeServer {
	f := &fakeServer{t: t, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("fake server: reading request: %v", err)
	}
	rec := recorded{Path: r.URL.Path, Header: r.Header.Clone(), Raw: raw}
	if err := json.Unmarshal(raw, &rec.Body); err != nil {
		f.t.Errorf("fake server: request body is not JSON: %v\n%s", err, raw)
	}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, rec)
	var rep reply
	if n < len(f.script) {
		rep = f.script[n]
	}
	f.mu.Unlock()
	if r.URL.Path != "/v1/chat/completions" {
		f.t.Errorf("fake server: request to %s", r.URL.Path)
	}
	if rep == nil {
		f.t.Errorf("fake server: unexpected request %d: %s", n+1, raw)
		http.Error(w, `{"error":{"message":"unexpected request"}}`, http.StatusTeapot)
		return
	}
	rep(w, r)
}

// requests returns what the server was sent so far.
func (f *fakeServer) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// sleeps records the waits of a client's retry policy without waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// client returns a client of the server whose retries do not wait.
func (f *fakeServer) client(s *sleeps) *Client {
	if s == nil {
		s = &sleeps{}
	}
	return &Client{
		BaseURL:    f.srv.URL + "/v1",
		APIKey:     testKey,
		Model:      testModel,
		HTTPClient: f.srv.Client(),
		sleep:      s.sleep,
	}
}

// --- replies ---

// sse answers with a stream of the given chunks, each a JSON object, then
// "data: [DONE]".
func sse(chunks ...string) reply {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl, _ := w.(http.Flusher)
		for _, c := range chunks {
			fmt.Fprintf(w, "data: %s\n\n", c)
			if fl != nil {
				fl.Flush()
			}
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}
}

// rawSSE answers with body as an event stream, as it is.
func rawSSE(body string) reply {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
	}
}

// respond answers with the given status, content type, body and header
// pairs.
func respond(status int, contentType, body string, header ...string) reply {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// jsonReply answers with a JSON body.
func jsonReply(status int, body string, header ...string) reply {
	return respond(status, "application/json", body, header...)
}

// resetAfter starts a 200 event stream, sends raw, and resets the
// connection (TCP RST) instead of finishing the answer.
func resetAfter(raw string) reply {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		if raw != "" {
			fmt.Fprintf(buf, "%x\r\n%s\r\n", len(raw), raw)
		}
		buf.Flush()
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.SetLinger(0)
		}
		conn.Close()
	}
}

// --- chunks, in the wire format of OpenAI's chat.completion.chunk ---

// chunk wraps a delta object into a chunk, with an optional finish reason.
func chunk(delta string, finish ...string) string {
	fr := "null"
	if len(finish) > 0 {
		fr = fmt.Sprintf("%q", finish[0])
	}
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":%q,"choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}]}`, testModel, delta, fr)
}

// text is a chunk with a piece of content.
func text(s string) string {
	b, _ := json.Marshal(s)
	return chunk(fmt.Sprintf(`{"content":%s}`, b))
}

// finish is the last chunk of a choice.
func finish(reason string) string { return chunk(`{}`, reason) }

// usage is the chunk sent last when stream_options.include_usage is set.
func usage(prompt, completion int) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":%q,"choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`, testModel, prompt, completion, prompt+completion)
}

// callStart is the first delta of a tool call.
func callStart(index int, id, name string) string {
	return chunk(fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":""}}]}`, index, id, name))
}

// callArgs is a continuation delta with a piece of a call's arguments.
func callArgs(index int, piece string) string {
	b, _ := json.Marshal(piece)
	return chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, index, b))
}

// completion is a whole (non-streamed) answer with the given message.
func completion(message, finishReason string) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":%q,"choices":[{"index":0,"message":%s,"logprobs":null,"finish_reason":%q}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, testModel, message, finishReason)
}

// answer is a streamed plain answer.
func answer(s string) reply { return sse(text(s), finish("stop")) }

// toolAnswer is a streamed answer calling one tool.
func toolAnswer(id, name, args string) reply {
	return sse(callStart(0, id, name), callArgs(0, args), finish("tool_calls"))
}

// --- tools ---

// fakeTools is a registry.ToolSet whose tools are Go functions. Like the registry, it
// answers an unknown name or arguments that are not a JSON object with an
// "Error:" result.
type fakeTools struct {
	fns map[string]func(ctx context.Context, args map[string]any) (string, error)

	mu    sync.Mutex
	calls []madeCall
}

// madeCall is one call a fakeTools received.
type madeCall struct {
	Name, Args string
	Call       tool.Call
	HasCall    bool
}

func (f *fakeTools) Specs() []openai.Tool {
	var out []openai.Tool
	for _, name := range sortedKeys(f.fns) {
		out = append(out, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name:        name,
			Description: "the " + name + " tool",
			Parameters:  json.RawMessage(`{"type":"object","properties":{}}`),
		}})
	}
	return out
}

func (f *fakeTools) Call(ctx context.Context, name, args string) registry.Result {
	start := time.Now()
	c, ok := tool.CallFrom(ctx)
	f.mu.Lock()
	f.calls = append(f.calls, madeCall{Name: name, Args: args, Call: c, HasCall: ok})
	f.mu.Unlock()
	fn, ok := f.fns[name]
	if !ok {
		res := registry.Fail(&registry.Error{Tool: name, Kind: registry.KindUnknownTool,
			Err: fmt.Errorf("available tools: %s", strings.Join(sortedKeys(f.fns), ", "))})
		res.Duration = time.Since(start)
		return res
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(args), &m); err != nil {
		res := registry.Fail(&registry.Error{Tool: name, Kind: registry.KindArguments, Err: err})
		res.Duration = time.Since(start)
		return res
	}
	out, err := fn(ctx, m)
	if err != nil {
		res := registry.Fail(&registry.Error{Tool: name, Kind: registry.KindTool, Err: err})
		res.Duration = time.Since(start)
		return res
	}
	return registry.Result{Text: out, Duration: time.Since(start)}
}

func (f *fakeTools) made() []madeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]madeCall(nil), f.calls...)
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

// echoTools has "echo", which answers its "text" argument, and "add",
// which adds "a" and "b".
func echoTools() *fakeTools {
	return &fakeTools{fns: map[string]func(context.Context, map[string]any) (string, error){
		"echo": func(_ context.Context, a map[string]any) (string, error) {
			s, _ := a["text"].(string)
			return s, nil
		},
		"add": func(_ context.Context, a map[string]any) (string, error) {
			x, _ := a["a"].(float64)
			y, _ := a["b"].(float64)
			return fmt.Sprint(x + y), nil
		},
	}}
}

// --- helpers ---

// mustJSON decodes s, failing the test if it is not JSON.
func mustJSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON in test: %v\n%s", err, s)
	}
	return v
}

// events collects the events of a conversation.
type events struct {
	mu sync.Mutex
	ev []Event
}

func (e *events) sink(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ev = append(e.ev, ev)
}

func (e *events) all() []Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Event(nil), e.ev...)
}

func (e *events) ofType(t EventType) []Event {
	var out []Event
	for _, ev := range e.all() {
		if ev.Type == t {
			out = append(out, ev)
		}
	}
	return out
}

// noKey fails the test if the API key shows in s.
func noKey(t testing.TB, what, s string) {
	t.Helper()
	if strings.Contains(s, testKey) {
		t.Errorf("the API key shows in %s: %s", what, s)
	}
}

// readLines splits s into lines.
func readLines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

var errBoom = errors.New("boom")
