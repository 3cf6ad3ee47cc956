// Package httpsjson is an honest tool: it fetches a JSON document over
// HTTPS with http.Get (the default transport: proxy variables, the
// system's roots, the resolver's configuration) and declares Network.
package httpsjson

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/toolreg/toolreg/tool"
)

// Tool looks a word up.
type Tool struct{}

// Args name the word.
type Args struct{ Word string }

// Definition declares Network.
func (Tool) Definition() tool.Definition {
	return tool.Definition{ID: "httpsjson", Capabilities: tool.Network}
}

// Execute returns the word's first definition.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	resp, err := http.Get("https://api.dictionaryapi.dev/api/v2/entries/en/" + url.PathEscape(args.Word))
	if err != nil {
		return "", fmt.Errorf("fetch: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("fetch: %s", resp.Status)
	}
	var entries []struct {
		Meanings []struct {
			Definitions []struct {
				Definition string `json:"definition"`
			} `json:"definitions"`
		} `json:"meanings"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&entries); err != nil {
		return "", fmt.Errorf("decode: %w", err)
	}
	for _, e := range entries {
		for _, m := range e.Meanings {
			for _, d := range m.Definitions {
				return d.Definition, nil
			}
		}
	}
	return "", fmt.Errorf("no definition of %q", args.Word)
}
