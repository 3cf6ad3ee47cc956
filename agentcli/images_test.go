package agentcli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestImagesFor(t *testing.T) {
	tests := []struct {
		mode    imagesMode
		baseURL string
		want    bool
	}{
		{"auto", "https://api.openai.com/v1", true},
		{"auto", "https://api.openai.com/v1/", true},
		{"auto", "https://api.moonshot.cn/v1", true},
		{"auto", "https://api.deepseek.com/v1", false},
		{"auto", "http://localhost:11434/v1", false},
		{"auto", "http://127.0.0.1:9/v1", false},
		{"off", "https://api.openai.com/v1", false},
		{"on", "http://127.0.0.1:9/v1", true},
		{"", "https://api.openai.com/v1", true},
	}
	for _, tt := range tests {
		if got := imagesFor(tt.mode, tt.baseURL); got != tt.want {
			t.Errorf("imagesFor(%q, %q) = %v, want %v", tt.mode, tt.baseURL, got, tt.want)
		}
	}
	var m imagesMode
	if err := m.Set("yes"); err == nil {
		t.Error("-images yes was taken")
	}
}

// screenshotServer is an MCP server over HTTP, in process, whose tool shot
// answers text and a PNG.
func screenshotServer(t *testing.T, pic []byte) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "img", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "shot", Description: "A screenshot of the page.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "the page"},
				&mcp.ImageContent{MIMEType: "image/png", Data: pic},
			}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

// chatEndpoint is an OpenAI chat completions endpoint on loopback that
// first calls img__shot, then answers; it keeps the requests' messages.
type chatEndpoint struct {
	mu   sync.Mutex
	msgs [][]any
}

func (e *chatEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Messages []any `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	e.mu.Lock()
	e.msgs = append(e.msgs, body.Messages)
	n := len(e.msgs)
	e.mu.Unlock()
	msg := `{"role":"assistant","content":"A gray page."}`
	if n == 1 {
		msg = `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"img__shot","arguments":"{}"}}]}`
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"c","object":"chat.completion","model":"fake-model","choices":[{"index":0,"message":%s,"finish_reason":"stop"}]}`, msg)
}

// TestImagesOfMountedTool: the agent, with a mounted server whose tool
// answers a PNG, shows the model the image when -images is on (and the
// endpoint receives the image message as the chat completions API wants
// it), describes it when off or for an endpoint it does not know (auto);
// the kept conversation holds the description, never the image.
func TestImagesOfMountedTool(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	pic := b.Bytes()
	mcpURL := screenshotServer(t, pic)
	desc := fmt.Sprintf("the page\n[image: image/png, 3×2 pixels, %d bytes]", len(pic))
	shown := []any{
		map[string]any{"role": "tool", "tool_call_id": "call_1", "content": desc + fmt.Sprintf("\n[image/png, %d bytes: shown in the next message]", len(pic))},
		map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": "The images the tool call call_1 (img__shot) returned:"},
			map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64," + base64.StdEncoding.EncodeToString(pic)}},
		}},
	}
	described := []any{map[string]any{"role": "tool", "tool_call_id": "call_1", "content": desc}}
	for _, tt := range []struct {
		mode string
		want []any
	}{{"on", shown}, {"off", described}, {"auto", described}} {
		t.Run(tt.mode, func(t *testing.T) {
			ep := &chatEndpoint{}
			llm := httptest.NewServer(ep)
			defer llm.Close()
			state := t.TempDir()
			env := map[string]string{"LLM_BASE_URL": llm.URL + "/v1", "LLM_MODEL": "fake-model",
				"XDG_STATE_HOME": state, "XDG_CONFIG_HOME": t.TempDir()}
			var stdout, stderr bytes.Buffer
			c := &cli{tools: testTools, stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] }}
			code := c.run(context.Background(), []string{"-tools", "calculator", "-isolate", "none", "-q", "-raw",
				"-mcp", "img=" + mcpURL, "-images", tt.mode, "What is on the page?"})
			if code != 0 || strings.TrimSpace(stdout.String()) != "A gray page." {
				t.Fatalf("exit %d; stdout %q; stderr %q", code, stdout.String(), stderr.String())
			}
			if len(ep.msgs) != 2 {
				t.Fatalf("%d requests, want 2", len(ep.msgs))
			}
			// The system message, the question, the call: then the
			// tool's answer.
			if diff := cmp.Diff(tt.want, ep.msgs[1][3:]); diff != "" {
				t.Errorf("messages after the call (-want +got):\n%s", diff)
			}
			kept, err := filepath.Glob(filepath.Join(state, "toolreg", "conversations", "*.jsonl"))
			if err != nil || len(kept) != 1 {
				t.Fatalf("kept conversations: %v, %v", kept, err)
			}
			log, err := os.ReadFile(kept[0])
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(log), "base64") || strings.Contains(string(log), base64.StdEncoding.EncodeToString(pic)) {
				t.Errorf("the kept conversation holds the image:\n%s", log)
			}
		})
	}
}
