package deferred_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sashabaranov/go-openai"

	"github.com/toolreg/toolreg"
	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/deferred"
	"github.com/toolreg/toolreg/registry"
)

func specNames(specs []openai.Tool) []string {
	var out []string
	for _, s := range specs {
		out = append(out, s.Function.Name)
	}
	return out
}

func TestLoading(t *testing.T) {
	reg := toolreg.Toolbox()
	d, err := deferred.New(reg, deferred.Options{Pin: []string{"now"}, Results: 2})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"search_tools", "now"}, specNames(d.Specs())); diff != "" {
		t.Errorf("specs before a search (-want +got):\n%s", diff)
	}
	ctx := context.Background()
	// A tool not loaded is unknown, and the search is suggested.
	res := d.Call(ctx, "calculator", `{"expression":"1+1"}`)
	if !res.Failed() || !strings.Contains(res.Text, "unknown tool") || !strings.Contains(res.Text, "search_tools") {
		t.Errorf("calling a tool not loaded: %q", res.Text)
	}
	res = d.Call(ctx, "search_tools", `{"query":"compute 2+2 arithmetic"}`)
	if res.Failed() || !strings.Contains(res.Text, "1. calculator\n") || !strings.Contains(res.Text, `"expression"`) {
		t.Fatalf("search: %q", res.Text)
	}
	// Loaded: at the end, in order, the earlier specs unchanged.
	got := specNames(d.Specs())
	if len(got) < 3 || !cmp.Equal(got[:3], []string{"search_tools", "now", "calculator"}) {
		t.Errorf("specs after a search: %v", got)
	}
	if res := d.Call(ctx, "calculator", `{"expression":"1+1"}`); res.Failed() || res.Text != "2" {
		t.Errorf("calling a loaded tool: %q", res.Text)
	}
	// A second search that finds a loaded tool says so and adds nothing twice.
	before := d.Loaded()
	res = d.Call(ctx, "search_tools", `{"query":"calculator"}`)
	if !strings.Contains(res.Text, "calculator (loaded before)") {
		t.Errorf("second search: %q", res.Text)
	}
	if diff := cmp.Diff(before, d.Loaded()); diff != "" {
		t.Errorf("loaded changed (-before +after):\n%s", diff)
	}
	// Nothing found.
	if res := d.Call(ctx, "search_tools", `{"query":"zzyzx"}`); res.Failed() || !strings.HasPrefix(res.Text, "No tool matches") {
		t.Errorf("no match: %q", res.Text)
	}
}

