package lint

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Vague is the experiment: a tool whose description says nothing.
type Vague struct{}

// VagueArgs are its arguments, each described badly in its own way.
type VagueArgs struct {
	// Data.
	Data string `json:"data"` // want `parameter "data": description "Data." only repeats the field name`
	// The input.
	Input string `json:"input"` // want `parameter "input": description "The input." only repeats the field name`
	// Rows to read.
	Rows int `json:"rows"`
	// A mode.
	Mode string `json:"mode" jsonschema:"enum=fast,enum=slow"` // want `parameter "mode": description "A mode." only repeats` `parameter "mode" is an enum, but its description does not mention "fast", "slow"`
	// How fast to go: fast skips the checks.
	Speed string `json:"speed" jsonschema:"enum=fast,enum=slow"` // want `parameter "speed" is an enum, but its description does not mention "slow": say what each choice means`
	// Pages to fetch, 1 to 10.
	Pages int `json:"pages" jsonschema:"minimum=1,maximum=16"` // want `parameter "pages": description says "1 to 10", but the jsonschema tag says maximum=16: make them agree`
	// Results to show, at most 5.
	Limit int `json:"limit" jsonschema:"minimum=1,maximum=20"` // want `description says "at most 5", but the jsonschema tag says maximum=20`
	// A label of up to 40 characters.
	Label string `json:"label" jsonschema:"maxLength=64"` // want `description says "up to 40", but the jsonschema tag says maxLength=64`
	// A note of up to 3 words; the tag bounds its characters.
	Note string `json:"note" jsonschema:"maxLength=64"`
}

// Definition describes it.
func (Vague) Definition() tool.Definition {
	return tool.Definition{ID: "vague", Description: "Handles data."} // want `Vague.Definition: Description has 2 word\(s\), fewer than 8` `Vague.Definition: Description does not say when to use the tool`
}

// Execute runs it.
func (Vague) Execute(ctx context.Context, args VagueArgs) (string, error) {
	return "", nil
}
