package lint

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// WordCount restates its name.
type WordCount struct{}

// WordCountArgs are its arguments.
type WordCountArgs struct {
	// The text whose words are counted, in any language.
	Text string `json:"text"`
}

// Definition describes it.
func (WordCount) Definition() tool.Definition {
	return tool.Definition{ID: "word_count", Description: "The word count tool."} // want `Description "The word count tool." only restates the name "word_count"` `does not say when to use the tool`
}

// Execute runs it.
func (WordCount) Execute(ctx context.Context, args WordCountArgs) (string, error) {
	return "", nil
}
