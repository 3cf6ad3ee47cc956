package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The Open-Meteo services the weather tool uses, and the environment
// variables that move them (to a self-hosted instance, or to a fake in
// tests). The tool appends /v1/search and /v1/forecast.
const (
	weatherGeocodingEnv        = "OPEN_METEO_GEOCODING_URL"
	weatherGeocodingDefaultURL = "https://geocoding-api.open-meteo.com"
	weatherForecastEnv         = "OPEN_METEO_FORECAST_URL"
	weatherForecastDefaultURL  = "https://api.open-meteo.com"

	weatherGeocodingService = "Open-Meteo geocoding"
	weatherForecastService  = "Open-Meteo forecast"
)

// The variables asked of the forecast API; weatherForecast decodes them.
const (
	weatherCurrentVars = "temperature_2m,apparent_temperature,relative_humidity_2m,weather_code,wind_speed_10m,wind_direction_10m"
	weatherDailyVars   = "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max,wind_speed_10m_max"
)

// weatherPlace is one result of the geocoding API
// (https://open-meteo.com/en/docs/geocoding-api). Empty fields are left out
// by the API.
type weatherPlace struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Latitude    float64 `json:"latitude"`
	Longitude   float64 `json:"longitude"`
	FeatureCode string  `json:"feature_code"`
	CountryCode string  `json:"country_code"`
	Country     string  `json:"country"`
	Admin1      string  `json:"admin1"`
	Admin2      string  `json:"admin2"`
	Admin3      string  `json:"admin3"`
	Admin4      string  `json:"admin4"`
	Timezone    string  `json:"timezone"`
	Population  int64   `json:"population"`
}

// weatherGeocodeResponse is the body of GET /v1/search. Without a match the
// API leaves results out.
type weatherGeocodeResponse struct {
	Results []weatherPlace `json:"results"`
}

// weatherAPIError is the body of an Open-Meteo error, for example
// {"error": true, "reason": "Parameter count must be between 1 and 100."}.
type weatherAPIError struct {
	Error  bool   `json:"error"`
	Reason string `json:"reason"`
}

// weatherCurrent holds the current conditions of a forecast. Values are
// pointers because the API sends null where it has no data.
type weatherCurrent struct {
	Time          string   `json:"time"`
	Temperature   *float64 `json:"temperature_2m"`
	Apparent      *float64 `json:"apparent_temperature"`
	Humidity      *float64 `json:"relative_humidity_2m"`
	WeatherCode   *float64 `json:"weather_code"`
	WindSpeed     *float64 `json:"wind_speed_10m"`
	WindDirection *float64 `json:"wind_direction_10m"`
}

// weatherDaily holds the daily forecast: one array element per day.
type weatherDaily struct {
	Time              []string   `json:"time"`
	WeatherCode       []*float64 `json:"weather_code"`
	TemperatureMax    []*float64 `json:"temperature_2m_max"`
	TemperatureMin    []*float64 `json:"temperature_2m_min"`
	PrecipitationSum  []*float64 `json:"precipitation_sum"`
	PrecipitationProb []*float64 `json:"precipitation_probability_max"`
	WindSpeedMax      []*float64 `json:"wind_speed_10m_max"`
}

// weatherForecast is the body of GET /v1/forecast
// (https://open-meteo.com/en/docs, "JSON Return Object").
type weatherForecast struct {
	Latitude             float64           `json:"latitude"`
	Longitude            float64           `json:"longitude"`
	Timezone             string            `json:"timezone"`
	TimezoneAbbreviation string            `json:"timezone_abbreviation"`
	CurrentUnits         map[string]string `json:"current_units"`
	Current              *weatherCurrent   `json:"current"`
	DailyUnits           map[string]string `json:"daily_units"`
	Daily                *weatherDaily     `json:"daily"`
}

// weatherGet fetches endpoint from an Open-Meteo service and decodes its JSON
// body into v.
func weatherGet(ctx context.Context, c *http.Client, service, endpoint string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return fmt.Errorf("building the %s request: %w", service, err)
	}
	status, body, err := httpxDo(c, req, service)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		var apiErr weatherAPIError
		reason := ""
		if json.Unmarshal(body, &apiErr) == nil && apiErr.Reason != "" {
			reason = apiErr.Reason
		} else {
			reason = httpxSnippet(body, 200)
		}
		return &httpxStatusError{Service: service, Status: status, Reason: reason}
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s sent a response that is not the JSON it documents (%v); try again later", service, err)
	}
	// A 200 answer should never carry the error object, but say so if it does.
	var apiErr weatherAPIError
	if json.Unmarshal(body, &apiErr) == nil && apiErr.Error {
		return &httpxStatusError{Service: service, Status: status, Reason: apiErr.Reason}
	}
	return nil
}

// weatherGeocode looks name up with the geocoding API, asking for up to
// count results.
func weatherGeocode(ctx context.Context, c *http.Client, base *url.URL, name string, count int) ([]weatherPlace, error) {
	q := url.Values{}
	q.Set("name", name)
	q.Set("count", strconv.Itoa(count))
	q.Set("language", "en")
	q.Set("format", "json")
	var resp weatherGeocodeResponse
	if err := weatherGet(ctx, c, weatherGeocodingService, httpxEndpoint(base, q, "v1", "search"), &resp); err != nil {
		return nil, err
	}
	return resp.Results, nil
}

