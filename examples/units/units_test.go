package units

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolreg/toolreg/chat"
)

// fakeModel is an OpenAI-compatible chat completions endpoint on loopback
// that answers with the given bodies in turn and records the requests.
type fakeModel struct {
	srv     *httptest.Server
	mu      sync.Mutex
	replies []string
	bodies  []map[string]any
}

func newFakeModel(t *testing.T, replies ...string) *fakeModel {
	f := &fakeModel{replies: replies}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		f.bodies = append(f.bodies, body)
		if len(f.replies) == 0 {
			http.Error(w, `{"error":{"message":"no more replies"}}`, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, f.replies[0])
		f.replies = f.replies[1:]
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeModel) client() *chat.Client {
	return &chat.Client{BaseURL: f.srv.URL + "/v1", APIKey: "sk-test", Model: "m", NoStream: true, HTTPClient: f.srv.Client()}
}

func completion(message string) string {
	return `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":` + message + `,"finish_reason":"stop"}]}`
}

func ask(t *testing.T, h http.Handler, body string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/ask", strings.NewReader(body)))
	return rec
}

// TestAsk answers a question through the chat loop: the model calls
// convert (sending its array as a JSON string, which the registry
// repairs), reads the result, and answers.
func TestAsk(t *testing.T) {
	f := newFakeModel(t,
		completion(`{"role":"assistant","content":"","tool_calls":[{"id":"call_1","type":"function","function":{"name":"convert","arguments":"{\"value\":5,\"from\":\"km\",\"to\":\"[\\\"m\\\"]\"}"}}]}`),
		completion(`{"role":"assistant","content":"5 km is 5000 m."}`),
	)
	h, err := Handler(f.client(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := ask(t, h, `{"question":"How many meters is 5 km?"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var got map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"answer": "5 km is 5000 m."}, got); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
	if len(f.bodies) != 2 {
		t.Fatalf("%d model requests, want 2", len(f.bodies))
	}
	msgs := f.bodies[1]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	want := map[string]any{"role": "tool", "tool_call_id": "call_1", "content": `{"meters":5000,"values":[{"unit":"m","value":5000}]}`}
	if diff := cmp.Diff(want, last); diff != "" {
		t.Errorf("tool message (-want +got):\n%s", diff)
	}
	if tools := f.bodies[0]["tools"].([]any); len(tools) != 2 {
		t.Errorf("the model was offered %d tools, want 2", len(tools))
	}
}

func TestAskRefused(t *testing.T) {
	f := newFakeModel(t) // No replies: the endpoint answers 404.
	h, err := Handler(f.client(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, body string
		status     int
	}{
		{"not JSON", `question?`, http.StatusBadRequest},
		{"no question", `{}`, http.StatusBadRequest},
		{"too long", `{"question":"` + strings.Repeat("x", MaxQuestion) + `"}`, http.StatusBadRequest},
		{"the model fails", `{"question":"hi"}`, http.StatusBadGateway},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rec := ask(t, h, tc.body); rec.Code != tc.status {
				t.Errorf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
		})
	}
}

// TestMCP lists and calls the tools with the official Go SDK's client over
// streamable HTTP.
func TestMCP(t *testing.T) {
	h, err := Handler(newFakeModel(t).client(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()
	mcpClient := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := mcpClient.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: srv.Client()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if diff := cmp.Diff([]string{"convert", "shout"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		args    map[string]any
		text    string
		isError bool
	}{
		{map[string]any{"text": "hi", "marks": 3}, "HI!!!", false},
		{map[string]any{"text": "hi"}, "HI!", false},
		{map[string]any{"text": "hi", "marks": 6}, `Error: shout: bad arguments: field "marks": expected integer from 1 to 5, got 6`, true},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shout", Arguments: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		got := res.Content[0].(*mcp.TextContent).Text
		if got != tc.text || res.IsError != tc.isError {
			t.Errorf("shout %v = %q (isError %v), want %q (%v)", tc.args, got, res.IsError, tc.text, tc.isError)
		}
	}
}

// TestMCPToken checks that with a token, MCP requests without it are
// refused and requests with it are served.
func TestMCPToken(t *testing.T) {
	h, err := Handler(newFakeModel(t).client(), "s3cret", nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for _, tc := range []struct {
		auth   string
		status int
	}{
		{"", http.StatusUnauthorized},
		{"Bearer wrong", http.StatusUnauthorized},
		{"Bearer s3cret", http.StatusOK},
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(list))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("Authorization %q: status %d, want %d", tc.auth, resp.StatusCode, tc.status)
		}
	}
}
