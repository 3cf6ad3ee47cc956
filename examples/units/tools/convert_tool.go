package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Convert converts lengths between units.
type Convert struct{}

// ConvertArgs are the arguments the model sends.
type ConvertArgs struct {
	// The length to convert.
	Value float64 `json:"value"`
	// The unit of the value: mm (millimetres), cm (centimetres), m (metres),
	// km (kilometres), in (inches), ft (feet) or mi (miles).
	From string `json:"from" jsonschema:"enum=mm,enum=cm,enum=m,enum=km,enum=in,enum=ft,enum=mi"`
	// The units to convert to; every unit when left out.
	To []string `json:"to,omitempty" jsonschema:"maxItems=7"`
}

// ConvertResult is the answer: the value in each unit asked for.
type ConvertResult struct {
	// Meters is the value in meters, the unit everything goes through.
	Meters float64 `json:"meters"`
	// Values maps each unit asked for to the value in that unit, in the
	// order asked.
	Values []UnitValue `json:"values"`
}

// UnitValue is a value in one unit.
type UnitValue struct {
	// Unit is the unit's symbol.
	Unit string `json:"unit"`
	// Value is the value in that unit.
	Value float64 `json:"value"`
}

// meters is the length of each unit in meters.
var meters = map[string]float64{
	"mm": 0.001, "cm": 0.01, "m": 1, "km": 1000,
	"in": 0.0254, "ft": 0.3048, "mi": 1609.344,
}

// units is the order in which every unit is listed.
var units = []string{"mm", "cm", "m", "km", "in", "ft", "mi"}

// Definition describes the tool.
func (Convert) Definition() tool.Definition {
	return tool.Definition{
		ID:          "convert",
		Description: "Convert a length between mm, cm, m, km, in, ft and mi. Use it instead of converting in your head.",
		Timeout:     2 * time.Second,
	}
}

// Execute converts args.Value.
func (Convert) Execute(ctx context.Context, args ConvertArgs) (ConvertResult, error) {
	to := args.To
	if len(to) == 0 {
		to = units
	}
	m := args.Value * meters[args.From]
	res := ConvertResult{Meters: m}
	for _, u := range to {
		f, ok := meters[u]
		if !ok {
			return ConvertResult{}, fmt.Errorf("unknown unit %q: use one of mm, cm, m, km, in, ft, mi", u)
		}
		res.Values = append(res.Values, UnitValue{Unit: u, Value: m / f})
	}
	return res, nil
}
