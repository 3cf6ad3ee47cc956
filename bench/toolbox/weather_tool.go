// Package toolbox holds the one tool of the dispatch benchmark. Every
// contender calls the same body, Forecast, so that only the dispatch
// differs.
package toolbox

import (
	"context"
	"strconv"

	"github.com/toolreg/toolreg/tool"
)

// Weather is the benchmark's tool: the shape of toolreg's weather tool,
// with a body that only formats a line.
type Weather struct{}

// WeatherArgs are the arguments the model sends.
type WeatherArgs struct {
	// City or place name, for example Berlin.
	City string `json:"city"`
	// Number of forecast days, 1 to 16.
	Days int `json:"days,omitempty" jsonschema:"minimum=1,maximum=16"`
	// Units of the temperatures: celsius or fahrenheit.
	Units string `json:"units,omitempty" jsonschema:"enum=celsius,enum=fahrenheit"`
}

// Definition describes the tool.
func (Weather) Definition() tool.Definition {
	return tool.Definition{
		ID:          "weather",
		Description: "Get the weather forecast for a city. Use it when the user asks what the weather will be somewhere.",
	}
}

// Execute formats the answer.
func (Weather) Execute(ctx context.Context, args WeatherArgs) (string, error) {
	return Forecast(args.City, args.Days, args.Units), nil
}

// Forecast is the body every contender runs.
func Forecast(city string, days int, units string) string {
	if days == 0 {
		days = 3
	}
	if units == "" {
		units = "celsius"
	}
	return city + ": " + strconv.Itoa(days) + " days in " + units
}
