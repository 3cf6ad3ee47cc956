package lint

import (
	"context"

	"github.com/toolreg/toolreg/tool"
)

// Forecast is described well: what it does, when to use it and when not,
// and each parameter with its meaning and bounds.
type Forecast struct{}

// ForecastArgs are its arguments.
type ForecastArgs struct {
	// City or place name, for example Berlin; add the country after a comma when several places share the name.
	City string `json:"city" jsonschema:"minLength=1,maxLength=200"`
	// Number of forecast days, from 1 to 16, starting today; 3 when left out.
	Days int `json:"days,omitempty" jsonschema:"minimum=1,maximum=16,default=3"`
	// Units: celsius (with km/h) or fahrenheit (with mph); celsius when left out.
	Units string `json:"units,omitempty" jsonschema:"enum=celsius,enum=fahrenheit,default=celsius"`
	// A short title for the answer, at most 80 characters.
	Title string `json:"title,omitempty" jsonschema:"maxLength=80"`
}

// Definition describes it.
func (Forecast) Definition() tool.Definition {
	return tool.Definition{ID: "forecast", Description: "Get the daily weather forecast for a city: temperature, rain and wind. Use it when the user asks about the weather in the coming days; not for past weather."}
}

// Execute runs it.
func (Forecast) Execute(ctx context.Context, args ForecastArgs) (string, error) {
	return "", nil
}