func TestSearchArguments(t *testing.T) {
	d, err := deferred.New(toolreg.Toolbox(), deferred.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{``, `{}`, `{"query":"  "}`, `{"query":1}`, `{"q":"x"}`, `[]`, `{"query":"` + strings.Repeat("a", 1001) + `"}`} {
		res := d.Call(context.Background(), "search_tools", args)
		if !res.Failed() || !strings.HasPrefix(res.Text, "Error:") {
			t.Errorf("args %.40q: %q, want an error", args, res.Text)
		}
	}
	// At the limit of the query's length.
	if res := d.Call(context.Background(), "search_tools", `{"query":"`+strings.Repeat("a", 1000)+`"}`); res.Failed() {
		t.Errorf("a query of 1000 bytes: %q", res.Text)
	}
}

func TestPinUnknown(t *testing.T) {
	if _, err := deferred.New(toolreg.Toolbox(), deferred.Options{Pin: []string{"now", "nosuch"}}); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("pinning an unknown tool: %v", err)
	}
	taken, err := toolreg.Toolbox().With(registry.Entry{ID: "search_tools", Name: "search_tools", Description: "x", Parameters: `{"type":"object"}`, Timeout: 1,
		Bind: func(string) (registry.Run, error) {
			return func(context.Context) (string, error) { return "", nil }, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := deferred.New(taken, deferred.Options{}); err == nil {
		t.Error("a registry with its own search_tools: no error")
	}
}

func TestStrict(t *testing.T) {
	d, err := deferred.New(toolreg.Toolbox().WithStrict(true), deferred.Options{Pin: []string{"weather"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range d.Specs() {
		if !s.Function.Strict {
			t.Errorf("%s: not strict in a strict registry", s.Function.Name)
		}
	}
}

// scriptedModel is an OpenAI-compatible endpoint on loopback that plays a
// model: it searches for a tool, calls what the search found, and answers
// with the tool's result. It records the tools of each request.
type scriptedModel struct {
	mu    sync.Mutex
	tools [][]string
}

func (m *scriptedModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		Tools []openai.Tool `json:"tools"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	m.tools = append(m.tools, specNames(req.Tools))
	step := len(m.tools)
	m.mu.Unlock()
	last := req.Messages[len(req.Messages)-1]
	var msg map[string]any
	switch step {
	case 1:
		msg = toolCall("c1", "search_tools", `{"query":"count the words of a text"}`)
	case 2:
		if !strings.Contains(last.Content, "1. word_count") {
			msg = map[string]any{"role": "assistant", "content": "the search did not find word_count: " + last.Content}
			break
		}
		msg = toolCall("c2", "word_count", `{"text":"one two three"}`)
	default:
		msg = map[string]any{"role": "assistant", "content": "The tool says: " + last.Content}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": fmt.Sprint("r", step), "object": "chat.completion", "model": "scripted",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
	})
}

func toolCall(id, name, args string) map[string]any {
	return map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{
		"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}}}
}

// TestEndToEnd: the model searches, gets the tool, calls it, answers; each
// request offers the tools of the one before and what the search loaded.
func TestEndToEnd(t *testing.T) {
	model := &scriptedModel{}
	srv := httptest.NewServer(model)
	defer srv.Close()
	d, err := deferred.New(toolreg.Toolbox(), deferred.Options{Pin: []string{"now"}})
	if err != nil {
		t.Fatal(err)
	}
	conv := &chat.Conversation{Client: &chat.Client{BaseURL: srv.URL, Model: "scripted", NoStream: true}, Tools: d}
	answer, err := conv.Turn(context.Background(), "How many words are in 'one two three'?")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(answer, `"words":3`) {
		t.Errorf("answer %q, want the word count", answer)
	}
	if len(model.tools) != 3 {
		t.Fatalf("%d requests, want 3", len(model.tools))
	}
	if diff := cmp.Diff([]string{"search_tools", "now"}, model.tools[0]); diff != "" {
		t.Errorf("first request's tools (-want +got):\n%s", diff)
	}
	second := model.tools[1]
	if len(second) < 3 || !cmp.Equal(second[:2], model.tools[0]) || !strings.Contains(strings.Join(second, " "), "word_count") {
		t.Errorf("second request's tools %v: want those of the first, then what the search found, word_count among them", second)
	}
	if diff := cmp.Diff(second, model.tools[2]); diff != "" {
		t.Errorf("third request's tools changed (-second +third):\n%s", diff)
	}
}

// TestConcurrent: a conversation runs its tool calls concurrently; the
// loaded set stays consistent (go test -race).
func TestConcurrent(t *testing.T) {
	d, err := deferred.New(toolreg.Toolbox(), deferred.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, q := range []string{"weather", "count words", "disk space", "what time", "calculate", "web search", "ping a url", "weather"} {
		wg.Go(func() {
			d.Call(context.Background(), "search_tools", `{"query":"`+q+`"}`)
			d.Specs()
		})
	}
	wg.Wait()
	loaded := d.Loaded()
	specs := specNames(d.Specs())
	if diff := cmp.Diff(append([]string{"search_tools"}, loaded...), specs); diff != "" {
		t.Errorf("specs and loaded tools disagree (-loaded +specs):\n%s", diff)
	}
	seen := map[string]bool{}
	for _, n := range loaded {
		if seen[n] {
			t.Errorf("%s loaded twice", n)
		}
		seen[n] = true
	}
}
