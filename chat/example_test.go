package chat_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/internal/testbox"
)

// fakeModel stands for an OpenAI-compatible endpoint: it asks for the
// count tool, then answers with what the tool message said.
func fakeModel() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		msg := `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"count","arguments":"{\"text\":\"one two three\"}"}}]}`
		if strings.Contains(string(body), `"role":"tool"`) {
			msg = `{"role":"assistant","content":"There are 3 words."}`
		}
		fmt.Fprintf(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":%s,"finish_reason":"stop"}]}`, msg)
	}))
}

func ExampleConversation_Turn() {
	srv := fakeModel()
	defer srv.Close()

	conv := &chat.Conversation{
		Client: &chat.Client{BaseURL: srv.URL + "/v1", APIKey: "sk-…", Model: "m", NoStream: true},
		Tools:  testbox.Toolbox(), // Your generated registry, and mounted tools.
		Sink: func(e chat.Event) {
			if e.Type == chat.EventToolResult {
				fmt.Printf("%s %s → %s\n", e.Tool, e.Args, e.Result)
			}
		},
	}
	answer, err := conv.Turn(context.Background(), "How many words are in 'one two three'?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(answer)
	// Output:
	// count {"text":"one two three"} → {"words":3,"characters":13}
	// There are 3 words.
}
