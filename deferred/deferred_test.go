package deferred_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
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

// wordTools returns the toolbox with n tools more, tool_<k>, each found by
// the one word of its description that no other tool has, word<k>.
func wordTools(t *testing.T, n int) *registry.Registry {
	t.Helper()
	var es []registry.Entry
	for k := range n {
		name := fmt.Sprintf("tool_%d", k)
		es = append(es, registry.Entry{ID: name, Name: name, Description: fmt.Sprintf("Answers with zeta%d.", k),
			Parameters: `{"type":"object","properties":{},"additionalProperties":false}`, Timeout: 1e9,
			Bind: func(string) (registry.Run, error) {
				return func(context.Context) (string, error) { return name, nil }, nil
			}})
	}
	reg, err := toolreg.Toolbox().With(es...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// find searches d for the tool found by word k of wordTools, and checks
// that the search found it.
func find(t *testing.T, d *deferred.Set, k int) string {
	t.Helper()
	res := d.Call(context.Background(), "search_tools", fmt.Sprintf(`{"query":"zeta%d"}`, k))
	if want := fmt.Sprintf("1. tool_%d", k); res.Failed() || !strings.Contains(res.Text, want) {
		t.Fatalf("searching for tool_%d: %q", k, res.Text)
	}
	return res.Text
}

func TestLoadedBounded(t *testing.T) {
	d, err := deferred.New(wordTools(t, 4), deferred.Options{Pin: []string{"now"}, Results: 1, MaxLoaded: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	find(t, d, 0)
	if text := find(t, d, 1); strings.Contains(text, "unloaded") {
		t.Errorf("a search within the bound says it unloaded tools: %q", text)
	}
	// tool_0, used since tool_1 was found, outlives it; the pinned
	// tool, used least recently, is never unloaded.
	if res := d.Call(ctx, "tool_0", `{}`); res.Failed() {
		t.Fatalf("tool_0: %q", res.Text)
	}
	text := find(t, d, 2)
	if want := "At most 3 tools stay loaded: to make room, these were unloaded, the least recently used first: tool_1. Search again to call them."; !strings.Contains(text, want) {
		t.Errorf("the search past the bound: %q, want it to say %q", text, want)
	}
	if diff := cmp.Diff([]string{"search_tools", "now", "tool_0", "tool_2"}, specNames(d.Specs())); diff != "" {
		t.Errorf("specs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"now", "tool_0", "tool_2"}, d.Loaded()); diff != "" {
		t.Errorf("loaded (-want +got):\n%s", diff)
	}
	if res := d.Call(ctx, "tool_1", `{}`); !res.Failed() || !strings.Contains(res.Text, "no such tool is loaded") {
		t.Errorf("calling the unloaded tool_1: %q, want it refused", res.Text)
	}
	// Found again, it is loaded again, in place of the oldest.
	find(t, d, 1)
	if diff := cmp.Diff([]string{"now", "tool_2", "tool_1"}, d.Loaded()); diff != "" {
		t.Errorf("loaded after finding tool_1 again (-want +got):\n%s", diff)
	}
}

func TestLoadedBoundedOverManySearches(t *testing.T) {
	const tools = 100
	d, err := deferred.New(wordTools(t, tools), deferred.Options{Pin: []string{"now", "weather"}})
	if err != nil {
		t.Fatal(err)
	}
	for k := range tools {
		find(t, d, k)
		if n := len(d.Specs()); n > 1+deferred.DefaultMaxLoaded {
			t.Fatalf("after %d searches: %d specs, more than search_tools and %d loaded tools", k+1, n, deferred.DefaultMaxLoaded)
		}
	}
	got := d.Loaded()
	want := []string{"now", "weather"}
	for k := tools - deferred.DefaultMaxLoaded + 2; k < tools; k++ {
		want = append(want, fmt.Sprintf("tool_%d", k))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loaded after %d searches (-want +got):\n%s", tools, diff)
	}
}

func TestMaxLoadedLimits(t *testing.T) {
	reg := wordTools(t, 0)
	pin := []string{"now", "weather", "now"} // two tools
	for _, tc := range []struct {
		max, results int
		want         string // the error, or "" for none
	}{
		{max: 7, results: 5},
		{max: 8, results: 5},
		{max: 6, results: 5, want: "deferred: MaxLoaded 6 is less than the 2 pinned tools and one search's 5 results"},
		{max: 2, results: 1, want: "deferred: MaxLoaded 2 is less than the 2 pinned tools and one search's 1 results"},
		{max: 0, results: 5},
		{max: -1, results: 5},
	} {
		_, err := deferred.New(reg, deferred.Options{Pin: pin, Results: tc.results, MaxLoaded: tc.max})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("MaxLoaded %d, Results %d: error %q, want %q", tc.max, tc.results, got, tc.want)
		}
	}
	// The default makes room for the pinned tools and one search's
	// results: 40 pinned, 45 loaded at most.
	many := wordTools(t, 50)
	var pins []string
	for k := range 40 {
		pins = append(pins, fmt.Sprintf("tool_%d", k))
	}
	d, err := deferred.New(many, deferred.Options{Pin: pins})
	if err != nil {
		t.Fatal(err)
	}
	for k := 40; k < 50; k++ {
		find(t, d, k)
	}
	if got, want := len(d.Loaded()), 45; got != want {
		t.Errorf("40 pinned tools and 10 found, default bound: %d loaded, want %d", got, want)
	}
}

func TestRebase(t *testing.T) {
	d, err := deferred.New(wordTools(t, 3), deferred.Options{Pin: []string{"now", "tool_0"}, Results: 1, MaxLoaded: 4})
	if err != nil {
		t.Fatal(err)
	}
	find(t, d, 1)
	find(t, d, 2)
	// The new registry lost tool_0 (pinned) and tool_1 (found).
	smaller, err := toolreg.Toolbox().With(registry.Entry{ID: "tool_2", Name: "tool_2", Description: "Answers with zeta2.",
		Parameters: `{"type":"object","properties":{},"additionalProperties":false}`, Timeout: 1e9,
		Bind: func(string) (registry.Run, error) {
			return func(context.Context) (string, error) { return "tool_2 anew", nil }, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	n, err := d.Rebase(smaller)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"search_tools", "now", "tool_2"}, specNames(n.Specs())); diff != "" {
		t.Errorf("specs after the rebase (-want +got):\n%s", diff)
	}
	if res := n.Call(context.Background(), "tool_2", `{}`); res.Failed() || res.Text != "tool_2 anew" {
		t.Errorf("tool_2 after the rebase: %q", res.Text)
	}
	// The bound and the pin carry over: now stays, tool_2 is unloaded
	// for the next three.
	for _, w := range []string{"weather forecast", "calculator arithmetic", "disk usage space"} {
		n.Call(context.Background(), "search_tools", fmt.Sprintf(`{"query":%q}`, w))
	}
	got := n.Loaded()
	if len(got) != 4 || got[0] != "now" || slices.Contains(got, "tool_2") {
		t.Errorf("loaded after three more searches: %v, want now first, then the three found", got)
	}
	if _, err := d.Rebase(wordTools(t, 0)); err != nil {
		t.Errorf("rebasing on a registry without search_tools: %v", err)
	}
}
