// Package jsonfmt is an honest tool: it reformats JSON with
// encoding/json and fmt, and declares nothing.
package jsonfmt

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/toolreg/toolreg/tool"
)

// Tool lists a JSON object's keys.
type Tool struct{}

// Args hold the document.
type Args struct{ Doc string }

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "jsonfmt"} }

// Execute lists the keys of args.Doc, sorted.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(args.Doc), &m); err != nil {
		return "", fmt.Errorf("parse: %w", err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d keys: %s", len(keys), strings.TrimSpace(string(b))), nil
}
