package toolbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Weather reports the current conditions and a daily forecast for a place,
// from the free Open-Meteo APIs (no key needed).
//
// Its zero value is ready to use: it reads OPEN_METEO_GEOCODING_URL and
// OPEN_METEO_FORECAST_URL from the environment at each call (the public
// services when they are unset) and keeps one HTTP client for all calls.
type Weather struct {
	// client sends every request of the tool; its zero value is
	// http.DefaultClient's behaviour. Deadlines come from the call's context.
	client http.Client
	// getenv reads the environment; nil means os.Getenv. Tests set it.
	getenv func(string) string
}

// WeatherArgs are the arguments the model sends.
type WeatherArgs struct {
	// City or place name, for example Berlin or Tokyo. When several places share the name, add the region or country after a comma, for example Paris, Texas or Birmingham, United Kingdom.
	City string `json:"city" jsonschema:"minLength=1,maxLength=200"`
	// Number of forecast days, 1 to 16, starting today; 3 when left out.
	Days int `json:"days,omitempty" jsonschema:"minimum=1,maximum=16,default=3"`
	// Units: celsius (with km/h and mm) or fahrenheit (with mph and inch); celsius when left out.
	Units string `json:"units,omitempty" jsonschema:"enum=celsius,enum=fahrenheit,default=celsius"`
}

// Defaults and bounds of the arguments, and how long a direct call without a
// deadline may take.
const (
	weatherDefaultDays = 3
	weatherMaxDays     = 16
	weatherTimeout     = 20 * time.Second
)

// Definition describes the tool.
func (*Weather) Definition() tool.Definition {
	return tool.Definition{
		ID:           "weather",
		Description:  "Get the current weather and a daily forecast (up to 16 days) for a city or place: temperature, conditions, wind, precipitation. Give the place name; if several places share it, add the region or country after a comma, e.g. \"Paris, Texas\". The answer says which place was used and names other places of the same name. Use it when the user asks about the weather, temperature, rain or wind somewhere, today or in the next days; not for past weather or climate averages.",
		Timeout:      20 * time.Second,
		Capabilities: tool.Network | tool.Env,
	}
}

// Execute resolves args.City to a place with the geocoding API, then fetches
// its forecast and answers it as compact text: the place, the current
// conditions, and one line per day.
//
// When several strong matches share the name, the most populous one is used
// and the answer names the others; a qualifier after a comma ("Paris,
// Texas") keeps only matches in that region or country.
func (w *Weather) Execute(ctx context.Context, args WeatherArgs) (string, error) {
	city := strings.TrimSpace(args.City)
	name, quals := weatherSplitCity(city)
	if name == "" {
		return "", errors.New("city is empty: give a city or place name, for example Berlin, or Paris, Texas")
	}
	days := args.Days
	if days == 0 {
		days = weatherDefaultDays
	}
	if days < 1 || days > weatherMaxDays {
		return "", fmt.Errorf("days is %d, but the forecast covers 1 to %d days; leave days out for %d", args.Days, weatherMaxDays, weatherDefaultDays)
	}
	units := strings.ToLower(strings.TrimSpace(args.Units))
	if units == "" {
		units = "celsius"
	}
	if units != "celsius" && units != "fahrenheit" {
		return "", fmt.Errorf("units is %q, but only celsius and fahrenheit are supported; leave units out for celsius", args.Units)
	}

	getenv := w.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	geoBase, err := httpxBaseURL(weatherGeocodingEnv, getenv(weatherGeocodingEnv), weatherGeocodingDefaultURL)
	if err != nil {
		return "", err
	}
	fcBase, err := httpxBaseURL(weatherForecastEnv, getenv(weatherForecastEnv), weatherForecastDefaultURL)
	if err != nil {
		return "", err
	}

	ctx, cancel := httpxWithDeadline(ctx, weatherTimeout)
	defer cancel()

	count := 10
	if len(quals) > 0 {
		// The qualifier is applied here, so fetch enough namesakes for the
		// wanted one to be among them.
		count = 100
	}
	results, err := weatherGeocode(ctx, &w.client, geoBase, name, count)
	if err != nil {
		return "", fmt.Errorf("looking up the place %q: %w", city, err)
	}
	if len(results) == 0 {
		return "", fmt.Errorf("no place called %q was found; check the spelling, try the English or the local name, or a larger town nearby", name)
	}
	if len(quals) > 0 {
		var kept []weatherPlace
		for _, r := range results {
			if weatherMatchesQualifiers(r, quals) {
				kept = append(kept, r)
			}
		}
		if len(kept) == 0 {
			return "", weatherNoQualifiedMatch(name, quals, results)
		}
		results = kept
	}
	choice := weatherChoose(results)

	fc, err := weatherFetchForecast(ctx, &w.client, fcBase, choice.Place, days, units)
	if err != nil {
		return "", fmt.Errorf("getting the forecast for %s: %w", weatherLabel(choice.Place), err)
	}
	return weatherReport(choice, fc), nil
}

// weatherNoQualifiedMatch explains that places called name exist, but none
// in the region or country the qualifiers name, and lists some that do.
func weatherNoQualifiedMatch(name string, quals []string, results []weatherPlace) error {
	const limit = 5
	var labels []string
	seen := map[string]bool{}
	for _, r := range results {
		l := weatherAltLabel(r)
		if seen[l] {
			continue
		}
		seen[l] = true
		labels = append(labels, l)
		if len(labels) == limit {
			break
		}
	}
	return fmt.Errorf("places called %q were found, but none in %q; some that were found: %s. Ask again with one of these regions or countries after the comma, or with the name alone",
		name, strings.Join(quals, ", "), strings.Join(labels, "; "))
}