// weatherFetchForecast asks the forecast API for the current conditions and
// days days of daily forecast at p, in the given units (celsius or
// fahrenheit).
func weatherFetchForecast(ctx context.Context, c *http.Client, base *url.URL, p weatherPlace, days int, units string) (*weatherForecast, error) {
	q := url.Values{}
	q.Set("latitude", strconv.FormatFloat(p.Latitude, 'f', -1, 64))
	q.Set("longitude", strconv.FormatFloat(p.Longitude, 'f', -1, 64))
	q.Set("current", weatherCurrentVars)
	q.Set("daily", weatherDailyVars)
	q.Set("forecast_days", strconv.Itoa(days))
	q.Set("temperature_unit", units)
	if units == "fahrenheit" {
		q.Set("wind_speed_unit", "mph")
		q.Set("precipitation_unit", "inch")
	}
	q.Set("timezone", "auto")
	var fc weatherForecast
	if err := weatherGet(ctx, c, weatherForecastService, httpxEndpoint(base, q, "v1", "forecast"), &fc); err != nil {
		return nil, err
	}
	if fc.Current == nil && (fc.Daily == nil || len(fc.Daily.Time) == 0) {
		return nil, fmt.Errorf("%s sent neither current conditions nor a daily forecast; try again later", weatherForecastService)
	}
	return &fc, nil
}

// weatherSplitCity splits what the model asked for, such as
// "Paris, Texas", into the name to look up ("Paris") and the qualifiers
// that narrow the matches (["Texas"]).
func weatherSplitCity(city string) (string, []string) {
	parts := strings.Split(city, ",")
	name := strings.TrimSpace(parts[0])
	var quals []string
	for _, p := range parts[1:] {
		if p = strings.TrimSpace(p); p != "" {
			quals = append(quals, p)
		}
	}
	return name, quals
}

// weatherMatchesQualifiers reports whether every qualifier names the
// country, the country code or one of the administrative areas of p.
func weatherMatchesQualifiers(p weatherPlace, quals []string) bool {
	for _, q := range quals {
		ok := false
		for _, f := range []string{p.Country, p.CountryCode, p.Admin1, p.Admin2, p.Admin3, p.Admin4} {
			if f != "" && strings.EqualFold(f, q) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// weatherStrongShare is how large, relative to the chosen place, another
// place of the same name must be to be named as an alternative.
const weatherStrongShare = 0.1

// weatherMaxAlternatives bounds the alternatives named in an answer.
const weatherMaxAlternatives = 3

// weatherChoice is the place a query resolved to, with the other strong
// matches the model should know about.
type weatherChoice struct {
	Place weatherPlace
	// Others are strong matches in another country or region, most
	// populous first.
	Others []weatherPlace
}

// weatherChoose resolves the geocoding results of a query to one place.
//
// Policy: among the results that carry the name of the best-ranked result,
// the most populous wins (the first one on a tie, or when populations are
// unknown). Results elsewhere (another country or first-level region) whose
// population is at least a tenth of the winner's, or any when the winner's
// population is unknown, are reported as alternatives so that the answer
// can name them and the model can ask again more precisely.
func weatherChoose(results []weatherPlace) weatherChoice {
	best := results[0]
	var same []weatherPlace
	for _, r := range results {
		if strings.EqualFold(r.Name, best.Name) {
			same = append(same, r)
		}
	}
	chosen := same[0]
	for _, r := range same[1:] {
		if r.Population > chosen.Population {
			chosen = r
		}
	}
	var others []weatherPlace
	for _, r := range same {
		if strings.EqualFold(r.Country, chosen.Country) && strings.EqualFold(r.Admin1, chosen.Admin1) {
			continue
		}
		if chosen.Population > 0 && float64(r.Population) < weatherStrongShare*float64(chosen.Population) {
			continue
		}
		dup := false
		for _, o := range others {
			if strings.EqualFold(o.Country, r.Country) && strings.EqualFold(o.Admin1, r.Admin1) {
				dup = true
				break
			}
		}
		if !dup {
			others = append(others, r)
		}
	}
	// Most populous first; a stable insertion sort keeps the API's order on
	// ties.
	for i := 1; i < len(others); i++ {
		for j := i; j > 0 && others[j].Population > others[j-1].Population; j-- {
			others[j], others[j-1] = others[j-1], others[j]
		}
	}
	if len(others) > weatherMaxAlternatives {
		others = others[:weatherMaxAlternatives]
	}
	return weatherChoice{Place: chosen, Others: others}
}

// weatherRegion returns the first-level region and country of p, for
// example "Texas, United States", leaving out a region that repeats the
// place's own name.
func weatherRegion(p weatherPlace) string {
	var parts []string
	if p.Admin1 != "" && !strings.EqualFold(p.Admin1, p.Name) {
		parts = append(parts, p.Admin1)
	}
	switch {
	case p.Country != "":
		parts = append(parts, p.Country)
	case p.CountryCode != "":
		parts = append(parts, p.CountryCode)
	}
	return strings.Join(parts, ", ")
}

// weatherLabel names p with its region and country, for example
// "Paris, Texas, United States".
func weatherLabel(p weatherPlace) string {
	if r := weatherRegion(p); r != "" {
		return p.Name + ", " + r
	}
	return p.Name
}

// weatherAltLabel names p as an alternative, for example
// "Paris (Texas, United States)".
func weatherAltLabel(p weatherPlace) string {
	if r := weatherRegion(p); r != "" {
		return p.Name + " (" + r + ")"
	}
	return p.Name
}
