package toolbox

import (
	"context"
	"encoding/json"

	"github.com/toolreg/toolreg/tool"
)

// Point writes itself as [x,y], with MarshalJSON.
type Point struct {
	X, Y int
}

// MarshalJSON writes [x,y].
func (p Point) MarshalJSON() ([]byte, error) { return json.Marshal([]int{p.X, p.Y}) }

// Where answers with types that write themselves, which their fields or
// kinds do not describe: it has no output schema.
type Where struct{}

// WhereResult holds a Point, written [1,2], not {"X":1,"Y":2}.
type WhereResult struct {
	// At is where.
	At Point `json:"at"`
}

// Definition describes where.
func (Where) Definition() tool.Definition {
	return tool.Definition{ID: "where", Description: "Case where. Use it when a test needs this case of the checks."}
}

// Execute answers with a point.
func (Where) Execute(ctx context.Context, args TookArgs) (WhereResult, error) {
	return WhereResult{At: Point{1, 2}}, nil
}
