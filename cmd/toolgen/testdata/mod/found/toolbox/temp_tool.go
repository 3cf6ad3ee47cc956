package toolbox

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Celsius writes itself as "20C", with MarshalText.
type Celsius float64

// MarshalText writes the temperature with its unit.
func (c Celsius) MarshalText() ([]byte, error) { return []byte("20C"), nil }

// Temp answers with a Celsius, written "20C", not 20: it has no output
// schema.
type Temp struct{}

// TempResult holds a Celsius.
type TempResult struct {
	// Now is the temperature now.
	Now Celsius `json:"now"`
}

// Definition describes temp.
func (Temp) Definition() tool.Definition {
	return tool.Definition{ID: "temp", Description: "Case temp. Use it when a test needs this case of the checks."}
}

// Execute answers with 20 degrees.
func (Temp) Execute(ctx context.Context, args TookArgs) (TempResult, error) {
	return TempResult{Now: 20}, nil
}
