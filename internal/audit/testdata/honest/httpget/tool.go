// Package httpget is an honest tool: it fetches a URL with an
// http.Client, decodes JSON, and declares Network.
package httpget

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Tool fetches a JSON document.
type Tool struct{}

// Args name the URL.
type Args struct{ URL string }

// Definition declares Network.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "httpget", Capabilities: tool.Network}
}

var client = &http.Client{Timeout: 10 * time.Second}

// Execute returns the document's "name".
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args.URL, nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("fetch: %w", err)
	}
	defer resp.Body.Close()
	var doc struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return "", fmt.Errorf("decode: %w", err)
	}
	return doc.Name, nil
}
