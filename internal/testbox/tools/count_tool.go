package tools

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolreg/toolreg/tool"
)

// Count counts the words and characters of a text.
type Count struct{}

// CountArgs are the arguments of count.
type CountArgs struct {
	// The text to count.
	Text string `json:"text"`
}

// CountResult is what count answers.
type CountResult struct {
	// Words is the number of space-separated words.
	Words int `json:"words"`
	// Characters is the number of Unicode code points.
	Characters int `json:"characters"`
}

// Definition describes count.
func (Count) Definition() tool.Definition {
	return tool.Definition{
		ID:          "count",
		Description: "Count the space-separated words and the characters of a text. Use it when a test needs a tool with a struct result.",
		Timeout:     5 * time.Second,
	}
}

// Execute counts args.Text.
func (Count) Execute(ctx context.Context, args CountArgs) (CountResult, error) {
	return CountResult{Words: len(strings.Fields(args.Text)), Characters: utf8.RuneCountInString(args.Text)}, nil
}
